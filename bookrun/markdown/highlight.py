"""Pygments filter `bookrun-plain`: tokens drawn in the code's own colour are text.

Pygments' HTML formatter writes every token but plain `Text` as a span with a class,
and the theme colours each class. In Material and Zensical a plain name (`Name`,
class `n`) gets `--md-code-hl-name-color`, which both themes set to the code's own
colour (`--md-code-fg-color`): its span changes nothing a reader sees. Punctuation
(`p`) gets a grey near that colour. Together they made 45-60% of the spans in this
book's code and 25% of a chapter's elements (`ppo/`: 4,600 of 18,100), each one
styled and laid out by the browser and measured by axe-core's contrast rule.

As `Text`, a name or a bracket joins the text around it in one text node, drawn in
the code's colour. Whitespace tokens (class `w`, uncoloured) go the same way.
Everything with a colour of its own keeps its span: keywords, strings, numbers,
comments, operators, and the names the lexer tells apart (builtins, functions,
classes, decorators: `Name`'s subtypes).

Lexers take the filter by name, through pymdown-extensions' `extend_pygments_lang`
(mkdocs.yml); Pygments finds it through the `pygments.filters` entry point in
pyproject.toml.
"""
from __future__ import annotations

from pygments.filter import Filter
from pygments.filters import find_filter_class
from pygments.token import Name, Punctuation, Text, Whitespace


class PlainText(Filter):
    """`Name` (not its subtypes), `Punctuation` and `Whitespace` tokens become `Text`."""

    def filter(self, lexer, stream):
        for ttype, value in stream:
            plain = ttype is Name or ttype in Punctuation or ttype in Whitespace
            yield (Text if plain else ttype), value


def missing_filters(options: dict) -> list[str]:
    """What pymdownx.highlight's options (`options`, as mkdocs.yml gives them) name in
    `extend_pygments_lang` that Pygments cannot find. pymdown-extensions would show that
    language's code unhighlighted, with no message: a checkout installed before bookrun
    registered its filter, say."""
    missing = []
    for entry in options.get("extend_pygments_lang") or []:
        for name in (entry.get("options") or {}).get("filters") or []:
            if isinstance(name, str) and find_filter_class(name) is None:
                missing.append(f"pymdownx.highlight's extend_pygments_lang gives "
                               f"{entry.get('name')!r} the Pygments filter {name!r}, which "
                               "is not installed (`pip install -e .` registers bookrun's)")
    return missing

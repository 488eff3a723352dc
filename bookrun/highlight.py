"""Pygments filter `bookrun-plain-names`: names drawn in the code's own colour are text.

Material and Zensical colour a plain name (Pygments' `Name`, class `n`) with
`--md-code-hl-name-color`, which both themes set to the code's own colour
(`--md-code-fg-color`): the span changes nothing a reader sees. A chapter of this book
carried 1,000 to 2,500 of them, 10-15% of its elements, each one styled and laid out
by the browser and measured by axe-core's contrast rule. Turned into `Text`, which
Pygments' HTML formatter writes without a span, a name joins the spaces around it
in one text node. Whitespace tokens (class `w`, uncoloured) go the same way.

Names with a colour of their own (builtins, functions, classes, decorators: the
`Name.*` subtypes) keep their spans. Lexers take the filter by name, through
pymdown-extensions' `extend_pygments_lang` (mkdocs.yml); Pygments finds it through
the `pygments.filters` entry point in pyproject.toml.
"""
from __future__ import annotations

from pygments.filter import Filter
from pygments.token import Name, Text, Whitespace


class PlainNames(Filter):
    """`Name` (not its subtypes) and `Whitespace` tokens become `Text`."""

    def filter(self, lexer, stream):
        for ttype, value in stream:
            yield (Text if ttype is Name or ttype in Whitespace else ttype), value

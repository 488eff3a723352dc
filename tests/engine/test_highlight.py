"""The book's code is highlighted through its Pygments filter (bookrun/highlight.py):
names and punctuation are plain text in the code's own colour, every other token
keeps its span."""
import html
import re

import markdown
from mkdocs.utils.yaml import yaml_load
from pygments.filters import find_filter_class

from bookrun.markdown.highlight import PlainText, missing_filters
from helpers.paths import ROOT

SOURCE = '''def clipped(ratio, eps=0.2):
    return np.clip(ratio, 1 - eps, len("ab"))  # both sides
'''


def site_highlight_config() -> dict:
    """pymdownx.highlight's options, as mkdocs.yml (and so Zensical) gives them."""
    with open(ROOT / "mkdocs.yml", encoding="utf-8") as f:
        extensions = yaml_load(f)["markdown_extensions"]
    for entry in extensions:
        if isinstance(entry, dict) and "pymdownx.highlight" in entry:
            return entry["pymdownx.highlight"]
    raise AssertionError("mkdocs.yml configures no pymdownx.highlight")


def render(lang: str) -> str:
    md = markdown.Markdown(extensions=["pymdownx.highlight", "pymdownx.superfences"],
                           extension_configs={"pymdownx.highlight": site_highlight_config()})
    return md.convert(f"```{lang}\n{SOURCE}```\n")


def test_the_filter_is_found_by_the_name_mkdocs_yml_gives():
    # The entry point is written when bookrun is installed (pip install -e .): a checkout
    # whose install predates it has highlighting silently dropped by pymdownx.
    assert find_filter_class("bookrun-plain") is PlainText, (
        "Pygments does not find bookrun's filter: reinstall with `pip install -e .`")


def test_names_and_punctuation_are_text_and_coloured_tokens_keep_their_spans():
    for lang in ("python", "py"):
        out = render(lang)
        classes = set(re.findall(r'<span class="([^"]+)"', out))
        assert not classes & {"n", "p", "w"}, f"{lang}: spans left for names, punctuation, spaces"
        # def/return, the function's name, a builtin, numbers, a string, a comment, operators
        assert {"k", "nf", "nb", "mf", "mi", "s2", "c1", "o"} <= classes, (lang, classes)
        code = re.search(r"<code>(.*)</code>", out, re.S).group(1)
        assert html.unescape(re.sub(r"<[^>]+>", "", code)) == SOURCE, lang
        # names and brackets join the text around them: one text node, no span of their own
        assert "</span> np<span" in out and "</span>(ratio, eps<span" in out, out


def test_a_filter_pygments_cannot_find_is_named():
    assert missing_filters(site_highlight_config()) == []
    options = {"extend_pygments_lang": [
        {"name": "python", "lang": "python", "options": {"filters": ["no-such-filter"]}}]}
    (message,) = missing_filters(options)
    assert "'python'" in message and "'no-such-filter'" in message and "pip install" in message

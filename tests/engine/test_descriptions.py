"""Descriptions of a run are checked: every sentence of a figure's caption or Alt text
that compares ("leads", "fastest", "barely", "cold", ...) either quotes a bound value
(`{{ }}`) or is named, by a quoted fragment, in a chapter test's assertion.

Reads only docs/*.md and tests/book/test_*.py: nothing runs.
"""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Words that say how a run or a frame came out, relative to something else.
COMPARATIVES = (
    "ahead", "almost", "barely", "beats", "behind", "better", "climbs", "cold",
    "fastest", "faster", "fewer", "higher", "highest", "lead", "leads", "led",
    "least", "lower", "lowest", "lucky", "most", "nearly", "overtakes", "slowest",
    "slower", "unlucky", "wins", "worse",
)
WORD = re.compile(r"\b(" + "|".join(COMPARATIVES) + r")\b", re.IGNORECASE)
DIRECTIVE = re.compile(r"^(?P<indent>[ \t]*)(?P<kind>Figure|Alt):[ \t]?(?P<text>.*)$")
BINDING = re.compile(r"\{\{.*?\}\}", re.DOTALL)
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")
QUOTED = re.compile(r"'([^'\n]{12,}?)'")  # a fragment quoted inside a test's message


def figure_texts(page: Path):
    """(line, kind, text) of every caption and Alt text on the page, with its
    continuation lines (indented deeper than the directive) joined."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found = []
    for i, line in enumerate(lines):
        m = DIRECTIVE.match(line)
        if not m:
            continue
        indent, parts = len(m["indent"].expandtabs()), [m["text"]]
        for nxt in lines[i + 1:]:
            if not nxt.strip() or len(nxt) - len(nxt.lstrip()) <= indent:
                break
            parts.append(nxt.strip())
        found.append((i + 1, m["kind"], " ".join(parts)))
    return found


def sentences(text):
    """Sentences of a text, each with its bindings intact (a binding's dots do not
    end a sentence)."""
    held = []
    masked = BINDING.sub(lambda m: held.append(m[0]) or f"\x00{len(held) - 1}\x00", text)
    for part in SENTENCE_END.split(masked):
        yield re.sub(r"\x00(\d+)\x00", lambda m: held[int(m[1])], part).strip()


def named_in_tests(folder: Path = ROOT / "tests" / "book"):
    """Every fragment a chapter test quotes in single quotes (its assertions'
    messages name the sentence they check this way)."""
    fragments = set()
    for test in folder.glob("test_*.py"):
        for frag in QUOTED.findall(test.read_text(encoding="utf-8")):
            fragments.add(" ".join(frag.split()))
    return fragments


def unchecked(pages, fragments, root=ROOT):
    """(page:line, kind, word, sentence) of each comparative sentence that is neither
    bound nor named by a test."""
    bad = []
    for page in pages:
        for line, kind, text in figure_texts(page):
            for sentence in sentences(text):
                words = WORD.findall(sentence)
                if not words or BINDING.search(sentence):
                    continue
                flat = " ".join(sentence.split())
                if any(f in flat and WORD.search(f) for f in fragments):
                    continue
                bad.append((f"{page.relative_to(root)}:{line}", kind, words[0], flat))
    return bad


def test_every_comparative_sentence_in_figures_is_checked():
    pages = sorted((ROOT / "docs").glob("*.md"))
    bad = unchecked(pages, named_in_tests())
    assert not bad, "comparative sentences in captions or Alt texts that nothing " \
        "checks (bind a value with {{ }} or quote the sentence in a chapter test's " \
        "assertion message):\n" + "\n".join(
            f"  {where} ({kind}, '{word}'): {s}" for where, kind, word, s in bad)


# ---- the checker itself -------------------------------------------------------

PAGE = """\
Some prose that says PPO leads, outside any figure.

@run demo/plot.py
Figure: Two curves; the orange one ends higher.
Alt: Two rising curves. The orange one leads from round
    {{ int(np.argmax(lead > 0)) + 1 }} on. The blue one ran cold
    early and climbs last.
Interactive: frame
"""


@pytest.fixture
def page(tmp_path):
    path = tmp_path / "demo.md"
    path.write_text(PAGE, encoding="utf-8")
    return path


def test_reads_captions_and_alt_texts_with_their_continuation_lines(page):
    texts = figure_texts(page)
    assert [(line, kind) for line, kind, _ in texts] == [(4, "Figure"), (5, "Alt")]
    assert texts[1][2].endswith("early and climbs last.")
    assert "Interactive" not in texts[1][2]


def test_a_binding_keeps_its_sentence_whole():
    got = list(sentences("It leads from round {{ x.max() + 1 }} on. Then it falls."))
    assert got == ["It leads from round {{ x.max() + 1 }} on.", "Then it falls."]


def test_flags_unbound_unnamed_sentences_only(page):
    bad = unchecked([page], set(), page.parent)
    assert [(kind, word) for _, kind, word, _ in bad] == [("Figure", "higher"),
                                                         ("Alt", "cold")]
    # the prose outside figures is not read; the bound sentence passes
    assert all("leads" not in s for *_, s in bad)


def test_a_sentence_named_in_a_test_passes(page):
    named = {"The blue one ran cold early"}
    bad = unchecked([page], named, page.parent)
    assert [word for _, _, word, _ in bad] == ["higher"]
    # a quoted fragment without the comparative word does not name the sentence
    assert len(unchecked([page], {"The blue one ran"}, page.parent)) == 2


def test_fragments_come_from_single_quotes_in_test_files(tmp_path):
    (tmp_path / "test_demo.py").write_text(
        'assert x, "Alt of the demo: \'The blue one ran cold early\'"\n'
        "assert y  # 'short'\n", encoding="utf-8")
    assert named_in_tests(tmp_path) == {"The blue one ran cold early"}

"""The grammar of a `{{ }}` binding in prose, checked when the page is read.

    {{ expr }}            the value's str(), as format(value, "") gives it
    {{ expr | spec }}     format(value, spec); the spec is the text after the LAST `|`

`expr` is one Python expression; `spec` is Python's format-spec mini-language, except
that a width must pad with zeros or a fill character: prose collapses the spaces a
plain width adds, so `{{ x | 3 }}` is almost always a mistake for `.3f` or `.3g`. To use
`|` as an operator, compute the value in the snippet. Nothing inside inline code
(`` `...` ``) is a binding: it is shown as written.
"""
from __future__ import annotations

import re

# [[fill]align][sign][z][#][0][width][grouping][.precision][type]
FORMAT_SPEC = re.compile(r"(?:(?P<fill>.)?(?P<align>[<>=^]))?[-+ ]?z?#?(?P<zero>0)?"
                         r"(?P<width>\d+)?[_,]?(?:\.\d+)?[bcdeEfFgGnosxX%]?", re.DOTALL)
BACKTICKS = re.compile(r"`+")


def binding_problem(body: str) -> str | None:
    """What is wrong with the text between `{{ ` and ` }}`, or None."""
    expr, bar, spec = body.rpartition("|") if "|" in body else (body, "", "")
    expr, spec = expr.strip(), spec.strip()
    if bar and not expr:
        return "nothing before the `|`: write {{ expression | format }}"
    if bar and not spec:
        return "nothing after the `|`: give a format such as .2f, or drop the `|`"
    try:
        compile(expr, "<binding>", "eval")
    except SyntaxError as exc:
        return f"{expr!r} is not a Python expression ({exc.msg})"
    if not bar:
        return None
    m = FORMAT_SPEC.fullmatch(spec)
    if m is None:
        return (f"{spec!r} after the `|` is not a format spec (as in .2f, .1%, ,d or 05d); "
                "to use `|` as an operator, compute the value in the snippet")
    if m.group("width") and not (m.group("zero") or m.group("fill")):
        return (f"format {spec!r} pads to a width with spaces, which prose does not show: "
                "for digits after the point write .Nf, for significant digits .Ng, to pad "
                "write 0 before the width (05d)")
    return None


def code_spans(line: str) -> list[tuple[int, int]]:
    """Where inline code is in one line: a run of N backticks up to the next run of
    exactly N (as CommonMark reads it); an unmatched run is literal text."""
    runs = [m.span() for m in BACKTICKS.finditer(line)]
    spans, k = [], 0
    while k < len(runs):
        start, end = runs[k]
        close = next((j for j in range(k + 1, len(runs))
                      if runs[j][1] - runs[j][0] == end - start), None)
        if close is None:
            k += 1
            continue
        spans.append((start, runs[close][1]))
        k = close + 1
    return spans


def outside_code(pattern: re.Pattern, line: str) -> list[re.Match]:
    """The pattern's matches in a line that do not touch its inline code."""
    spans = code_spans(line)
    return [m for m in pattern.finditer(line)
            if not any(s < m.end() and m.start() < e for s, e in spans)]


def sub_outside_code(pattern: re.Pattern, replace, text: str) -> str:
    """`pattern.sub(replace, text)`, line by line, leaving inline code as written."""
    out = []
    for line in text.split("\n"):
        pieces, at = [], 0
        for m in outside_code(pattern, line):
            pieces += [line[at:m.start()], replace(m)]
            at = m.end()
        out.append("".join(pieces) + line[at:])
    return "\n".join(out)

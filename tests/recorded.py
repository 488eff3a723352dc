"""Reading numbers and lines out of a chapter's recorded outputs, for the chapter tests."""
import re

NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?")
DECIMAL = re.compile(r"[-+]?\d+\.\d+(?:e[-+]?\d+)?")


def numbers(text, decimals_only=False):
    """Every number printed in `text`, in order (with `decimals_only`, skip integers)."""
    return [float(x) for x in (DECIMAL if decimals_only else NUMBER).findall(text)]


def first_line(record, snippet, prefix):
    """The first line `snippet` printed that starts with `prefix` (ignoring indentation)."""
    for ln in record.output(snippet).splitlines():
        if ln.strip().startswith(prefix):
            return ln.strip()
    raise AssertionError(f"{snippet}: no printed line starts with {prefix!r}")

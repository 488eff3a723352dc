"""Whether two SVG figures are one drawing, up to the last digit their coordinates print.

Matplotlib writes coordinates with six decimals. A coordinate that lands on a tie
(204.7971875) rounds either way depending on the last bit of the arithmetic, and that bit
depends on the CPU's instructions (fused multiply-add or not), not on the snippet. So on a
platform other than the recording one, a figure counts as the record's when its text is
the same apart from numbers, and every number is within one printed unit of the record's.
"""
import re

NUMBER = re.compile(rb"-?\d+(?:\.\d*)?(?:e[-+]?\d+)?")
LAST_DIGIT = 1e-6  # matplotlib's "%f": six decimals
SLACK = 1e-9  # the float error of reading "0.000001" back


def same_drawing(expected: bytes, got: bytes) -> bool:
    if NUMBER.split(expected) != NUMBER.split(got):
        return False  # different text: other elements, labels, styles or ids
    a, b = NUMBER.findall(expected), NUMBER.findall(got)
    return all(abs(float(x) - float(y)) <= LAST_DIGIT + SLACK for x, y in zip(a, b))

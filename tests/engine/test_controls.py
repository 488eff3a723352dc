"""An interactive figure's frames are counted from its `Control:` lines before any value
is made (issue 33): a typo in a step fails at once, naming the page and line."""
import resource
import time

import pytest

from bookrun.model.page import PageError
from bookrun.parse import controls
from bookrun.parse.chapter import parse_chapter

PAGE = """\
# Demo

@run demo/a.py
Figure: A wave.
Alt: A sine wave whose frequency the slider below sets, from one to ten.
Interactive: wave
{controls}
"""


def parse(tmp_path, control_lines: str):
    (tmp_path / "snippets" / "demo").mkdir(parents=True, exist_ok=True)
    (tmp_path / "snippets" / "demo" / "a.py").write_text("def wave(freq, phase=0):\n    pass\n")
    return parse_chapter(PAGE.format(controls=control_lines), tmp_path / "snippets",
                         "docs/demo.md")


@pytest.mark.parametrize("step", ["1e-7", "1e-8", "0.0000000000000000001"])
def test_a_tiny_step_fails_at_once_naming_the_line(tmp_path, step):
    used = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.process_time()
    with pytest.raises(PageError) as err:
        parse(tmp_path, f"Control: freq = 1 to 10 step {step} | frequency")
    assert time.process_time() - t0 < 0.5
    # (ru_maxrss is the peak in kB: it grows by nothing near 10**7 values' worth)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - used < 50_000
    assert str(err.value).startswith("docs/demo.md:7: ")
    assert "frames or more, past what any figure may have" in str(err.value)


def test_controls_whose_product_is_past_the_ceiling_fail_before_expansion(tmp_path):
    lines = ("Control: freq = 1 to 1000 step 1 | frequency\n"
             "Control: phase = 0 to 999 step 1 | phase")
    with pytest.raises(PageError, match=r"^docs/demo.md:8: these controls give 1,000,000 "
                                        r"frames or more"):
        parse(tmp_path, lines)


def test_the_count_is_the_number_of_values_made():
    for text in ("1 to 10 step 0.5", "0 to 0 step 1", "-1, 1", "'a', 'b', 'c'"):
        assert controls.value_count(text) == len(controls.parse_values(text)[0])

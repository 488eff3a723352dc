"""`mkdocs build` warns of a snippet printing a line wider than `max_output_width`, so a
strict build fails naming the snippet and its `@run` line (issue 32, item 6)."""
from helpers.builds import FIXTURE_CONFIG, build_fixture

PAGE = "# Demo\n\n@run demo/wide.py\n"
CODE = {"wide.py": "print('y' * 11)\n"}


def with_limit(limit: int) -> str:
    return FIXTURE_CONFIG.replace("      number_figures: true\n",
                                  f"      number_figures: true\n      max_output_width: {limit}\n")


def test_a_strict_build_fails_on_a_line_past_the_limit(tmp_path):
    proc = build_fixture(tmp_path, PAGE, CODE, config=with_limit(10))
    assert proc.returncode != 0
    assert ("WARNING -  bookrun: docs/demo.md:3: snippets/demo/wide.py prints 1 line(s) wider than "
            "max_output_width (10)") in proc.stderr


def test_a_line_at_the_limit_builds(tmp_path):
    proc = build_fixture(tmp_path, PAGE, CODE, config=with_limit(11))
    assert proc.returncode == 0, proc.stderr
    assert "max_output_width" not in proc.stderr

"""bookrun.build and bookrun.check, the public entry points, on a one-page book."""
import bookrun


def make_book(root):
    (root / "docs").mkdir()
    (root / "docs" / "demo.md").write_text("# Demo\n\n@run demo/a.py\n\nThe sum is {{ total }}.\n")
    (root / "snippets" / "demo").mkdir(parents=True)
    (root / "snippets" / "demo" / "a.py").write_text("total = sum(range(5))\nprint(total)\n")
    (root / "mkdocs.yml").write_text("site_name: Demo\n")


def test_build_records_and_check_compares(tmp_path):
    make_book(tmp_path)
    records = bookrun.build(tmp_path, timeout=60)
    assert isinstance(records["demo"], bookrun.Record)
    assert records["demo"].output("a.py") == "10\n"
    assert bookrun.check(tmp_path, ["demo"], timeout=60).problems == []
    (tmp_path / "snippets" / "demo" / "a.py").write_text("total = sum(range(6))\nprint(total)\n")
    problems = bookrun.check(tmp_path, timeout=60).problems
    assert problems and "demo" in problems[0]


def test_a_page_error_is_the_public_error(tmp_path):
    make_book(tmp_path)
    (tmp_path / "docs" / "demo.md").write_text("# Demo\n\n@run demo/missing.py\n")
    try:
        bookrun.build(tmp_path, timeout=60)
    except bookrun.PageError as exc:
        assert "docs/demo.md:3" in str(exc)
    else:
        raise AssertionError("a missing snippet built")

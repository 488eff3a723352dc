"""What `python -m bookrun check` tells the author (issue 33, item 8): the chapter to
update by name, and a record that cannot be read called corrupt, not a difference."""
from bookrun.hosts.cli import main
from helpers.books import make_book


def test_check_names_the_chapter_to_update(tmp_path, capsys):
    make_book(tmp_path, "# Demo\n@run demo/a.py\n", {"a.py": "print(1)\n"})
    assert main(["update"], root=tmp_path) == 0
    (tmp_path / "snippets" / "demo" / "a.py").write_text("print(2)\n")
    assert main(["check"], root=tmp_path) == 1
    err = capsys.readouterr().err
    assert "`python -m bookrun update demo`" in err and "corrupt" not in err


def test_a_corrupt_record_is_called_corrupt(tmp_path, capsys):
    make_book(tmp_path, "# Demo\n@run demo/a.py\n", {"a.py": "print(1)\n"})
    assert main(["update"], root=tmp_path) == 0
    record = tmp_path / "snippets" / "demo" / "_record.json"
    record.write_text(record.read_text()[:40])
    assert main(["check"], root=tmp_path) == 1
    err = capsys.readouterr().err
    assert "corrupt record(s) of demo" in err and "differ" not in err.split("corrupt")[-1]
    assert "snippets/demo/_record.json: corrupt: not JSON" in err

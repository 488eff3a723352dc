"""`check` against a record set made on another platform (issue 41): what the machine
explains is said, never sent to `update`; what it cannot explain still fails.

The records are made here, by a run on this machine whose platform and outputs are
then rewritten as another machine's would be (its CPU vendor, other digits), as a
record committed from that machine would read. The book's fingerprint reads the CPU
vendor, as this book's mkdocs.yml does for torch's MKL."""
import dataclasses
import json
from pathlib import Path

import pytest

from bookrun.hosts.cli import main
from bookrun.store.records import Record, record_path
from helpers.books import make_book

FINGERPRINT = ("markdown_extensions:\n  - bookrun.extension:\n      fingerprint:\n"
               "        json:\n"
               "          cpu_vendor: __import__('bookrun.fingerprint')"
               ".fingerprint.cpu_vendor()\n")
PAGE = ("# Demo\n@run demo/exact.py\n@run demo/chaotic.py platform-bound\n"
        "@run demo/rounded.py\n\nThe chaotic run ends at {{ end | .4f }}.\n")
SNIPPETS = {
    "exact.py": "import json\nprint(2 + 2)\n",
    "chaotic.py": "end = 0.1 + 0.2\nprint(f'{end:.17f}')\n",
    "rounded.py": "print(f'{1 / 3:.6f}')\n",
}
ELSEWHERE = "GenuineIntel-of-the-test"  # no real CPU names itself so


def recorded_elsewhere(tmp_path: Path, outputs: dict[str, str], values: dict | None = None,
                       vendor: str | None = ELSEWHERE) -> None:
    """Record the book here, then rewrite the record as another machine's: the given
    outputs and values, and this machine's platform with another CPU vendor (`vendor`
    None: the same platform; "": a record made before the vendor was read)."""
    assert main(["update"], root=tmp_path) == 0
    path = record_path("demo", tmp_path / "snippets")
    record = Record.from_json(path.read_text(), "demo")
    snippets = tuple(
        dataclasses.replace(s, output=outputs.get(Path(s.snippet).name, s.output),
                            values={**s.values, **(values or {}).get(Path(s.snippet).name, {})})
        for s in record.snippets)
    there = dict(record.platform)
    if vendor == "":
        del there["cpu_vendor"]
    elif vendor is not None:
        there["cpu_vendor"] = vendor
    path.write_text(dataclasses.replace(record, snippets=snippets, platform=there).to_json())


@pytest.fixture
def book(tmp_path):
    (tmp_path / "mkdocs.yml").write_text(FINGERPRINT)
    make_book(tmp_path, PAGE, SNIPPETS)
    return tmp_path


def test_the_record_keeps_the_cpu_vendor_the_fingerprint_reads(book):
    assert main(["update"], root=book) == 0
    platform = json.loads(record_path("demo", book / "snippets").read_text())["platform"]
    assert platform["cpu_vendor"] and platform["cpu_vendor"] != "unknown"


def test_a_platform_bound_snippet_with_other_digits_passes_and_the_note_says_why(book, capsys):
    recorded_elsewhere(book, {"chaotic.py": "0.30000000000000010\n"},
                       {"chaotic.py": {"end": "0.3001"}})
    assert main(["check"], root=book) == 0
    err = capsys.readouterr().err
    assert f"cpu_vendor {ELSEWHERE} -> " in err
    assert "1 platform-bound snippet(s) judged by their findings" in err
    assert "update" not in err


def test_other_digits_in_an_exact_snippet_fail_without_sending_the_author_to_update(
        book, capsys):
    recorded_elsewhere(book, {"rounded.py": "0.333334\n"})
    assert main(["check"], root=book) == 1
    err = capsys.readouterr().err
    assert "snippets/demo/rounded.py: output differs (recorded on another platform, " \
           f"cpu_vendor {ELSEWHERE} -> " in err
    assert "demo was recorded on another platform" in err
    assert "`update` on this machine is no fix" in err
    assert "python -m bookrun update demo" not in err


def test_on_the_recording_platform_every_snippet_is_exact_and_update_is_the_way_out(
        book, capsys):
    recorded_elsewhere(book, {"chaotic.py": "0.30000000000000010\n"}, vendor=None)
    assert main(["check"], root=book) == 1
    err = capsys.readouterr().err
    assert "snippets/demo/chaotic.py: output differs\n" in err
    assert "`python -m bookrun update demo`" in err and "another platform" not in err


def test_a_record_older_than_a_reading_counts_as_another_platform(book, capsys):
    recorded_elsewhere(book, {"chaotic.py": "0.30000000000000010\n"}, vendor="")
    assert main(["check"], root=book) == 0
    assert "cpu_vendor not recorded -> " in capsys.readouterr().err

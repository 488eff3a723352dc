"""Dataclasses to and from JSON by their fields and hints (bookrun.model.codec and its
copy in bookrun.execute.worker.protocol): every committed record and frames file, read
and written again, gives the same bytes; malformed data names the class and the field."""
import inspect
import json

import pytest

from bookrun.execute.worker import protocol
from bookrun.execute.worker.frames import dump
from bookrun.store.frames_check import read_frames
from bookrun.execute.worker.protocol import RunResult, StepResult
from bookrun.model import codec
from bookrun.model.page import RunOptions
from bookrun.parse.chapter import FLAGS, LIMITS
from bookrun.store.records import Record, RecordError, read_record
from helpers.paths import ROOT

RECORDS = sorted((ROOT / "snippets").glob("*/_record.json"))
FRAMES = sorted((ROOT / "snippets").glob("*/_figures/*.frames.json"))


def test_there_are_records_and_frames_files_to_read():
    assert len(RECORDS) >= 5 and FRAMES


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.parent.name)
def test_a_committed_record_read_and_written_again_keeps_its_bytes(path):
    assert read_record(path).to_json().encode("utf-8") == path.read_bytes()


@pytest.mark.parametrize("path", FRAMES, ids=lambda p: p.name)
def test_a_committed_frames_file_read_and_written_again_keeps_its_bytes(path):
    assert dump(read_frames(path).to_json()) == path.read_bytes()


def test_the_worker_and_the_parent_have_the_same_codec():
    for name in ("_fields", "encode", "_is_default", "decode", "_value"):
        assert inspect.getsource(getattr(codec, name)) == \
            inspect.getsource(getattr(protocol, name)), name
    assert (codec.AS_JSON, codec._PLAIN) == (protocol.AS_JSON, protocol._PLAIN)


def a_step(**change) -> dict:
    return {"path": "snippets/a/b.py", "output": "hi\n", "figures": ["b-1.svg"],
            "values": {"x": "1"}, **change}


def test_a_value_of_the_wrong_kind_names_the_class_and_the_field():
    assert StepResult.from_json(a_step()) == StepResult("snippets/a/b.py", "hi\n",
                                                        ("b-1.svg",), {"x": "1"})
    with pytest.raises(ValueError, match=r"^StepResult\.output: expected str, got int$"):
        StepResult.from_json(a_step(output=3))
    with pytest.raises(ValueError, match=r"^StepResult\.figures\[\]: expected str, got list$"):
        RunResult.from_json({"steps": [a_step(figures=[["b-1.svg"]])], "error": None})


def test_a_record_missing_a_field_of_a_snippet_names_it():
    data = json.loads(RECORDS[0].read_text(encoding="utf-8"))
    del data["snippets"][0]["output"]
    with pytest.raises(RecordError, match="SnippetRecord: missing field 'output'"):
        Record.from_json(json.dumps(data))
    data = json.loads(RECORDS[0].read_text(encoding="utf-8"))
    data["snippets"][0]["output"] = "one line, not a list of lines"
    with pytest.raises(RecordError, match="kept as a list of lines, not str"):
        Record.from_json(json.dumps(data))


def test_run_options_type_every_word_of_a_run_line():
    words = {f.replace("_", "-") for f in RunOptions.__dataclass_fields__}
    assert words == FLAGS | set(LIMITS)
    given = RunOptions.of({"max-output": 400, "platform-bound": True})
    assert (given.max_output, given.platform_bound, given.max_figures) == (400, True, None)

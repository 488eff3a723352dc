"""A chapter's record: its snippets' outputs, figure hashes and bound values, keyed."""
from __future__ import annotations

import hashlib
import json
import os
import platform
import secrets
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from bookrun.model.codec import decode, encode
from bookrun.model.page import RecordError, SnippetRecord

RECORD_NAME = "_record.json"
FIGURES_NAME = "_figures"  # committed beside the record: snippets/<chapter>/_figures/
CONFLICT_MARKERS = ("<<<<<<<", "=======", ">>>>>>>")  # what git leaves in a conflicted file
REWRITE = "run python -m bookrun update {} to execute it afresh, and commit the result"
# The shape of a record file. 2: each snippet's entry keeps the values bound after it
# (format 1 kept one chapter-wide `values`, so a body bound after two snippets kept one).
FORMAT = 2


def versions(libraries=()) -> dict[str, str]:
    """The exact versions running now (kept in a record for information)."""
    found = {"python": platform.python_version()}
    for name in libraries:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "absent"
    return found


def release(versions_: dict[str, str]) -> dict[str, str]:
    """Versions as far as they can matter: Python major.minor, no local tags (`+cpu`)."""
    out = {}
    for name, v in versions_.items():
        v = v.split("+", 1)[0]
        out[name] = ".".join(v.split(".")[:2]) if name == "python" else v
    return out


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@dataclass(frozen=True)
class Record:
    chapter: str
    stamp: str  # bookrun.store.key.chapter_key of the code that produced it
    versions: dict  # exact versions it was produced with (informative)
    snippets: tuple[SnippetRecord, ...]
    # What the session ran on: the CPU architecture and what the book's
    # `fingerprint` option reads (BLAS core, SIMD dispatch, kernel set).
    platform: dict = field(default_factory=dict)

    def snippet(self, name: str) -> SnippetRecord:
        """A snippet's entry; `name` is its file name or path under snippets/."""
        for s in self.snippets:
            if s.snippet == name or Path(s.snippet).name == name:
                return s
        raise KeyError(f"{self.chapter}: no snippet {name!r} in the record")

    def output(self, name: str) -> str:
        """What the snippet printed; `name` is its file name or path under snippets/."""
        return self.snippet(name).output

    def value(self, body: str, snippet: str | None = None) -> str:
        """The text a `{{ body }}` in the prose rendered to: after `snippet` (its file
        name or path under snippets/), or after any snippet when every place where the
        prose binds it shows the same text."""
        body = body.strip()
        places = [self.snippet(snippet)] if snippet is not None else self.snippets
        found = {s.snippet: s.values[body] for s in places if body in s.values}
        if not found:
            raise KeyError(f"{self.chapter}: no bound value {{{{ {body} }}}} in the record"
                           + (f" after {snippet}" if snippet is not None else ""))
        if len(set(found.values())) > 1:
            raise KeyError(f"{self.chapter}: {{{{ {body} }}}} differs by place ({found}); "
                           "name the snippet it follows")
        return next(iter(found.values()))

    def digest(self) -> str:
        """A hash of what the record says the snippets gave: outputs, figure hashes,
        values and platform. Kept in the file, so a hand edit (or a merge that mixed two
        records) no longer matches it. Not a signature: `update` rewrites both."""
        body = {"snippets": encode(self.snippets), "platform": self.platform}
        canonical = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()

    def to_json(self) -> str:
        data = {"format": FORMAT, "chapter": self.chapter, "stamp": self.stamp,
                "digest": self.digest(), "versions": self.versions, "platform": self.platform,
                "snippets": encode(self.snippets)}
        return json.dumps(data, indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, text: str, chapter: str = "CHAPTER") -> "Record":
        """Parse and verify a record's text; RecordError says what is wrong with it
        (and `chapter` names what to update)."""
        rewrite = REWRITE.format(chapter)
        for number, line in enumerate(text.splitlines(), start=1):
            if line.startswith(CONFLICT_MARKERS):
                raise RecordError(f"line {number}: a merge conflict marker ({line[:7]}): "
                                  f"{rewrite}, rather than resolving it by hand")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"corrupt: not JSON at line {exc.lineno}, column {exc.colno} "
                              f"({exc.msg}); {rewrite}") from None
        found = data.get("format", 1) if isinstance(data, dict) else None
        if found != FORMAT:
            raise RecordError(f"record format {found}, and this bookrun reads format "
                              f"{FORMAT} (values kept per snippet); {rewrite}")
        try:
            record = decode(cls, data)  # its fields: `format` is read above, `digest` below
            stored = data["digest"]
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            raise RecordError(f"corrupt: malformed record ({type(exc).__name__}: {exc}); "
                              f"{rewrite}") from None
        if stored != record.digest():
            raise RecordError(f"edited by hand? its outputs do not match its digest; "
                              f"{rewrite}")
        return record


def record_path(chapter_name: str, snippets_root: Path) -> Path:
    return snippets_root / chapter_name / RECORD_NAME


def figures_path(chapter_name: str, snippets_root: Path) -> Path:
    return snippets_root / chapter_name / FIGURES_NAME


def read_record(path: Path, shown: str | None = None) -> Record:
    """Parse a record file; any missing, corrupt or malformed file raises RecordError
    (naming the file as `shown`, by default from the working folder)."""
    if shown is None:
        shown = os.path.relpath(path)
        shown = str(path) if shown.startswith("..") else shown
    try:
        return Record.from_json(path.read_text(encoding="utf-8"), path.parent.name)
    except RecordError as exc:
        raise RecordError(f"{shown}: {exc}") from None
    except (OSError, ValueError) as exc:
        raise RecordError(f"{shown}: unreadable record ({type(exc).__name__}: {exc})") from None


def read_if_present(path: Path, shown: str | None = None) -> Record | None:
    """None when there is no record (execute then); a corrupt one raises RecordError,
    since re-executing would silently replace what someone wrote into it."""
    return read_record(path, shown) if path.exists() else None


def load_record(chapter_name: str, snippets_root: Path) -> Record:
    """The committed record of a chapter (raises if missing or corrupt)."""
    return read_record(record_path(chapter_name, snippets_root))


def read_if_valid(path: Path) -> Record | None:
    """A record to trust, or None when it is missing or corrupt (then re-execute)."""
    try:
        return read_record(path)
    except RecordError:
        return None


def write_atomic(path: Path, data: bytes) -> None:
    """Write via a temporary file and rename, so a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp"
    # Not mkstemp, which makes the file 0600: created like any file, it follows the umask.
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise

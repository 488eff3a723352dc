"""A chapter's record: its snippets' outputs, figure hashes and bound values, stamped."""
from __future__ import annotations

import hashlib
import json
import os
import platform
import secrets
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from . import interactive
from .page import Chapter

RECORD_NAME = "_record.json"
FIGURES_NAME = "_figures"  # committed beside the record: snippets/<chapter>/_figures/
# The libraries whose versions can change what a snippet prints.
LIBRARIES = ("numpy", "matplotlib", "torch", "gymnasium")
ROOT = Path(__file__).resolve().parent.parent
WORKER = Path(__file__).with_name("worker.py")


def versions() -> dict[str, str]:
    """The exact versions running now (kept in a record for information)."""
    found = {"python": platform.python_version()}
    for name in LIBRARIES:
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


def stamp(chapter: Chapter, snippets_root: Path) -> str:
    """Hash of the code that decides the chapter's outputs.

    Library versions and the CPU are deliberately left out: a record is reused on
    any machine (the site shows what was checked), and `check` re-executes to judge
    whether this machine still prints the same (see Book.check).
    """
    h = hashlib.sha256()
    h.update(WORKER.read_bytes())  # how snippets are run and captured
    style = snippets_root.parent / "matplotlibrc"  # the book's figure style (cwd of a session)
    h.update(style.read_bytes() if style.is_file() else b"")
    for step in chapter.steps:
        h.update(step.snippet.encode() + b"\0")
        h.update((snippets_root / step.snippet).read_bytes() + b"\0")
        h.update(json.dumps([b.body for b in step.bindings]).encode())
        h.update(interactive.stamp(step))  # b"" for a snippet with no interactive figure
    return h.hexdigest()


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@dataclass
class Record:
    chapter: str
    stamp: str
    versions: dict  # exact versions it was produced with (informative)
    snippets: list[dict]  # {"snippet", "output", "figures": [{"name", "sha256"}]}
    values: dict[str, str] = field(default_factory=dict)
    # What the session ran on: CPU architecture, torch's kernel set, NumPy's SIMD
    # dispatch, the BLAS and its core (worker.platform_fingerprint).
    platform: dict = field(default_factory=dict)

    def output(self, name: str) -> str:
        """What the snippet printed; `name` is its file name or path under snippets/."""
        for s in self.snippets:
            if s["snippet"] == name or Path(s["snippet"]).name == name:
                return s["output"]
        raise KeyError(f"{self.chapter}: no snippet {name!r} in the record")

    def value(self, body: str) -> str:
        """The text a `{{ body }}` in the prose rendered to."""
        try:
            return self.values[body.strip()]
        except KeyError:
            raise KeyError(f"{self.chapter}: no bound value {{{{ {body} }}}} in the record") from None

    def to_json(self) -> str:
        data = {
            "chapter": self.chapter,
            "stamp": self.stamp,
            "versions": self.versions,
            "platform": self.platform,
            # Lists of lines keep a changed output readable in a diff.
            "snippets": [dict(s, output=s["output"].split("\n")) for s in self.snippets],
            "values": self.values,
        }
        return json.dumps(data, indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, text: str) -> "Record":
        data = json.loads(text)
        snippets = [dict(s, output="\n".join(s["output"])) for s in data["snippets"]]
        for s in snippets:
            if not isinstance(s["snippet"], str) or not isinstance(s["figures"], list):
                raise ValueError("malformed snippet entry")
        return cls(data["chapter"], data["stamp"], data["versions"], snippets, data["values"],
                   data.get("platform", {}))


def record_path(chapter_name: str, snippets_root: Path | None = None) -> Path:
    return (snippets_root or ROOT / "snippets") / chapter_name / RECORD_NAME


def figures_path(chapter_name: str, snippets_root: Path | None = None) -> Path:
    return (snippets_root or ROOT / "snippets") / chapter_name / FIGURES_NAME


def read_record(path: Path) -> Record:
    """Parse a record file; any missing, corrupt or malformed file raises ValueError."""
    try:
        return Record.from_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: unreadable record ({type(exc).__name__}: {exc})") from None


def load_record(chapter_name: str, snippets_root: Path | None = None) -> Record:
    """The committed record of a chapter (raises if missing or corrupt)."""
    return read_record(record_path(chapter_name, snippets_root))


def read_if_valid(path: Path) -> Record | None:
    """A record to trust, or None when it is missing or corrupt (then re-execute)."""
    try:
        return read_record(path)
    except ValueError:
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

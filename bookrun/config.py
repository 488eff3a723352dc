"""The book's settings: one typed config, read from `mkdocs.yml` by every host.

The engine knows nothing about the book it runs. What one book needs (where its pages
and snippets are, its figure style, which libraries' versions to record, how to read
the CPU paths its libraries took, its Colab address) is set as options of the
`bookrun.extension` entry under `markdown_extensions` in `mkdocs.yml`: MkDocs and
Zensical both hand those options to the extension, and the CLI reads the same file.
The option table in AUTHORING.md is generated from this class
(`python tools/option_table.py`), so the two cannot disagree.
"""
from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path

import yaml

CONFIG_FILE = "mkdocs.yml"
EXTENSION = "bookrun.extension"


def _doc(text: str, **kw):
    return field(metadata={"doc": text}, **kw)


@dataclass(frozen=True)
class BookConfig:
    """Options of `bookrun.extension` in mkdocs.yml (all optional)."""

    snippets_dir: str = _doc("Folder of the snippets, relative to the project root; one "
                             "sub-folder per chapter.", default="snippets")
    style: str = _doc("Matplotlib style file at the project root; part of every record's "
                      "key, since it changes every figure.", default="matplotlibrc")
    timeout: float = _doc("Seconds a chapter may run. `BOOKRUN_TIMEOUT` and `--timeout` "
                          "override it.", default=300.0)
    memory_gb: float = _doc("Gigabytes of address space a chapter's session may use (its "
                            "child processes included); past it an allocation fails at the "
                            "snippet's line.", default=4.0)
    colab_base: str = _doc("Address the \"Open in Colab\" button prefixes to "
                           "`notebooks/<chapter>/<chapter>.ipynb`; empty: no button.",
                           default="")
    no_notebook: tuple[str, ...] = _doc("Chapters (snippet folders) that get no notebook "
                                        "and no notebook buttons, such as a home page.",
                                        default=())
    libraries: tuple[str, ...] = _doc("Packages whose versions a record keeps (for "
                                      "information: outputs decide a check).", default=())
    fingerprint: dict = _doc(
        "What decides floating-point paths, read after a chapter ran: `{module: {name: "
        "expression}}`, each expression evaluated in the session (with the module bound to "
        "its name) when the snippets imported that module. Kept as the record's platform: "
        "a `platform-bound` snippet is compared exactly only on the platform that recorded "
        "it.", default_factory=dict)
    chapter_headers: bool = _doc("Show a header under each chapter's title (level, reading "
                                 "time, figures, \"Before this chapter\", \"You are done "
                                 "when\") from the `level`, `before` and `done_when` fields "
                                 "of its front matter.", default=False)
    min_alt_words: int = _doc("Fewest words a figure's `Alt:` text may have; 0: any "
                              "non-empty text other than the caption.", default=0)
    number_figures: bool = _doc("Number figures per chapter (`Figure 3.2`, from a numbered "
                                "nav title or `chapter:` in the front matter) and check that "
                                "the prose's `Figure 3.2` exists.", default=False)

    @classmethod
    def from_options(cls, options: dict, where: str = "bookrun.extension") -> "BookConfig":
        """From the extension's options; an unknown or mistyped one names the option."""
        known = {f.name: f for f in dataclasses.fields(cls)}
        values = {}
        for key, value in options.items():
            if key not in known:
                raise ConfigError(f"{where}: unknown option {key!r}; known: "
                                  f"{', '.join(known)}")
            default = getattr(cls(), key)
            if isinstance(default, tuple):
                if not isinstance(value, (list, tuple)):
                    raise ConfigError(f"{where}: {key} must be a list")
                value = tuple(str(v) for v in value)
            elif isinstance(default, float):
                try:
                    value = float(value)
                except (TypeError, ValueError):
                    value = -1.0
                if not value > 0:
                    unit = "gigabytes" if key == "memory_gb" else "seconds"
                    raise ConfigError(f"{where}: {key} must be a positive number of {unit}")
            elif isinstance(default, dict):
                if not (isinstance(value, dict)
                        and all(isinstance(v, dict) for v in value.values())):
                    raise ConfigError(f"{where}: {key} must map a module to "
                                      "{name: expression}")
                value = {str(m): {str(k): str(e) for k, e in reads.items()}
                         for m, reads in value.items()}
            elif not isinstance(value, type(default)):
                raise ConfigError(f"{where}: {key} must be a {type(default).__name__}")
            values[key] = value
        return cls(**values)

    def option_table(self) -> str:
        """The Markdown table of options, for the author's guide."""
        rows = ["| option | default | what it sets |", "| --- | --- | --- |"]
        for f in dataclasses.fields(self):
            default = getattr(BookConfig(), f.name)
            shown = "" if default in ((), {}, "") else f"`{default}`"
            rows.append(f"| `{f.name}` | {shown} | {f.metadata['doc']} |")
        return "\n".join(rows) + "\n"


class ConfigError(Exception):
    """A wrong option in mkdocs.yml, named."""


class _Tolerant(yaml.SafeLoader):
    """Reads mkdocs.yml without MkDocs: its `!ENV` and `!!python/name` tags load as plain
    values (the engine reads only its own options, which use neither)."""


def _any_tag(loader, suffix, node):
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node)
    return loader.construct_mapping(node)


_Tolerant.add_multi_constructor("!", _any_tag)
_Tolerant.add_multi_constructor("tag:yaml.org,2002:python/", _any_tag)


def read_site_config(root: Path) -> dict:
    path = root / CONFIG_FILE
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=_Tolerant) or {}
    except OSError:
        return {}
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: {exc}") from None


def extension_options(site_config: dict) -> dict:
    """The options of `bookrun.extension` in a parsed mkdocs.yml ({} if it has none)."""
    for entry in site_config.get("markdown_extensions") or []:
        if isinstance(entry, dict) and EXTENSION in entry:
            return dict(entry[EXTENSION] or {})
    return {}


def load(root: Path) -> tuple[BookConfig, Path]:
    """The book's config and docs folder, as mkdocs.yml at `root` sets them."""
    site = read_site_config(root)
    config = BookConfig.from_options(extension_options(site),
                                     f"{os.path.relpath(root / CONFIG_FILE)}: {EXTENSION}")
    return config, root / str(site.get("docs_dir", "docs"))

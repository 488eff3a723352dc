"""The book's settings: one typed config, read from `mkdocs.yml` by every host.

The engine knows nothing about the book it runs. What one book needs (where its pages
and snippets are, its figure style, which libraries' versions to record, how to read
the CPU paths its libraries took) is set as options of the
`bookrun.extension` entry under `markdown_extensions` in `mkdocs.yml`: MkDocs and
Zensical both hand those options to the extension, and the CLI reads the same file.
The MkDocs plugin's options are the same fields (its MkDocs `Config` is generated from
this class, bookrun.hosts.mkdocs), and so are the option table in AUTHORING.md and
docs/schema.json (`python tools/option_table.py`), so none of them can disagree.
"""
from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

import yaml

CONFIG_FILE = "mkdocs.yml"
EXTENSION = "bookrun.extension"
PLUGIN = "bookrun"  # the MkDocs plugin's name (pyproject.toml's entry point)


@dataclass(frozen=True)
class OptionInfo:
    """What a field of BookConfig says of itself: its doc (the guide's table, the JSON
    schema, MkDocs' help) and, for a few, the environment variable that overrides it."""

    doc: str
    env: str | None = None


def _option(doc: str, *, env: str | None = None, **kw):
    return field(metadata={OptionInfo: OptionInfo(doc, env)}, **kw)


def info(f) -> OptionInfo:
    """A BookConfig field's doc and environment variable."""
    return f.metadata[OptionInfo]


@dataclass(frozen=True)
class BookConfig:
    """The book's options, and the MkDocs host's (all optional).

    Each may be given either as an option of the `bookrun` plugin or of the
    `bookrun.extension` entry in mkdocs.yml, not both; `BOOKRUN_EXECUTE`,
    `BOOKRUN_FROZEN` and `BOOKRUN_TIMEOUT` override theirs (`from_sources`)."""

    execute: bool = _option("Execute stale chapters; false: a build that shows the code and "
                            "runs nothing. `BOOKRUN_EXECUTE` overrides it.",
                            env="BOOKRUN_EXECUTE", default=True)
    frozen: bool = _option("A stale record fails the build (and `prepare`) instead of being "
                           "re-executed: publishing sets `BOOKRUN_FROZEN=true`, which overrides "
                           "it.", env="BOOKRUN_FROZEN", default=False)
    snippets_dir: str = _option("Folder of the snippets, relative to the project root; one "
                                "sub-folder per chapter.", default="snippets")
    style: str = _option("Matplotlib style file at the project root, part of every record's "
                         "key.", default="matplotlibrc")
    timeout: float = _option("Seconds a chapter may run. `BOOKRUN_TIMEOUT` and `--timeout` "
                             "override it.", env="BOOKRUN_TIMEOUT", default=300.0)
    memory_gb: float = _option("Gigabytes of address space a chapter's session may use "
                               "(children included); past it an allocation fails at the "
                               "snippet's line.", default=4.0)
    pdf: bool = _option("The pages link `book.pdf` at the site root, which `python -m bookrun "
                        "pdf` prints after the build. `BOOKRUN_PDF` overrides it.",
                        env="BOOKRUN_PDF", default=False)
    no_notebook: tuple[str, ...] = _option("Chapters (snippet folders) that get no notebook "
                                           "and no notebook buttons, such as a home page.",
                                           default=())
    libraries: tuple[str, ...] = _option("Packages whose versions a record keeps (for "
                                         "information: outputs decide a check).", default=())
    fingerprint: dict = _option(
        "What decides floating-point paths: `{module: {name: expression}}`, evaluated in the "
        "session (the module bound to its name) when a snippet imported it; kept as the "
        "record's platform, on which alone a `platform-bound` snippet is compared exactly.",
        default_factory=dict)
    chapter_headers: bool = _option("A header under each chapter's title from its front "
                                    "matter (level, reading time, figures, prerequisites, "
                                    "outcomes), which must give those fields.",
                                    default=False)
    number_audit: bool = _option("`check` names a number in a chapter's prose that none of its "
                                 "outputs, values or figures accounts for.", default=False)
    min_alt_words: int = _option("Fewest words a figure's `Alt:` text may have; 0: any text "
                                 "that is not empty.", default=0)
    max_output_width: int = _option("Widest output line, in characters; a wider one is a "
                                    "warning naming its snippet and `@run` line. 0: off.",
                                    default=0)
    number_figures: bool = _option("Number each chapter's figures (3.1, 3.2, ...) from its nav "
                                   "title or its `chapter:` front matter, and fail on prose that "
                                   "names a figure the chapter lacks.", default=False)
    sandbox: str = _option("`off`: snippets run unconfined (each run says so); else in "
                           "bubblewrap, or not at all. `BOOKRUN_SANDBOX` overrides it.",
                           env="BOOKRUN_SANDBOX", default="on")
    disk_mb: int = _option("Megabytes of a session's private /tmp, /var/tmp and /dev/shm "
                           "each, and of its scratch folder in all.", default=512)
    pass_env: tuple[str, ...] = _option("Variables a session sees besides PATH, LANG, LC_*, TZ "
                                        "and BOOKRUN_*; no other reaches a snippet.",
                                        default=())

    @classmethod
    def from_options(cls, options: dict, where: str = EXTENSION) -> "BookConfig":
        """From one place's options; an unknown or mistyped one names the option."""
        return cls.from_sources([(where, options)], env={})

    @classmethod
    def from_sources(cls, sources: list[tuple],
                     env: Mapping[str, str] | None = None) -> "BookConfig":
        """The one place options meet: `sources` are (where, options) pairs (the plugin's
        and the extension's options in mkdocs.yml), or (where, options, lines), `lines`
        giving each option's line in the file (`option_lines`); a key given in two of them
        is an error naming both; then the environment (`os.environ` unless given) overrides
        the fields that name a variable. Every value is checked here, named by where it
        came from: `mkdocs.yml:12: bookrun.extension: ...` where the line is known."""
        known = {f.name: f for f in dataclasses.fields(cls)}
        given: dict[str, tuple[str, object]] = {}
        for where, options, *lines in sources:
            lines = lines[0] if lines else {}
            for key, value in (options or {}).items():
                at = _at(where, lines.get(key))
                if key not in known:
                    raise ConfigError(f"{at}: unknown option {key!r}; known: "
                                      f"{', '.join(known)}")
                if key in given:
                    raise ConfigError(f"option {key!r} is given twice, in {given[key][0]} and in "
                                      f"{at}: keep one")
                given[key] = (at, value)
        env = os.environ if env is None else env
        for f in known.values():
            name = info(f).env
            text = (env.get(name) or "").strip() if name else ""
            if text:
                given[f.name] = (name, _from_env(name, text, f.default))
        return cls(**{key: _checked(key, value, where, getattr(cls(), key))
                      for key, (where, value) in given.items()})

    def option_table(self) -> str:
        """The Markdown table of options, for the author's guide."""
        rows = ["| option | default | what it sets |", "| --- | --- | --- |"]
        for f in dataclasses.fields(self):
            default = getattr(BookConfig(), f.name)
            shown = "" if default in ((), {}, "") else f"`{_yaml(default)}`"
            rows.append(f"| `{f.name}` | {shown} | {info(f).doc} |")
        return "\n".join(rows) + "\n"

    @classmethod
    def json_schema(cls) -> dict:
        """A JSON schema of the options (docs/schema.json), for editors that check
        mkdocs.yml: the plugin's entry and the extension's take the same options."""
        props = {}
        for f in dataclasses.fields(cls):
            default = getattr(cls(), f.name)
            # `sandbox: off` is YAML's false (and `on` true): both spellings are the option's.
            prop = ({"enum": ["on", "off", True, False]} if f.name == "sandbox"
                    else dict(_SCHEMA_TYPES[type(default)]))
            prop.update(description=info(f).doc, default=_yaml(default, json=True))
            props[f.name] = prop
        ref = {"$ref": "#/definitions/options"}
        return {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "title": "bookrun: the options of the `bookrun` plugin and of `bookrun.extension` "
                     "(give each option in one of the two places)",
            "definitions": {"options": {"type": "object", "properties": props,
                                        "additionalProperties": False}},
            "oneOf": [
                {"enum": [PLUGIN, EXTENSION]},
                {"type": "object", "properties": {PLUGIN: ref, EXTENSION: ref},
                 "additionalProperties": False, "minProperties": 1, "maxProperties": 1},
            ],
        }


_SCHEMA_TYPES = {
    bool: {"type": "boolean"},
    int: {"type": "integer", "minimum": 0},
    float: {"type": "number", "exclusiveMinimum": 0},
    str: {"type": "string"},
    tuple: {"type": "array", "items": {"type": "string"}},
    dict: {"type": "object", "additionalProperties": {
        "type": "object", "additionalProperties": {"type": "string"}}},
}
_TRUE, _FALSE = {"true", "yes", "on", "1"}, {"false", "no", "off", "0"}


def _at(where: str, line: int | None) -> str:
    """`mkdocs.yml: bookrun.extension` as `mkdocs.yml:12: bookrun.extension`, the line
    of the option in the file, when it is known."""
    file, sep, place = where.partition(": ")
    return f"{file}:{line}: {place}" if line and sep else where


def _yaml(value, json: bool = False):
    """A default as mkdocs.yml (or JSON) spells it."""
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, bool) and not json:
        return str(value).lower()
    return value


def _from_env(name: str, text: str, default):
    """An environment variable's text as the field's type, or an error naming it."""
    if isinstance(default, str):
        return text
    if isinstance(default, bool):
        if text.lower() not in _TRUE | _FALSE:
            raise ConfigError(f"{name}: not true or false: {text!r}")
        return text.lower() in _TRUE
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise ConfigError(f"{name}: not a positive number of seconds: {text!r}")
    return value


def _checked(key: str, value, where: str, default):
    """`value` as the field's type; a wrong one names where it was given."""
    if key == "sandbox":
        # YAML reads a bare `off` as false and `on` as true.
        value = ({False: "off", True: "on"}[value] if isinstance(value, bool)
                 else str(value).strip().lower())
        if value not in ("on", "off"):
            raise ConfigError(f"{where}: sandbox must be on or off, not {value!r}")
    elif key == "disk_mb":
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise ConfigError(f"{where}: disk_mb must be a positive number of megabytes")
    elif isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: {key} must be true or false")
    elif isinstance(default, tuple):
        if not isinstance(value, (list, tuple)):
            raise ConfigError(f"{where}: {key} must be a list")
        value = tuple(str(v) for v in value)
    elif isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ConfigError(f"{where}: {key} must be a whole number, 0 or more")
    elif isinstance(default, float):
        try:
            value = float(value)
        except (TypeError, ValueError):
            value = -1.0
        if not value > 0:
            unit = "gigabytes" if key == "memory_gb" else "seconds"
            raise ConfigError(f"{where}: {key} must be a positive number of {unit}")
    elif isinstance(default, dict):
        if not (isinstance(value, dict) and all(isinstance(v, dict) for v in value.values())):
            raise ConfigError(f"{where}: {key} must map a module to {{name: expression}}")
        value = {str(m): {str(k): str(e) for k, e in reads.items()}
                 for m, reads in value.items()}
    elif not isinstance(value, type(default)):
        raise ConfigError(f"{where}: {key} must be a {type(default).__name__}")
    return value


from bookrun.errors import ConfigError  # noqa: E402,F401 - defined there, named here too


class _Tolerant(yaml.SafeLoader):
    """Reads mkdocs.yml without MkDocs: `!ENV` is resolved as MkDocs resolves it, and other
    tags (`!!python/name`, `!relative`) load as plain values (the engine reads only its own
    options, which use none of them)."""


def _any_tag(loader, suffix, node):
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node)
    return loader.construct_mapping(node)


def _env_tag(loader, node):
    """`!ENV NAME` or `!ENV [NAME, ..., default]`: the first variable set, read as YAML."""
    names, default = [node], None
    if isinstance(node, yaml.SequenceNode):
        names = node.value[:-1] if len(node.value) > 1 else node.value
        default = loader.construct_object(node.value[-1]) if len(node.value) > 1 else None
    for name in names:
        if loader.construct_scalar(name) in os.environ:
            return yaml.safe_load(os.environ[loader.construct_scalar(name)] or "''")
    return default


_Tolerant.add_constructor("!ENV", _env_tag)
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
    return _options_of(site_config.get("markdown_extensions"), EXTENSION)


def plugin_options(site_config: dict) -> dict:
    """The options of the `bookrun` plugin in a parsed mkdocs.yml ({} if it has none)."""
    return _options_of(site_config.get("plugins"), PLUGIN)


def _options_of(entries, name: str) -> dict:
    if isinstance(entries, dict):  # MkDocs also takes `plugins:` as a mapping
        return dict(entries.get(name) or {})
    for entry in entries or []:
        if isinstance(entry, dict) and name in entry:
            return dict(entry[name] or {})
    return {}


def places(config_file: str) -> tuple[str, str]:
    """How errors name the plugin's options and the extension's, in `config_file`."""
    return f"{config_file}: plugins: {PLUGIN}", f"{config_file}: {EXTENSION}"


def load(root: Path, env: Mapping[str, str] | None = None) -> tuple[BookConfig, Path]:
    """The book's config and docs folder, as mkdocs.yml at `root` and the environment set
    them (the CLI, and Zensical's host, which loads no plugin)."""
    site = read_site_config(root)
    plugin, extension = places(os.path.relpath(root / CONFIG_FILE))
    lines = option_lines(root / CONFIG_FILE)
    config = BookConfig.from_sources([(plugin, plugin_options(site), lines[PLUGIN]),
                                      (extension, extension_options(site), lines[EXTENSION])],
                                     env)
    return config, root / str(site.get("docs_dir", "docs"))


def _compose(path: Path):
    """mkdocs.yml as YAML nodes, which know their lines (None: no file, or not YAML)."""
    try:
        return yaml.compose(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
    except (OSError, yaml.YAMLError):
        return None


def _key(root, name: str):
    """The (key, value) nodes of `name` in a mapping node, or None."""
    if isinstance(root, yaml.MappingNode):
        for key, value in root.value:
            if isinstance(key, yaml.ScalarNode) and key.value == name:
                return key, value
    return None


def _entries(node):
    """The entries of `plugins:` or `markdown_extensions:` (a list or a mapping), each
    (name node, options node or None); an entry that is a mapping of several keys (as
    options are when their plugin's line is missing) as (None, that mapping)."""
    items = node.value if isinstance(node, yaml.SequenceNode) else [node]
    for item in items:
        if isinstance(item, yaml.ScalarNode):
            yield item, None
        elif isinstance(item, yaml.MappingNode) and isinstance(node, yaml.SequenceNode) \
                and len(item.value) == 1:
            yield item.value[0]
        elif isinstance(item, yaml.MappingNode):
            if isinstance(node, yaml.SequenceNode):
                yield None, item
            else:
                yield from item.value


def option_lines(path: Path) -> dict[str, dict[str, int]]:
    """The line of each option of the plugin (PLUGIN) and of the extension (EXTENSION)
    in mkdocs.yml; under "" the line of the entry itself."""
    found: dict[str, dict[str, int]] = {PLUGIN: {}, EXTENSION: {}}
    root = _compose(path)
    for section, name in (("plugins", PLUGIN), ("markdown_extensions", EXTENSION)):
        entry = _key(root, section)
        for key, options in _entries(entry[1]) if entry else ():
            if key is None or key.value != name:
                continue
            found[name][""] = key.start_mark.line + 1
            if isinstance(options, yaml.MappingNode):
                found[name].update({k.value: k.start_mark.line + 1 for k, _ in options.value
                                    if isinstance(k, yaml.ScalarNode)})
    return found


def require_listed(root: Path, extension: bool = False) -> None:
    """Refuse a book whose mkdocs.yml names neither the `bookrun` plugin nor
    `bookrun.extension` (MkDocs would publish every `@run` line and `{{ }}` as text), or,
    with `extension` (Zensical's, which runs no plugin), lacks the extension: a
    ConfigError naming the file and line. No mkdocs.yml at all is a book of defaults."""
    path = root / CONFIG_FILE
    shown = os.path.relpath(path)
    tree = _compose(path)
    if tree is None:
        return
    listed = option_lines(path)
    names = [PLUGIN, EXTENSION] if not extension else [EXTENSION]
    if any(listed[n] for n in names):
        return
    options = {f.name for f in dataclasses.fields(BookConfig)}
    where = {}
    for section in ("plugins", "markdown_extensions"):
        entry = _key(tree, section)
        where[section] = entry[0].start_mark.line + 1 if entry else None
        for key, value in _entries(entry[1]) if entry else ():
            if key is not None and key.value in (PLUGIN, EXTENSION):
                continue
            if key is not None and key.value in options:  # one option as an entry
                keys, under = {key.value}, "as an entry of its own"
            else:
                keys = ({k.value for k, _ in value.value} if isinstance(value, yaml.MappingNode)
                        else set())
                under = (f"under `{key.value}`" if key is not None
                         else "as an entry of their own")
            if keys and keys <= options:
                line = (key or value).start_mark.line + 1
                raise ConfigError(f"{shown}:{line}: {', '.join(sorted(keys))}: bookrun's "
                                  f"options, {under} in `{section}:`; the `- {PLUGIN}:` line "
                                  "above them is missing (bookrun/README.md, the plugin line)")
    if extension:
        raise ConfigError(f"{shown}:{where['markdown_extensions'] or 1}: Zensical runs no "
                          f"plugin: list `- {EXTENSION}` under `markdown_extensions:` "
                          "(its options may stay on the plugin)")
    raise ConfigError(f"{shown}:{where['plugins'] or 1}: this file names neither the "
                      f"`{PLUGIN}` plugin nor `{EXTENSION}`, so MkDocs would show every "
                      f"@run line and {{{{ }}}} as text: add `- {PLUGIN}` under `plugins:` "
                      "(bookrun/README.md, the plugin line)")

"""Dataclasses to and from JSON, by their fields and type hints (the records' side).

`encode` gives JSON values (fields in order, tuples as lists, Paths as text); `decode`
rebuilds the dataclass, naming the class and the field of anything missing or of the
wrong kind. A field with `metadata={AS_JSON: (to, from)}` keeps a form of its own.

This is the copy for the parent's layers; bookrun.execute.worker.protocol holds the
worker's (that package imports nothing outside itself), and a test keeps them equal.
"""
from __future__ import annotations

import dataclasses
import types
import typing
from pathlib import Path

AS_JSON = "bookrun.as_json"  # a field's metadata: (to JSON, from JSON), for its own form


def _fields(data, cls) -> dict:
    """`data` checked to hold every field of `cls` that has no default."""
    if not isinstance(data, dict):
        raise ValueError(f"{cls.__name__}: expected a JSON object, got "
                         f"{type(data).__name__}")
    missing = [f.name for f in dataclasses.fields(cls) if f.name not in data
               and f.default is dataclasses.MISSING
               and f.default_factory is dataclasses.MISSING]
    if missing:
        raise ValueError(f"{cls.__name__}: missing field {', '.join(map(repr, missing))}")
    return data


def encode(value):
    """JSON values for `value`: a dataclass as an object of its fields in order (if its
    class sets OMIT_DEFAULTS, a field equal to its default is left out; a field whose
    metadata has AS_JSON is written through its first function), a tuple as a list, a
    Path as its text; dicts and lists are walked, anything else is kept."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        omit, out = getattr(value, "OMIT_DEFAULTS", False), {}
        for f in dataclasses.fields(value):
            v = getattr(value, f.name)
            if not (omit and _is_default(f, v)):
                out[f.name] = f.metadata[AS_JSON][0](v) if AS_JSON in f.metadata else encode(v)
        return out
    if isinstance(value, (tuple, list)):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    return str(value) if isinstance(value, Path) else value


def _is_default(f: dataclasses.Field, value) -> bool:
    if f.default is not dataclasses.MISSING:
        return value == f.default
    return f.default_factory is not dataclasses.MISSING and value == f.default_factory()


_HINTS: dict[type, dict] = {}
# What each plain hint accepts: any JSON number for int and float, as before.
_PLAIN = {str: (str,), int: (int, float), float: (int, float), bool: (bool,)}


def decode(cls, data):
    """A `cls` from what `encode` made of one, by its fields' type hints. A missing
    field that has no default, or a value of the wrong kind, is a ValueError that
    names the class and the field."""
    data = _fields(data, cls)
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    values = {}
    for f in dataclasses.fields(cls):
        if f.name in data:
            raw = data[f.name]
            if AS_JSON in f.metadata:
                raw = f.metadata[AS_JSON][1](raw)
            values[f.name] = _value(_HINTS[cls][f.name], raw, f"{cls.__name__}.{f.name}")
    return cls(**values)


def _value(hint, data, where: str):
    """`data` as the type `hint` says: a dataclass, `X | None`, `tuple[X, ...]`, a
    fixed `tuple[X, Y]`, a bare `tuple`, `dict[K, V]`, `Path`, str, int, float, bool."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if dataclasses.is_dataclass(hint):
        return decode(hint, data)
    if origin in (typing.Union, types.UnionType):
        if data is None:
            return None
        return _value(next(a for a in args if a is not type(None)), data, where)
    kind = (list, tuple) if tuple in (hint, origin) else (dict,) if dict in (hint, origin) \
        else (str,) if hint is Path else _PLAIN.get(hint, (object,))
    if not isinstance(data, kind) or (isinstance(data, bool) and int in kind):
        raise ValueError(f"{where}: expected {getattr(hint, '__name__', hint)}, "
                         f"got {type(data).__name__}")
    if tuple in (hint, origin):
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_value(args[0], x, f"{where}[]") for x in data)
        return tuple(data) if not args else tuple(_value(a, x, f"{where}[]")
                                                  for a, x in zip(args, data))
    if dict in (hint, origin):
        return dict(data) if not args else {k: _value(args[1], v, f"{where}[]")
                                            for k, v in data.items()}
    return Path(data) if hint is Path else data

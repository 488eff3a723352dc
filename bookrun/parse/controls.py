"""Interactive figures, page side: the `Interactive:`/`Control:` lines under a figure,
the controls the page shows for them, and the live sliders of the notebook.

A snippet defines a drawing function of named parameters and calls it once with its
defaults; the page names the function and gives each parameter a finite set of values:

    Interactive: clip_frame
    Control: rho = 0.5 to 2.0 step 0.05 | ratio ρ
    Control: advantage = 1, -1 | sign of Â
    Control: step = 0 to 40 step 1 | training step | play

After the snippet runs, the worker (bookrun.execute.worker.frames) calls the function for every
combination of values and records each frame; the figure the snippet showed is the
default frame, so a page without script, print and the notebook show it as usual.
"""
from __future__ import annotations

import html
import json
import math
import posixpath
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from bookrun.errors import BookrunError
from bookrun.parse import syntax

MAX_FRAMES = 400  # per figure, unless its directive says `max-frames=N`
MAX_FRAME_KB = 40  # what one frame may add to the default frame, unless `max-frame-kb=N`
# No figure may have more, whatever its `max-frames`: counted from the `Control:` lines
# before any value is made, so a typo in a step (1e-9) costs no time and no memory.
MOST_FRAMES = 100_000
RANGE = re.compile(r"^(?P<a>\S+)\s+to\s+(?P<b>\S+)\s+step\s+(?P<s>\S+)$")
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
SCRIPT = "assets/bookrun/frames.js"  # published by the host; only pages that need it load it
RADIO_MAX = 4  # a list of more values is a <select>


class ControlError(BookrunError, ValueError):
    """A malformed `Interactive:`/`Control:` line; the caller adds page and line."""


@dataclass(frozen=True)
class Control:
    name: str  # the function's parameter
    values: tuple  # the Python values passed, in order
    shown: tuple[str, ...]  # each value as the page writes it ("0.50", "all equal")
    label: str  # the visible label
    play: bool  # a time-like parameter: gets a play/pause button
    is_range: bool  # `A to B step S`: a slider; a list: radio buttons or a select
    line: int


@dataclass(frozen=True)
class Interactive:
    """A figure's drawing function and its controls, as the page declares them."""

    function: str
    controls: tuple[Control, ...]
    line: int  # the `Interactive:` line

    @property
    def frames(self) -> int:
        return math.prod(len(c.values) for c in self.controls)

    def spec(self) -> dict:
        """What the worker needs (JSON): names, values, shown values, lines."""
        return {"function": self.function, "line": self.line,
                "controls": [{"name": c.name, "values": list(c.values), "shown": list(c.shown),
                              "label": c.label, "line": c.line} for c in self.controls]}


def _range(m, text: str) -> tuple[Decimal, Decimal, Decimal, int]:
    """A, B, S and the number of values of `A to B step S`, by arithmetic alone."""
    try:
        a, b, s = (Decimal(m.group(k)) for k in "abs")
    except InvalidOperation:
        raise ControlError(f"a range is `A to B step S` with numbers, got {text!r}") from None
    if not (a.is_finite() and b.is_finite() and s.is_finite()) or s <= 0 or b < a:
        raise ControlError(f"a range needs A <= B and a positive step, got {text!r}")
    count = (b - a) / s
    if count != count.to_integral_value():
        raise ControlError(f"{b} is not reached from {a} in steps of {s}")
    return a, b, s, int(count) + 1


def value_count(text: str) -> int:
    """How many values a `Control:` line's values give, without making them."""
    m = RANGE.match(text.strip())
    return _range(m, text)[3] if m else len(split_list(text))


def parse_values(text: str) -> tuple[tuple, tuple[str, ...], bool]:
    """`A to B step S` (exact decimal steps, B included) or a list of Python literals."""
    m = RANGE.match(text.strip())
    if m:
        a, b, s, values_count = _range(m, text)
        if values_count > MOST_FRAMES:
            raise ControlError(f"{text.strip()!r} gives {values_count:,} values, more than any "
                               f"figure may have ({MOST_FRAMES:,} frames): check the step")
        count = Decimal(values_count - 1)
        # Each value shown with as many decimals as the most precise of A, B and S.
        places = max(-min(d.as_tuple().exponent for d in (a, b, s)), 0)
        exact = [a + s * k for k in range(int(count) + 1)]
        integral = places == 0
        values = tuple(int(d) if integral else float(d) for d in exact)
        shown = tuple(f"{d:.{places}f}" for d in exact)
        return values, shown, True
    parts = split_list(text)
    values = []
    for part in parts:
        try:
            value = syntax.literal(part)
        except (ValueError, SyntaxError):
            raise ControlError(f"{part!r} is not a number or a quoted string; write values as "
                               "`A to B step S` or as a list like `1, -1` or "
                               "`\"all equal\", \"one of four\"`") from None
        if not isinstance(value, (int, float, str, bool)):
            raise ControlError(f"{part!r}: a value must be a number, a string or a bool")
        values.append(value)
    if not values:
        raise ControlError("an empty list of values")
    if len({(isinstance(v, str), v) for v in values}) != len(values):  # 1 and 1.0 too
        raise ControlError(f"a value is listed twice in {text!r}")
    return tuple(values), tuple(v if isinstance(v, str) else part.strip()
                                for v, part in zip(values, parts)), False


def split_list(text: str) -> list[str]:
    """Split on commas outside quotes."""
    parts, current, quote = [], "", None
    for ch in text:
        if quote:
            current += ch
            if ch == quote:
                quote = None
        elif ch in "\"'":
            current, quote = current + ch, ch
        elif ch == ",":
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip() or parts:
        parts.append(current.strip())
    if any(not p for p in parts):
        raise ControlError(f"an empty value in the list {text!r}")
    return parts


def parse_control(text: str, line: int) -> Control:
    """`NAME = VALUES | LABEL [| play]`."""
    name, eq, rest = text.partition("=")
    fields = [f.strip() for f in rest.split("|")] if eq else []
    if len(fields) < 2 or len(fields) > 3 or (len(fields) == 3 and fields[2] != "play"):
        raise ControlError("write a control as `NAME = VALUES | LABEL` or "
                           f"`NAME = VALUES | LABEL | play`, got {text!r}")
    name = name.strip()
    if not NAME.match(name):
        raise ControlError(f"{name!r} is not a parameter name")
    if not fields[1]:
        raise ControlError(f"control {name!r} needs a visible label after `|`")
    values, shown, is_range = parse_values(fields[0])
    return Control(name, values, shown, fields[1], len(fields) == 3, is_range, line)


def parse(fields: list[list], shown: str, error) -> Interactive:
    """The `Interactive:` field and the `Control:` fields after it ([key, text, line])."""
    (_, function, line), controls = fields[0], []
    if not NAME.match(function):
        raise error(shown, line, f"`Interactive:` names the drawing function, got {function!r}")
    for key, text, number in fields[1:]:
        if key != "Control":
            raise error(shown, number, f"after `Interactive:` only `Control:` lines may "
                        f"follow, found `{key}:`")
    frames = 1
    for _, text, number in fields[1:]:  # counted first: nothing is made past the ceiling
        try:
            frames *= value_count(text.partition("=")[2].partition("|")[0])
        except ControlError as exc:
            raise error(shown, number, str(exc)) from None
        if frames > MOST_FRAMES:
            raise error(shown, number, f"these controls give {frames:,} frames or more, past "
                        f"what any figure may have ({MOST_FRAMES:,}): use coarser steps")
    for key, text, number in fields[1:]:
        try:
            control = parse_control(text, number)
        except ControlError as exc:
            raise error(shown, number, str(exc)) from None
        if any(c.name == control.name for c in controls):
            raise error(shown, number, f"control {control.name!r} is given twice")
        controls.append(control)
    if not controls:
        raise error(shown, line, f"`Interactive: {function}` needs at least one `Control:` line")
    return Interactive(function, tuple(controls), line)


def check_limits(step, shown: str, error) -> None:
    """Frames per figure within the directive's `max-frames` (default MAX_FRAMES)."""
    limit = step.run_options.max_frames or MAX_FRAMES
    for fig in step.figures:
        if fig.interactive and fig.interactive.frames > limit:
            sizes = " x ".join(str(len(c.values)) for c in fig.interactive.controls)
            raise error(shown, fig.interactive.line, f"{sizes} = {fig.interactive.frames} frames, "
                        f"over the limit of {limit}: use coarser steps, or raise it with "
                        f"`@run {step.snippet} max-frames=N`")


def job_spec(step, page: str) -> list | None:
    """For the worker: each figure's index and controls (None: nothing interactive)."""
    specs = [dict(fig.interactive.spec(), figure=k, page=page,
                  max_frame_bytes=(step.run_options.max_frame_kb or MAX_FRAME_KB) * 1000)
             for k, fig in enumerate(step.figures) if fig.interactive]
    return specs or None


def stamp(step) -> bytes:
    """What a step's interactive figures add to the chapter's key: the controls (their
    values as parsed); nothing for a step without them, so other chapters' records stay
    fresh (bookrun.store.key adds the code that records frames)."""
    # Without line numbers: moving the prose around a figure does not re-execute it (and
    # Zensical hands the extension a page without its front matter).
    specs = [{"function": f.interactive.function,
              "controls": [[c.name, list(c.values), list(c.shown), c.label, c.play]
                           for c in f.interactive.controls]}
             for f in step.figures if f.interactive]
    if not specs:
        return b""
    return json.dumps(specs, sort_keys=True).encode()


def script_url(src_uri: str, url: str, from_source: bool) -> str:
    """The frames script's address from a page's raw HTML (see extension.notebook_links)."""
    page_dir = posixpath.dirname(src_uri) if from_source else (
        url.rstrip("/") if url.endswith("/") else posixpath.dirname(url))
    return posixpath.relpath(SCRIPT, page_dir or ".")


def script_tag(src: str) -> str:
    return f'<script defer src="{html.escape(src)}"></script>'


def controls_html(inter: Interactive, frames, anchor: str, indent: str) -> list[str]:
    """Native controls under the figure, hidden until the script takes them over (so a
    page without script shows the default figure alone). `frames` is the record's entry."""
    default = frames.default
    esc = lambda s: html.escape(str(s), quote=True)  # noqa: E731
    out = [f'<div class="bookrun-frames" data-figure="{anchor}" data-frames="{esc(frames.name)}"'
           f' hidden>']
    for k, c in enumerate(inter.controls):
        cid = f"{anchor}-{c.name}"
        pos = default[k]
        if c.is_range:
            out.append(f'<div class="bookrun-control"><label for="{cid}">{esc(c.label)}</label>'
                       f'<input type="range" id="{cid}" min="0" max="{len(c.values) - 1}" step="1"'
                       f' value="{pos}" aria-valuetext="{esc(c.shown[pos])}"'
                       f' data-shown="{esc(json.dumps(list(c.shown)))}">'
                       f'<output for="{cid}">{esc(c.shown[pos])}</output>'
                       + (play_button(cid, c) if c.play else "") + "</div>")
        elif len(c.values) <= RADIO_MAX:
            radios = "".join(
                f'<label><input type="radio" name="{cid}" value="{i}"'
                f'{" checked" if i == pos else ""}>{esc(s)}</label>'
                for i, s in enumerate(c.shown))
            out.append(f'<fieldset class="bookrun-control" id="{cid}"><legend>{esc(c.label)}'
                       f'</legend>{radios}' + (play_button(cid, c) if c.play else "")
                       + "</fieldset>")
        else:
            options = "".join(f'<option value="{i}"{" selected" if i == pos else ""}>{esc(s)}'
                              "</option>" for i, s in enumerate(c.shown))
            out.append(f'<div class="bookrun-control"><label for="{cid}">{esc(c.label)}</label>'
                       f'<select id="{cid}">{options}</select>'
                       + (play_button(cid, c) if c.play else "") + "</div>")
    out.append(f'<p class="bookrun-frame-text" aria-live="polite">{esc(frames.text)}</p>')
    out.append("</div>")
    return [indent + ln for ln in out]


def play_button(cid: str, c: Control) -> str:
    return f'<button type="button" class="bookrun-play" data-control="{cid}">Play</button>'


def notebook_cell(inter: Interactive) -> str:
    """A cell that gives live sliders where ipywidgets is installed (Colab has it)."""
    args = []
    for c in inter.controls:
        if c.is_range:
            args.append(f"{c.name}=({c.values[0]!r}, {c.values[-1]!r}, "
                        f"{c.values[1] - c.values[0] if len(c.values) > 1 else 1!r})")
        else:
            args.append(f"{c.name}={list(c.values)!r}")
    if any(c.is_range and len(c.values) > 1 for c in inter.controls):
        # the step written as the page wrote it, not as a float difference
        args = [f"{c.name}=({c.shown[0]}, {c.shown[-1]}, {step_text(c)})" if c.is_range else a
                for c, a in zip(inter.controls, args)]
    call = f"interact({inter.function}, {', '.join(args)})"
    return ("# Live controls for the figure above (the page's controls, every value).\n"
            "try:\n"
            "    from ipywidgets import interact\n"
            "except ImportError:\n"
            '    print("pip install ipywidgets for live sliders")\n'
            "else:\n"
            f"    _ = {call}")


def step_text(c: Control) -> str:
    if len(c.values) < 2:
        return "1"
    a, b = Decimal(c.shown[0]), Decimal(c.shown[1])
    return str(b - a)


"""Paste snippet files, in order, into `code.InteractiveConsole`, as a reader would.

    python tests/repl_paste.py FILE... > outputs.json

Prints a JSON list: what the console showed (stdout and stderr) for each file.
Run in its own process so each chapter starts from a fresh interpreter.
"""
import code
import contextlib
import io
import json
import sys
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt

matplotlib.use("Agg")
# A reader closes the figure window and carries on: figures do not pile up.
plt.show = lambda *args, **kwargs: plt.close("all")

console = code.InteractiveConsole({"__name__": "__main__"})
outputs = []
for path in sys.argv[1:]:
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown), contextlib.redirect_stderr(shown):
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            console.push(line)
        console.push("")  # the Enter that closes a final indented block
    outputs.append(shown.getvalue())
json.dump(outputs, sys.__stdout__)

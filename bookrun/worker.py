"""The chapter session: runs snippets in one fresh interpreter, as a REPL would.

Started by `bookrun.session` as `python -m bookrun.worker JOB.json RESULT.json`.
Each top-level statement is compiled in "single" mode, like a line typed at a
REPL, so a bare expression echoes its value exactly as it would for a reader.
Output (stdout and stderr, interleaved) and figures passed to `plt.show()` are
captured per snippet; the snippets themselves contain nothing build-specific.
"""
import ast
import contextlib
import io
import json
import re
import sys
import traceback
from pathlib import Path

ADDRESS = re.compile(r" at 0x[0-9a-fA-F]{4,}")
COMPOUND = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.For, ast.AsyncFor,
            ast.While, ast.If, ast.With, ast.AsyncWith, ast.Try, ast.Match)


class SnippetError(Exception):
    def __init__(self, path, line, message):
        super().__init__(message)
        self.path, self.line = path, line


def lint(path, source, tree):
    """Refuse what would paste differently into a REPL."""
    lines = source.splitlines()
    for node in tree.body:
        if not isinstance(node, COMPOUND):
            continue
        first, last = node.lineno, node.end_lineno
        for n in range(first, last):
            if not lines[n - 1].strip():
                raise SnippetError(path, n, "blank line inside an indented block: "
                                   "a REPL ends the block there")
        after = last + 1
        while after <= len(lines) and lines[after - 1].strip().startswith("#"):
            after += 1
        if after <= len(lines) and lines[after - 1].strip():
            raise SnippetError(path, after, "a REPL needs a blank line after an indented "
                               "block before the next statement")


def install_figure_capture(figdir: Path, state: dict):
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "bookrun"
    import matplotlib.pyplot as plt

    def show(*args, **kwargs):
        for num in plt.get_fignums():
            fig = plt.figure(num)
            state["count"] += 1
            name = f"{state['stem']}-{state['count']}.svg"
            fig.savefig(figdir / name, format="svg", metadata={"Date": None})
            state["figures"].append(name)
        plt.close("all")

    plt.show = show


def platform_fingerprint() -> dict:
    """What decides this session's floating-point paths, for the libraries it used.

    Read after the last snippet, so a chapter that never imported torch is not
    tied to torch's kernels. Environment variables such as ATEN_CPU_CAPABILITY,
    NPY_DISABLE_CPU_FEATURES and OPENBLAS_CORETYPE change these, as another CPU would.
    """
    import platform

    found = {"machine": platform.machine()}
    if "numpy" in sys.modules:
        from numpy._core import _multiarray_umath as umath
        from threadpoolctl import threadpool_info

        found["numpy_simd"] = [t for t in umath.__cpu_dispatch__ if umath.__cpu_features__.get(t)]
        found["blas"] = sorted(f"{i['internal_api']} {i.get('architecture') or ''}".strip()
                               for i in threadpool_info() if i["user_api"] == "blas")
    if "torch" in sys.modules:
        found["torch_cpu"] = sys.modules["torch"].backends.cpu.get_cpu_capability()
    return found


def run_snippet(path, source, namespace):
    tree = ast.parse(source, filename=path)
    lint(path, source, tree)
    for node in tree.body:
        code = compile(ast.Interactive(body=[node]), path, "single")
        exec(code, namespace)


def main(job_path, result_path):
    job = json.loads(Path(job_path).read_text())
    figdir = Path(job["figdir"])
    figdir.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, job["cwd"])
    state = {"stem": "", "count": 0, "figures": []}
    install_figure_capture(figdir, state)
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    results, error = [], None
    progress = sys.stderr  # the parent reads which snippet started, e.g. on a timeout
    for step in job["steps"]:
        path = step["path"]
        state.update(stem=Path(path).stem, count=0, figures=[])
        print(f"bookrun: start {path}", file=progress, flush=True)
        buffer = io.StringIO()
        try:
            source = Path(path).read_text(encoding="utf-8")
            with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(buffer):
                sys.displayhook = sys.__displayhook__
                run_snippet(path, source, namespace)
            output = buffer.getvalue()
            m = ADDRESS.search(output)
            if m:
                row = output[:m.start()].count("\n")
                raise SnippetError(path, None, "output shows an object address (differs every "
                                   f"run): {output.splitlines()[row]!r}; assign the value "
                                   "(`_ = ...`) or print what you mean")
            values = {}
            for body, expr, spec in step["bindings"]:
                try:
                    value = eval(expr, namespace)
                    values[body] = format(value, spec)
                except Exception as exc:
                    raise SnippetError(job["page"], step["binding_lines"][body],
                                       f"{{{{ {body} }}}} after {path}: "
                                       f"{type(exc).__name__}: {exc}") from None
        except SnippetError as exc:
            error = {"path": exc.path, "line": exc.line, "message": str(exc),
                     "traceback": "", "output": buffer.getvalue()}
            break
        except BaseException as exc:  # noqa: BLE001 - every failure is reported, then fatal
            tb = traceback.extract_tb(exc.__traceback__)
            frames = [f for f in tb if f.filename.endswith(".py") and not f.filename.startswith(
                str(Path(__file__).parent))]
            here = next((f for f in reversed(tb) if f.filename == path), None)
            error = {"path": path, "line": here.lineno if here else None,
                     "message": f"{type(exc).__name__}: {exc}",
                     "traceback": "".join(traceback.format_list(frames))
                     + "".join(traceback.format_exception_only(type(exc), exc)),
                     "output": buffer.getvalue()}
            break
        results.append({"path": path, "output": output, "figures": list(state["figures"]),
                        "values": values})
    fingerprint = platform_fingerprint() if error is None else {}
    Path(result_path).write_text(json.dumps({"steps": results, "error": error,
                                             "platform": fingerprint}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

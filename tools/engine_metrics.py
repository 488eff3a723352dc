"""Count what the engine's design review counted, by `ast` over bookrun/:

    python tools/engine_metrics.py [--list]

- string-key lookups: `x["key"]` with a str constant, and `.get/.setdefault/.pop("key")`;
- functions longer than 40 lines (from `def` to their last line);
- exception classes, and how many derive from BookrunError.

`--list` prints where each one is.
"""
import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "bookrun"
LONG = 40


def counts(root: Path = PACKAGE):
    lookups, long_functions, errors = [], [], []
    # Exception classes: derived from a builtin exception or from one of these (found
    # in a first pass, so that a subclass of a subclass counts too).
    known_errors = set()
    for _ in range(3):
        for path in sorted(root.rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef) and {getattr(b, "id", getattr(b, "attr", ""))
                        for b in node.bases} & ({"Exception", "ValueError", "RuntimeError",
                                                 "KeyboardInterrupt"} | known_errors):
                    known_errors.add(node.name)
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root.parent)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant)
                    and isinstance(node.slice.value, str)):
                lookups.append(f"{rel}:{node.lineno}")
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr in {"get", "setdefault", "pop"} and node.args
                  and isinstance(node.args[0], ast.Constant)
                  and isinstance(node.args[0].value, str)):
                lookups.append(f"{rel}:{node.lineno}")
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > LONG:
                    long_functions.append(f"{rel}:{node.lineno} {node.name} ({length} lines)")
            elif isinstance(node, ast.ClassDef):
                bases = {getattr(b, "id", getattr(b, "attr", "")) for b in node.bases}
                if bases & ({"Exception", "ValueError", "RuntimeError", "KeyboardInterrupt"}
                            | {n for n in known_errors}):
                    errors.append(f"{rel}:{node.lineno} {node.name}({', '.join(sorted(bases))})")
    return lookups, long_functions, errors


def main(argv) -> int:
    lookups, long_functions, errors = counts()
    print(f"string-key lookups: {len(lookups)}")
    print(f"functions over {LONG} lines: {len(long_functions)}")
    print(f"exception classes: {len(errors)}")
    if "--list" in argv:
        for title, rows in (("lookups", lookups), ("long functions", long_functions),
                            ("exceptions", errors)):
            print(f"\n{title}:")
            for row in rows:
                print("   ", row)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

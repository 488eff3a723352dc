"""Print bookrun's packages with their modules and imports; fail on a cycle or an upward arrow.

    python tools/import_graph.py

The folders are the layers. The pipeline reads bottom to top: a module may import its
own package or a package under it in LAYERS, never one above, and modules never import
in a cycle. Two packages stand apart, imported by the layers but importing nothing of
the engine: `markdown` (generic Python-Markdown extensions) and `pdf` (reads the built
site only). `execute.worker` is what the child interpreter loads: it imports nothing
outside itself. A package missing from LAYERS fails: a new package is placed on purpose.
"""
import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "bookrun"
LAYERS = ["errors", "config", "model", "parse", "execute.worker", "execute", "store", "render", "hosts"]
APART = ["markdown", "pdf"]  # import nothing of the engine; any layer may import them
# Top-level modules that belong to a layer; `fingerprint` runs inside the session (the
# book's `fingerprint` option calls it there) and imports only the standard library.
TOP = {"extension": "hosts", "__main__": "hosts", "fingerprint": "execute.worker"}
RANK = {name: n for n, name in enumerate(LAYERS)}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_of(module: str) -> str:
    parts = module.split(".")[1:]
    if len(parts) == 1:
        return TOP.get(parts[0], parts[0])
    if parts[:2] == ["execute", "worker"]:
        return "execute.worker"
    return parts[0]


def imports(path: Path, modules: set[str]) -> set[str]:
    """The bookrun modules a file imports (the longest known name of each import)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bookrun"):
            names = [f"{node.module}.{a.name}" for a in node.names] + [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names if a.name.startswith("bookrun")]
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != "bookrun":
                found.add(name)
                break
    return found


def problems_of(graph: dict[str, set[str]]) -> list[str]:
    problems = []
    for m, deps in graph.items():
        here = package_of(m)
        if here not in RANK and here not in APART:
            problems.append(f"{m}: package {here} is not placed (tools/import_graph.py)")
            continue
        for d in sorted(deps):
            there = package_of(d)
            if there == here:
                continue
            if here in APART or here == "execute.worker":
                problems.append(f"{m} ({here}) imports {d}: {here} imports nothing outside itself")
            elif there in RANK and RANK[there] > RANK[here]:
                problems.append(f"{m} ({here}) imports {d} ({there}): an arrow up")
    seen, stack = set(), []

    def visit(m):
        if m in stack:
            problems.append("cycle: " + " -> ".join(stack[stack.index(m):] + [m]))
            return
        if m in seen:
            return
        seen.add(m)
        stack.append(m)
        for d in sorted(graph.get(m, ())):
            visit(d)
        stack.pop()

    for m in graph:
        visit(m)
    return problems


def main() -> int:
    files = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
    # The public API (bookrun/__init__.py) re-exports from every layer, lazily.
    graph = {m: imports(p, set(files)) - {m} for m, p in files.items() if m != "bookrun"}
    short = lambda m: m.removeprefix("bookrun.")
    for layer in [*reversed(LAYERS), *APART]:
        mods = [m for m in graph if package_of(m) == layer]
        print(f"{layer}:")
        for m in mods:
            print(f"    {short(m)} -> {{{', '.join(sorted(map(short, graph[m])))}}}")
    problems = problems_of(graph)
    for p in problems:
        print("problem:", p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

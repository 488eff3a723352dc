"""Small fixture books in a temporary folder, for the executor's and the worker's tests."""
import textwrap

from bookrun.store.book import Book


def make_book(tmp_path, page, snippets, timeout=60.0, logs=None):
    """A book with one page `docs/demo.md` and snippets under `snippets/demo/` (both
    dedented); `logs`, a list, collects what the book logs."""
    (tmp_path / "docs").mkdir(exist_ok=True)
    (tmp_path / "docs" / "demo.md").write_text(textwrap.dedent(page))
    folder = tmp_path / "snippets" / "demo"
    folder.mkdir(parents=True, exist_ok=True)
    for name, code in snippets.items():
        (folder / name).write_text(textwrap.dedent(code))
    book = Book(root=tmp_path, timeout=timeout)
    book.log = (logs.append if logs is not None else (lambda msg: None))
    return book


PLOT = """\
import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(3, 2))
_ = ax.plot([0, 1, 2], [0, 1, 4])
plt.show()
print("drawn")
"""

# serve: a save re-runs the chapter from the edited snippet (tests/execute/conftest.py's
# `kept` book, whose builds keep their sessions).
RESUME_PAGE = "# Demo\n@run demo/a.py\n@run demo/b.py\n@run demo/c.py\n\nLast {{ z | .3f }}.\n"
RESUME_CODE = {
    # The file counts how many times the chapter ran from its first snippet (the `kept`
    # fixture says where it lies).
    "a.py": "import numpy as np\n_ = open(STARTS, 'a').write('a')\n"
            "rng = np.random.default_rng(0)\nprint(rng.normal(size=2).round(4))\n",
    "b.py": PLOT.replace("[0, 1, 4]", "rng.normal(size=3)"),
    "c.py": "z = rng.normal()\nprint('last draw', round(z, 4))\n",
}

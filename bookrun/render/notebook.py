"""A chapter as a Jupyter notebook: its snippets in page order, with their outputs."""
from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from bookrun.parse.controls import notebook_cell
from bookrun.render.page import fill_prose
from bookrun.model.text import visible


def chapter_notebook(chapter, record, read_code, figure_dir: Path, title: str) -> str:
    """Deterministic .ipynb text (fixed cell ids, no execution timestamps)."""
    cells = [new_markdown_cell(
        f"# {title}\n\nThe code of this chapter in page order, with the outputs the book "
        "was built with. Run the cells from the top: later cells use names defined by "
        "earlier ones.", id="title")]
    for n, step in enumerate(chapter.steps, start=1):
        snippet = record.snippet(step.snippet)
        outputs = []
        if snippet.output:
            # Control characters written out, as on the page (safe_text): a raw `\r`
            # would rewind the line in Jupyter but break it on the page.
            outputs.append(new_output("stream", name="stdout", text=visible(snippet.output)))
        for fig in snippet.figures:
            svg = (figure_dir / fig.name).read_text(encoding="utf-8")
            outputs.append(new_output("display_data", data={"image/svg+xml": svg}))
        cell = new_code_cell(read_code(step.snippet).rstrip("\n"), id=f"cell-{n:02d}",
                             execution_count=n, outputs=outputs)
        cells.append(cell)
        if step.figures and len(step.figures) == len(snippet.figures):
            cells.append(new_markdown_cell(figure_texts(step, record), id=f"cell-{n:02d}-figures"))
        for k, fig in enumerate(f for f in step.figures if f.interactive):
            cells.append(new_code_cell(notebook_cell(fig.interactive), id=f"cell-{n:02d}-live-{k}"))
    nb = new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"},
    })
    nbformat.validate(nb)
    return nbformat.writes(nb)


def figure_texts(step, record) -> str:
    """The page's caption and text alternative of each figure above, as Markdown: a
    notebook has no alt attribute for an SVG output, so the words go under it."""
    values = record.snippet(step.snippet).values  # those bound after this snippet
    return "\n\n".join(f"**Figure:** {fill_prose(fig.caption, values)}\n\n"
                         f"*What it shows:* {fill_prose(fig.alt, values)}"
                         for fig in step.figures)


def page_title(page: Path) -> str:
    """The page's first `# ` heading, the notebook's title."""
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return page.stem

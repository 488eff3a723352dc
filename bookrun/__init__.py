"""bookrun: run a book's snippets at build time, record and render their outputs."""

"""The icons of the notebook buttons, drawn by the engine itself.

The buttons used Material's `:material-download:` shortcodes, which only the
`pymdownx.emoji` extension, set up with Material's icon index, turns into icons; a book
without it showed the shortcodes as text. Here each icon is the markup that setup writes
(a `twemoji` span, which Material's and Zensical's themes size to the text), so a page
looks the same with or without that extension.

The paths are those of the icon files Material for MkDocs ships: Material Design Icons
(Pictogrammers, Apache License 2.0) and Simple Icons (CC0 1.0).
"""
from __future__ import annotations

SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="{}"/></svg>'
PATHS = {
    # material/notebook-outline.svg
    "notebook": "M17 4v6l-2-2-2 2V4H9v16h10V4zM3 7V5h2V4a2 2 0 0 1 2-2h12c1.05 0 2 .95 2 "
                "2v16c0 1.05-.95 2-2 2H7c-1.05 0-2-.95-2-2v-1H3v-2h2v-4H3v-2h2V7zm2-2v2h2V5zm0 "
                "14h2v-2H5zm0-6h2v-2H5z",
    # material/download.svg
    "download": "M5 20h14v-2H5m14-9h-4V3H9v6H5l7 7z",
    # simple/googlecolab.svg
    "colab": "M16.941 4.976a7.03 7.03 0 0 0-4.93 2.064 7.033 7.033 0 0 0-.124 9.807l2.395-2.395a3"
             ".646 3.646 0 0 1 5.15-5.148l2.397-2.399a7.03 7.03 0 0 0-4.888-1.93m-9.871.01a7.03 "
             "7.03 0 0 0-4.888 1.931l2.391 2.391a3.643 3.643 0 0 1 5.023.127l1.734-2.973-.1-.08a7"
             ".03 7.03 0 0 0-4.16-1.396m15.01 2.172-2.39 2.39a3.646 3.646 0 0 1-5.15 5.15l-2.406 "
             "2.407a7.036 7.036 0 0 0 9.945-9.947m-20.148.01a7.033 7.033 0 0 0-.002 9.681l2.397-"
             "2.397a3.643 3.643 0 0 1-.004-4.892zm7.664 7.423a3.635 3.635 0 0 1-5.017.113L2.182 "
             "17.1a7.03 7.03 0 0 0 9.007.546l.137-.112z",
}


def icon(name: str) -> str:
    """The icon as inline HTML, as `pymdownx.emoji` with Material's index writes it."""
    return f'<span class="twemoji">{SVG.format(PATHS[name])}</span>'

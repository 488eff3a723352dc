"""Figures a phone can read (render/zoom.py): panels found in the SVG, the link markup."""
from __future__ import annotations

import re

import markdown

from bookrun.render import zoom
from helpers.paths import ROOT

FIGURES = ROOT / "snippets"


def svg(chapter: str, name: str) -> str:
    return (FIGURES / chapter / "_figures" / name).read_text(encoding="utf-8")


def test_a_row_of_two_panels_is_cut_between_their_labels():
    width, height, title, cuts = zoom.panels(svg("ppo", "clip_explorer-1.svg"))
    assert (width, height, title) == (504, 230.4, [])
    assert cuts[0] == 0 and cuts[-1] == width and len(cuts) == 3
    assert 245 < cuts[1] < 299  # between the left axes' right edge and the right one's


def test_a_figure_title_gets_its_own_strip_and_a_colourbar_stays_with_its_panel():
    width, _, title, cuts = zoom.panels(svg("q_learning", "visit_heatmap-1.svg"))
    left, right, top = title
    assert 0 < left < right < width and 20 < top < 56  # above the axes' titles
    assert len(cuts) == 3  # two heatmaps; the colourbar is no third panel


def test_one_panel_a_column_of_panels_and_a_heatmap_with_its_colourbar_do_not_stack():
    for chapter, name in [("ppo", "learning_curves-1.svg"),
                          ("return_discount", "policy_arrows_plot-1.svg"),
                          ("setup", "value_heatmap-1.svg")]:
        assert zoom.panels(svg(chapter, name)) is None, name
    assert zoom.panels("not svg") is None


def test_the_smallest_text_sets_the_least_width_of_the_image():
    text = svg("rl_for_llms", "group_advantage_explorer-1.svg")
    assert zoom.smallest_text(text) == 10  # points: its legend
    # its size in CSS px (576 x 273.6 pt), then the least width: 576 * 9/10
    assert zoom.figure_attributes(text) == ('width="768" height="365" '
                                            'style="--bookrun-min-width: 519px"')


def test_the_link_holds_the_image_and_its_panels_each_cropped_from_the_same_file():
    layout = zoom.figure_attributes(svg("ppo", "clip_explorer-1.svg"))
    html = markdown.markdown(f'![Two panels.](f.svg){{ .bookrun-figure {layout} }}',
                             extensions=["attr_list", zoom.ZoomExtension()])
    assert html.startswith('<p><a class="bookrun-zoom" href="f.svg" data-type="image"'
                           ' data-panels><img alt="Two panels."')
    panels = re.findall(r'<span class="bookrun-panel" style="([^"]+)"><img class="off-glb" '
                        r'src="f.svg" alt="" style="([^"]+)"></span>', html)
    assert len(panels) == 2
    assert 'role="img" aria-label="Two panels."' in html  # read once, where it is shown
    assert "data-panels=" not in html  # the image keeps only its own attributes
    assert html == markdown.markdown(f'![Two panels.](f.svg){{ .bookrun-figure {layout} }}',
                                     extensions=["attr_list", zoom.ZoomExtension()])

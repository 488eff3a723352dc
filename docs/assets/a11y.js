// Accessibility fixes that the theme's templates leave to the site.
(function () {
  // Material's search overlay is a role="dialog" with no accessible name.
  for (const dialog of document.querySelectorAll('.md-search[role="dialog"]')) {
    dialog.setAttribute("aria-label", "Search the book");
  }
  // A box that scrolls sideways must be reachable by keyboard, or its hidden part
  // cannot be read without a mouse. Chapters get this in their HTML (bookrun/reach.py:
  // code, math, diagrams), because measuring every box on load forced the layout of
  // the whole page. Tables are wrapped in their scrolling box by the theme's script, so
  // they are marked here, all of them and without measuring: no layout is read.
  function reachTables() {
    for (const box of document.querySelectorAll(".md-typeset .md-typeset__scrollwrap")) {
      if (!box.hasAttribute("tabindex")) box.setAttribute("tabindex", "0");
    }
  }
  reachTables();
  document.addEventListener("DOMContentLoaded", reachTables);
  window.addEventListener("load", reachTables);

  // Notebook pages (mkdocs-jupyter) are not written by Python-Markdown: their cells
  // are measured, each when it is first drawn (book.css skips far blocks' layout).
  if (!document.querySelector(".jp-Notebook")) return;
  const focusable = "a[href], button, input, select, textarea, summary, [tabindex]";
  const scrollers = ".jp-Notebook .highlight-ipynb, .jp-Notebook .jp-OutputArea-output pre, " +
    ".jp-Notebook .jp-RenderedHTMLCommon";
  function reachScrollers(root) {
    const within = root && root.querySelectorAll ? root : document;
    const boxes = [...within.querySelectorAll(scrollers)];
    if (within !== document && within.matches(scrollers)) boxes.push(within);
    for (const box of boxes) {
      if (box.scrollWidth > box.clientWidth && !box.matches(focusable) &&
          !box.querySelector(focusable)) {
        box.setAttribute("tabindex", "0");
        if (!box.hasAttribute("role")) box.setAttribute("role", "region");
        if (!box.hasAttribute("aria-label")) box.setAttribute("aria-label", "scrollable content");
      }
    }
  }
  reachScrollers();
  window.addEventListener("resize", () => reachScrollers());
  document.addEventListener("contentvisibilityautostatechange", (event) => {
    if (!event.skipped) reachScrollers(event.target);
  }, true);
  if (document.fonts) document.fonts.ready.then(() => reachScrollers());
})();

// Accessibility fixes that Material's templates leave to the site.
(function () {
  // Material's search overlay is a role="dialog" with no accessible name.
  for (const dialog of document.querySelectorAll('.md-search[role="dialog"]')) {
    dialog.setAttribute("aria-label", "Search the book");
  }
  // A box that scrolls sideways (wide code, tables, math, notebook cells) must be
  // reachable by keyboard, or its hidden part cannot be read without a mouse.
  // Material already makes its own code blocks focusable; this covers the rest.
  const focusable = "a[href], button, input, select, textarea, summary, [tabindex]";
  const scrollers =
    ".md-typeset div.arithmatex, .md-typeset .md-typeset__scrollwrap, " +
    ".md-typeset .md-typeset__table, .md-typeset div.bookrun-diagram, " +
    ".jp-Notebook .highlight-ipynb, .jp-Notebook .jp-OutputArea-output pre, " +
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
  // Material wraps tables in their scrolling boxes once its own script has run.
  window.addEventListener("load", () => reachScrollers());
  window.addEventListener("resize", () => reachScrollers());
  // book.css skips the layout of blocks far from the viewport (content-visibility:
  // auto), so their widths are only known once a block is drawn, and with its fonts.
  document.addEventListener("contentvisibilityautostatechange", (event) => {
    if (!event.skipped) reachScrollers(event.target);
  }, true);
  if (document.fonts) document.fonts.ready.then(() => reachScrollers());
})();

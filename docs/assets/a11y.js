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
  function reachScrollers() {
    for (const box of document.querySelectorAll(
        ".md-typeset div.arithmatex, .md-typeset .md-typeset__table, .md-typeset div.mermaid, " +
        ".jp-Notebook .highlight-ipynb, .jp-Notebook .jp-OutputArea-output pre, " +
        ".jp-Notebook .jp-RenderedHTMLCommon")) {
      if (box.scrollWidth > box.clientWidth && !box.matches(focusable) &&
          !box.querySelector(focusable)) {
        box.setAttribute("tabindex", "0");
        if (!box.hasAttribute("role")) box.setAttribute("role", "region");
        if (!box.hasAttribute("aria-label")) box.setAttribute("aria-label", "scrollable content");
      }
    }
  }
  reachScrollers();
  window.addEventListener("load", () => {
    reachScrollers();
    // MathJax typesets after load; its boxes only get their width then.
    const mj = window.MathJax;
    if (mj && mj.startup && mj.startup.promise) mj.startup.promise.then(reachScrollers);
  });
  window.addEventListener("resize", reachScrollers);
})();

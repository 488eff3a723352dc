// MathJax reads this before it loads; arithmatex wraps math in \( \) and \[ \].
window.MathJax = {
  tex: {
    inlineMath: [["\\(", "\\)"]],
    displayMath: [["\\[", "\\]"]],
    processEscapes: true,
    processEnvironments: true,
  },
  options: {
    ignoreHtmlClass: ".*|",
    processHtmlClass: "arithmatex",
  },
};
// MathJax typesets the page it loads on by itself. Material emits document$ for
// that first page too, and again for every page it swaps in without a reload
// (instant navigation): typeset only those later pages, once MathJax is ready.
if (typeof document$ !== "undefined") {
  let first = true;
  document$.subscribe(() => {
    if (first) {
      first = false;
      return;
    }
    if (!window.MathJax || !MathJax.startup || !MathJax.startup.promise) return;
    MathJax.startup.promise.then(() => {
      // The SVG output keeps glyphs in a font cache (tex-svg has no clearCache()).
      if (MathJax.startup.output.clearFontCache) MathJax.startup.output.clearFontCache();
      MathJax.typesetClear();
      MathJax.texReset();
      return MathJax.typesetPromise();
    });
  });
}

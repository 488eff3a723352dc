// A link to a self-test question opens it. The chapter header's "Check yourself" links
// point at an empty anchor written above a collapsed question (bookrun/render/header.py);
// the reader followed the link to read that question, so it opens, as a question the
// link points into would. Landing needs no script (book.css lays the page out while it
// has a target); without this one, the question stays closed, one click away.
(function () {
  // The collapsed block a target stands for: the one it is in, or the one right after
  // an anchor with nothing in it.
  function detailsFor(target) {
    const inside = target.closest("details");
    if (inside) return inside;
    const block = target.closest("p") || target;
    const next = block.nextElementSibling;
    const empty = !block.textContent.trim();
    return empty && next && next.matches("details") ? next : null;
  }
  function open(hash) {
    let id;
    try {
      id = decodeURIComponent(hash.slice(1));
    } catch (error) {
      return;  // a malformed address names no element
    }
    const target = id && document.getElementById(id);
    // A question inside another opens with every one around it, or it stays hidden.
    for (let d = target && detailsFor(target); d; d = d.parentElement.closest("details")) {
      d.open = true;
    }
  }
  // Before the browser scrolls: a question that opens above its target would move it.
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a[href*='#']");
    if (link && link.pathname === location.pathname && link.origin === location.origin) {
      open(link.hash);
    }
  });
  window.addEventListener("hashchange", () => open(location.hash));
  open(location.hash);  // the page opened at page/#anchor
})();

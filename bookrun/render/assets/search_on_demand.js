// Material for MkDocs fetches the whole search index as soon as any page loads, before
// anyone searches: on this book about 120 kB of every page's transfer. This script runs
// before Material's bundle and holds that one request until the reader first shows they
// want to search (the search box focused or clicked, its toggle, the f, s or / shortcut,
// or a ?q= address); then the request goes out as Material made it. Nothing else changes.
(() => {
  "use strict";
  const INDEX = /\/search\/search_index\.json$/;
  const open = XMLHttpRequest.prototype.open;
  const send = XMLHttpRequest.prototype.send;
  const held = [];
  let wanted = new URLSearchParams(location.search).has("q");

  const want = () => {
    if (wanted) return;
    wanted = true;
    held.splice(0).forEach((release) => release());
  };

  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    this.bookrunIndex = INDEX.test(new URL(String(url), document.baseURI).pathname);
    return open.call(this, method, url, ...rest);
  };
  XMLHttpRequest.prototype.send = function (...args) {
    if (this.bookrunIndex && !wanted) {
      held.push(() => send.apply(this, args));
      return undefined;
    }
    return send.apply(this, args);
  };

  const SEARCH = "label[for='__search'], .md-search, [data-md-component='search-query']";
  const shows = (event) => event.target instanceof Element && event.target.closest(SEARCH);
  document.addEventListener("pointerdown", (e) => { if (shows(e)) want(); }, true);
  document.addEventListener("focusin", (e) => { if (shows(e)) want(); }, true);
  document.addEventListener("change", (e) => { if (e.target.id === "__search") want(); }, true);
  document.addEventListener("keydown", (e) => {
    if (["f", "s", "/"].includes(e.key)) want();
  }, true);
})();

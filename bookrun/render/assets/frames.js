// Interactive figures: swap in frames the book's snippets computed at build time.
// The page shows each figure's default frame as a normal <img>; its frames file
// (bookrun/frames.py) holds only the SVG groups where each frame differs from it.
// Nothing is fetched until the figure nears the viewport or a control is touched.
(function () {
  "use strict";
  const NEAR = "300px"; // start loading this far before the figure scrolls into view
  const KEEP = 96; // frames kept drawn (object URLs) per figure
  const PLAY_MS = 450;
  let described = 0; // frame lines named for the lightbox, one class each

  function setup(box) {
    const figure = document.getElementById(box.dataset.figure);
    const img = figure && figure.querySelector("img");
    if (!img) return;
    // Every copy of the image (its stacked panels, render/zoom.py) shows the frame,
    // and the link the lightbox opens points at it, with the frame's text under it.
    const copies = [...figure.querySelectorAll("img")];
    const link = img.closest("a.bookrun-zoom");
    let stale = false; // the lightbox read the link before the last swap
    const original = img.src;
    const url = new URL(box.dataset.frames, img.src).href;
    const text = box.querySelector(".bookrun-frame-text");
    const controls = [...box.querySelectorAll(".bookrun-control")];
    let data = null, base = null, loading = null, wanted = -1, timer = null;
    const drawn = new Map();
    const parser = new DOMParser();

    function position(control) {
      const range = control.querySelector("input[type=range]");
      if (range) return range.valueAsNumber;
      const select = control.querySelector("select");
      if (select) return Number(select.value);
      const radio = control.querySelector("input[type=radio]:checked");
      return radio ? Number(radio.value) : 0;
    }
    function counts() {
      return data.controls.map((c) => c.shown.length);
    }
    function flat(at) {
      return at.reduce((n, i, k) => n * counts()[k] + i, 0);
    }
    function load() {
      if (!loading) {
        loading = Promise.all([
          fetch(url).then((r) => r.json()),
          fetch(original).then((r) => r.text()), // the default frame, already cached
        ]).then(([json, svg]) => {
          data = json;
          base = prepare(svg, json.defs);
        });
      }
      return loading;
    }
    // One <defs> at the top: a swapped group must not take a glyph others use with it.
    function prepare(svg, defs) {
      const doc = parser.parseFromString(svg, "image/svg+xml");
      const root = doc.documentElement;
      const top = doc.createElementNS(root.namespaceURI, "defs");
      for (const d of [...root.querySelectorAll("g defs")]) {
        top.append(...d.children);
        d.remove();
      }
      for (const xml of Object.values(defs)) top.append(doc.importNode(piece(xml), true));
      root.insertBefore(top, root.firstChild);
      return doc;
    }
    function piece(xml) {
      return parser.parseFromString(xml, "image/svg+xml").documentElement;
    }
    function frameUrl(n) {
      if (n === flat(data.default)) return original;
      if (drawn.has(n)) return drawn.get(n);
      const root = base.documentElement.cloneNode(true);
      for (const [id, k] of Object.entries(data.frames[n][1])) {
        const old = root.querySelector(`[id="${CSS.escape(id)}"]`);
        if (old) old.replaceWith(base.importNode(piece(data.pieces[k]), true));
      }
      const blob = new Blob([new XMLSerializer().serializeToString(root)],
        { type: "image/svg+xml" });
      const made = URL.createObjectURL(blob);
      drawn.set(n, made);
      if (drawn.size > KEEP) {
        const [oldest, gone] = drawn.entries().next().value;
        drawn.delete(oldest);
        URL.revokeObjectURL(gone);
      }
      return made;
    }
    // Frames one step away on each control, drawn and decoded before they are needed.
    function prefetch(at) {
      const sizes = counts();
      at.forEach((i, k) => {
        for (const j of [i - 1, i + 1]) {
          if (j < 0 || j >= sizes[k]) continue;
          const next = at.slice();
          next[k] = j;
          const pre = new Image();
          pre.src = frameUrl(flat(next));
          if (pre.decode) pre.decode().catch(() => {});
        }
      });
    }
    function show() {
      const at = controls.map(position);
      controls.forEach((control, k) => {
        const range = control.querySelector("input[type=range]");
        if (!range) return;
        const shown = JSON.parse(range.dataset.shown)[at[k]];
        range.setAttribute("aria-valuetext", shown);
        control.querySelector("output").textContent = shown;
      });
      load().then(() => {
        const n = flat(at);
        if (n === wanted) return;
        wanted = n;
        const src = frameUrl(n);
        for (const copy of copies) copy.src = src;
        text.textContent = data.frames[n][0];
        if (link) {
          link.href = src;
          stale = true;
        }
        prefetch(at);
      }).catch(() => {
        text.textContent = "The other frames could not be loaded; the figure shows the default.";
      });
    }
    function step(control) {
      const range = control.querySelector("input[type=range]");
      const select = control.querySelector("select");
      if (range) {
        range.value = range.valueAsNumber >= Number(range.max) ? 0 : range.valueAsNumber + 1;
      } else if (select) {
        select.selectedIndex = (select.selectedIndex + 1) % select.options.length;
      } else {
        const radios = [...control.querySelectorAll("input[type=radio]")];
        const i = radios.findIndex((r) => r.checked);
        radios[(i + 1) % radios.length].checked = true;
      }
      show();
    }
    function stop() {
      clearInterval(timer);
      timer = null;
      for (const b of box.querySelectorAll(".bookrun-play")) b.textContent = "Play";
    }
    function play(button) {
      const running = button.textContent === "Pause";
      stop();
      if (running) return;
      button.textContent = "Pause";
      const control = button.closest(".bookrun-control");
      timer = setInterval(() => step(control), PLAY_MS);
    }

    // GLightbox (mkdocs-glightbox's `lightbox`) reads its links when set up: on the
    // first opening after a swap it reads them again, so it enlarges the frame shown.
    // It writes a description into the page as HTML, unless the description is a
    // selector (a leading "."): then it takes that element's HTML. So the link names the
    // frame's line, whose text is set as text: the lightbox shows it as text too, and a
    // printed "<img onerror=...>" is never markup.
    if (link) {
      const own = `bookrun-frame-text-${++described}`;
      text.classList.add(own);
      link.dataset.description = `.${own}`;
      link.addEventListener("click", () => {
        if (stale && typeof lightbox !== "undefined") lightbox.reload();
        stale = false;
      }, true);
    }
    box.hidden = false;
    box.addEventListener("input", show);
    box.addEventListener("change", show);
    box.addEventListener("focusin", () => load().catch(() => {}));
    box.addEventListener("pointerdown", () => load().catch(() => {}));
    for (const b of box.querySelectorAll(".bookrun-play")) {
      b.addEventListener("click", () => play(b));
    }
    if ("IntersectionObserver" in window) {
      const seen = new IntersectionObserver((entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          seen.disconnect();
          load().catch(() => {});
        }
      }, { rootMargin: NEAR });
      seen.observe(figure);
    }
  }

  for (const box of document.querySelectorAll(".bookrun-frames")) setup(box);
})();

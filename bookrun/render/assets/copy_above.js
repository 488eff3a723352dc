// "Copy with the N blocks above" (bookrun/copy_above.py): the button of block N puts
// the page's snippets 0..N on the clipboard, each already followed by the blank line a
// REPL needs. The texts were written into the page at build time, one per block; this
// only joins them, so nothing is read from the highlighted code.
(function () {
  function textUpTo(upto) {
    const parts = [];
    for (const data of document.querySelectorAll("script[data-bookrun-paste]")) {
      if (Number(data.dataset.bookrunPaste) <= upto) parts.push(JSON.parse(data.textContent));
    }
    return parts.join("");
  }
  function say(button, message) {
    // The label is the button's name; the outcome is announced in a live region.
    let status = button.parentElement.querySelector(".bookrun-copy-above__status");
    if (!status) {
      status = document.createElement("span");
      status.className = "bookrun-copy-above__status";
      status.setAttribute("role", "status");
      button.after(status);
    }
    status.textContent = message;
    clearTimeout(status.clearing);
    status.clearing = setTimeout(() => { status.textContent = ""; }, 4000);
  }
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button[data-bookrun-upto]");
    if (!button) return;
    const upto = Number(button.dataset.bookrunUpto);
    const count = upto + 1;
    navigator.clipboard.writeText(textUpTo(upto)).then(
      () => say(button, `Copied ${count} block${count === 1 ? "" : "s"}`),
      () => say(button, "Copying was refused by the browser"));
  });
})();

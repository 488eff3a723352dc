"""The plugin inside a real `mkdocs build` of a tiny fixture site."""
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import bookrun
from bookrun.hosts.serve import SESSIONS_PREFIX

from helpers.builds import FIXTURE_CONFIG as CONFIG, build_fixture as build


PLOT = ("import matplotlib.pyplot as plt\n\nfig, ax = plt.subplots(figsize=(2, 2))\n"
        "_ = ax.plot([1, 2])\nplt.show()\nwhat = '<i>'\nprint('<b>shown as text</b>')\n")


CAPTION = ("Figure: A *rising* line, ending at {{ ax.lines[0].get_ydata()[-1] }}.\n"
           "Alt: One straight line rising from 1 to {{ ax.lines[0].get_ydata()[-1] }},\n"
           "    the whole plot in one colour, \"quoted\" & <tagged>.\n")


def test_page_shows_code_output_figure_and_bound_value(tmp_path):
    proc = build(tmp_path, "# Demo\n\n@run demo/plot.py\n" + CAPTION +
                 "\nThe tag {{ what }} stays text, as [[fig:plot]] shows.\n", {"plot.py": PLOT})
    assert proc.returncode == 0, proc.stderr
    assert "demo               executed in" in proc.stderr  # progress, one line per chapter
    html = (tmp_path / "site" / "demo" / "index.html").read_text()
    assert "snippets/demo/plot.py" in html
    assert "&lt;b&gt;shown as text&lt;/b&gt;" in html and "<b>shown" not in html
    assert 'The tag &lt;i&gt; stays text, as <a href="#figure-4-1">Figure 4.1</a> shows.' in html
    assert 'src="../figures/demo/plot-1.svg"' in html
    # A numbered <figure>: the caption is Markdown with the bound value, the alt plain text.
    assert '<figure id="figure-4-1">' in html
    assert ('<figcaption>\n<p><span class="caption-prefix">Figure 4.1.</span> '
            'A <em>rising</em> line, ending at 2.</p>\n</figcaption>') in html
    assert ('alt="One straight line rising from 1 to 2, the whole plot in one colour, '
            '&quot;quoted&quot; &amp; &lt;tagged&gt;."') in html
    assert "Figure:" not in html and "Alt:" not in html
    assert (tmp_path / "site" / "figures" / "demo" / "plot-1.svg").is_file()
    # The notebook to download, where its button links it (no mkdocs-jupyter here).
    assert 'download href="../notebooks/demo/demo.ipynb"' in html
    notebook = (tmp_path / "site" / "notebooks" / "demo" / "demo.ipynb").read_text()
    assert "as [Figure 4.1](#figure-4-1) shows" in notebook  # the reference, numbered there too
    assert '<a id=\\"figure-4-1\\"></a>**Figure 4.1.** A *rising* line' in notebook
    again = build(tmp_path, "# Demo\n\n@run demo/plot.py\n" + CAPTION +
                  "\nThe tag {{ what }} stays text, as [[fig:plot]] shows.\n", {"plot.py": PLOT})
    assert "demo               reused record in" in again.stderr


def test_failing_snippet_fails_the_build_with_its_traceback(tmp_path):
    proc = build(tmp_path, "# Demo\n\n@run demo/bad.py\n", {"bad.py": "x = 1\nx.nope\n"})
    assert proc.returncode != 0
    assert "snippets/demo/bad.py:2: AttributeError" in proc.stderr
    assert not (tmp_path / "site" / "demo" / "index.html").exists()  # no page with a traceback
    # The serve-only error panel can never reach a built site, strict or not.
    assert "This chapter failed" not in proc.stdout + proc.stderr
    assert not [f for f in (tmp_path / "site").rglob("*.html")
                if "This chapter failed" in f.read_text()]


def test_a_highlight_filter_pygments_lacks_fails_the_build_naming_the_config(tmp_path):
    """pymdown-extensions would quietly show the code unhighlighted."""
    config = CONFIG.replace("  - pymdownx.highlight\n", "  - pymdownx.highlight:\n"
                            "      extend_pygments_lang:\n"
                            "        - {name: python, lang: python, options: {filters: [nope]}}\n")
    proc = build(tmp_path, "# Demo\n", {}, config=config)
    assert proc.returncode != 0
    assert "mkdocs.yml: pymdownx.highlight's extend_pygments_lang gives 'python' the " \
           "Pygments filter 'nope', which is not installed" in proc.stderr, proc.stderr
    assert not (tmp_path / "site").exists()


def test_a_value_bound_after_two_snippets_shows_each_place_its_own(tmp_path):
    """`{{ x }}` after a.py shows a.py's x and after b.py shows b.py's: the record keeps
    each binding's value under the snippet it follows (format 2)."""
    page = ("# Demo\n\n@run demo/a.py\n\nFirst x is {{ x }}.\n\n@run demo/b.py\n\n"
            "Then x is {{ x }}.\n")
    proc = build(tmp_path, page, {"a.py": "x = 1\n", "b.py": "x = 2\n"})
    assert proc.returncode == 0, proc.stderr
    html = (tmp_path / "site" / "demo" / "index.html").read_text()
    assert "First x is 1." in html and "Then x is 2." in html
    assert html.index("First x is 1.") < html.index("Then x is 2.")
    record = json.loads((tmp_path / "snippets" / "demo" / "_record.json").read_text())
    assert record["format"] == 2 and "values" not in record
    assert [s.get("values") for s in record["snippets"]] == [{"x": "1"}, {"x": "2"}]


def test_figure_without_caption_and_alt_fails_the_build_naming_page_and_line(tmp_path):
    proc = build(tmp_path, "# Demo\n\n@run demo/plot.py\n", {"plot.py": PLOT})
    assert proc.returncode != 0
    assert ("docs/demo.md:3: demo/plot.py shows 1 figure(s) but the page gives 0 "
            "`Figure:`/`Alt:` pair(s)") in proc.stderr
    assert not (tmp_path / "site" / "demo" / "index.html").exists()


def test_alt_text_that_says_nothing_fails_the_build(tmp_path):
    proc = build(tmp_path, "# Demo\n\n@run demo/plot.py\nFigure: A line.\nAlt: A plot.\n",
                 {"plot.py": PLOT})
    assert proc.returncode != 0
    assert "docs/demo.md:5: an `Alt:` text must say what the figure shows" in proc.stderr


def test_a_figure_number_typed_in_the_prose_fails_the_build(tmp_path):
    page = "# Demo\n\n@run demo/plot.py\n" + CAPTION + "\nAs Figure 4.1 shows.\n"
    proc = build(tmp_path, page, {"plot.py": PLOT})
    assert proc.returncode != 0
    assert "docs/demo.md:8: Figure 4.1 is typed by hand: write [[fig:plot]]" in proc.stderr


def test_missing_snippet_fails_the_build_naming_page_and_line(tmp_path):
    proc = build(tmp_path, "# Demo\n\n@run demo/missing.py\n", {"a.py": "x = 1\n"})
    assert proc.returncode != 0
    assert "docs/demo.md:3: snippet not found" in proc.stderr


def test_execution_switched_off_shows_code_only(tmp_path):
    proc = build(tmp_path, "# Demo\n\n@run demo/plot.py\n" + CAPTION + "\nThe tag {{ what }}.\n",
                 {"plot.py": PLOT}, extra_env=None)
    assert proc.returncode == 0
    # A config that turns execution off renders code and expressions, runs nothing.
    (tmp_path / "mkdocs.yml").write_text(CONFIG.replace("timeout: 60", "execute: false"))
    plain = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-d", "plain"],
                           cwd=tmp_path, capture_output=True, text=True,
                           env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    assert plain.returncode == 0, plain.stderr
    html = (tmp_path / "plain" / "demo" / "index.html").read_text()
    assert "snippets/demo/plot.py" in html and "bookrun-output" not in html
    assert "<code>what</code>" in html
    assert "Figure:" not in html and "Alt:" not in html  # no figure, and no stray caption


def test_the_extensions_snippets_dir_and_timeout_reach_mkdocs_build(tmp_path):
    """Given on `bookrun.extension` (not on the plugin), both options are the build's, as
    they are `python -m bookrun check`'s: the plugin's own defaults used to win."""
    config = CONFIG.replace("  - bookrun:\n      timeout: 60\n", "  - bookrun\n").replace(
        "  - bookrun.extension:\n", "  - bookrun.extension:\n"
        "      snippets_dir: code\n      timeout: 3\n")
    (tmp_path / "code" / "demo").mkdir(parents=True)
    (tmp_path / "code" / "demo" / "slow.py").write_text("import time\n\ntime.sleep(60)\n")
    t0 = time.monotonic()
    proc = build(tmp_path, "# Demo\n\n@run demo/slow.py\n", {}, config=config)
    assert proc.returncode != 0
    assert "snippet not found" not in proc.stderr, proc.stderr  # found in code/, not snippets/
    assert ("timed out after 3 s while running code/demo/slow.py:3") in proc.stderr, proc.stderr
    assert time.monotonic() - t0 < 45  # not the 60 s the snippet sleeps


def test_an_option_given_on_both_the_plugin_and_the_extension_is_refused(tmp_path):
    config = CONFIG.replace("  - bookrun.extension:\n",
                            "  - bookrun.extension:\n      timeout: 90\n")
    proc = build(tmp_path, "# Demo\n", {}, config=config)
    assert proc.returncode != 0
    assert ("bookrun: option 'timeout' is given twice, in mkdocs.yml:7: plugins: bookrun and "
            "in mkdocs.yml:10: bookrun.extension: keep one") in proc.stderr, proc.stderr
    assert not (tmp_path / "site").exists()


def test_a_markdown_extension_the_pages_need_is_named_when_missing(tmp_path):
    proc = build(tmp_path, "# Demo\n", {}, config=CONFIG.replace("  - attr_list\n", ""))
    assert proc.returncode != 0
    assert ("mkdocs.yml: add `attr_list` to markdown_extensions: bookrun needs it for the "
            "classes of figures") in proc.stderr, proc.stderr
    # Headers are an option: only a book that turns them on needs md_in_html.
    headers = CONFIG.replace("      timeout: 60\n",
                             "      timeout: 60\n      chapter_headers: true\n")
    proc = build(tmp_path, "# Demo\n", {}, config=headers)
    assert proc.returncode != 0
    assert "add `md_in_html` to markdown_extensions" in proc.stderr, proc.stderr
    assert "attr_list" not in proc.stderr


def test_the_plugins_options_are_the_config_fields_and_the_environment_wins_once():
    """In-process: one schema for both places; the variables override what either gives."""
    import dataclasses

    import pytest

    from bookrun.config import BookConfig, ConfigError
    from bookrun.hosts.mkdocs import BookrunConfig
    fields = [f.name for f in dataclasses.fields(BookConfig)]
    assert [name for name, _ in BookrunConfig._schema] == fields
    assert all(option.default is None for _, option in BookrunConfig._schema)  # defaults: once
    places = [("plugin", {"execute": True, "timeout": 60}), ("extension", {"min_alt_words": 3})]
    config = BookConfig.from_sources(places, {"BOOKRUN_EXECUTE": "false", "BOOKRUN_TIMEOUT": "9"})
    assert (config.execute, config.timeout, config.min_alt_words) == (False, 9.0, 3)
    assert BookConfig.from_sources(places, {"BOOKRUN_TIMEOUT": " "}).timeout == 60.0  # unset
    with pytest.raises(ConfigError, match=r"^BOOKRUN_FROZEN: not true or false: 'maybe'$"):
        BookConfig.from_sources(places, {"BOOKRUN_FROZEN": "maybe"})
    with pytest.raises(ConfigError, match=r"^plugin: min_alt_words must be a whole number"):
        BookConfig.from_sources([("plugin", {"min_alt_words": True})], {})


def test_the_plugin_publishes_its_assets_and_the_pages_link_them(tmp_path):
    proc = build(tmp_path, "# Demo\n\n@run demo/a.py\n", {"a.py": "print(1)\n"})
    assert proc.returncode == 0, proc.stderr
    site = tmp_path / "site"
    for name in ("bookrun.css", "copy_above.js", "frames.js"):
        shipped = Path(bookrun.__file__).parent / "render" / "assets" / name
        assert (site / "assets" / "bookrun" / name).read_bytes() == shipped.read_bytes()
    html = (site / "demo" / "index.html").read_text()
    assert 'href="../assets/bookrun/bookrun.css"' in html
    assert 'src="../assets/bookrun/copy_above.js"' in html
    assert "frames.js" not in html  # only a page with an interactive figure loads it


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url, wanted, timeout=90):
    """The page's HTML once it contains `wanted` (the server rebuilds in between)."""
    deadline, html = time.monotonic() + timeout, ""
    while time.monotonic() < deadline:
        try:
            html = urllib.request.urlopen(url, timeout=timeout).read().decode()
        except OSError:
            html = ""
        if wanted in html:
            return html
        time.sleep(0.3)
    raise AssertionError(f"{url} never showed {wanted!r}; last:\n{html[-2000:]}")


def processes_of(folder) -> list[str]:
    """Running processes (not this one) whose command line names `folder`."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            words = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue  # not a process, or ended meanwhile
        if str(folder).encode() in words and state != "Z" and entry.name != str(os.getpid()):
            found.append(words.replace(b"\0", b" ").decode(errors="replace"))
    return found


def save(path, text):
    """As an editor saves: the new file replaces the old at once. Written in place, the
    server's 0.5 s poll can see the emptied file and the full one: two builds."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def test_serve_shows_a_failing_snippet_on_its_page_and_rebuilds_once_per_save(tmp_path):
    build(tmp_path, "# Demo\n\n@run demo/a.py\n\nValue {{ x }}.\n\n@run demo/b.py\n",
          {"a.py": "x = 1\nprint('v1 <b>')\n", "b.py": "y = x\n"})
    port, log = free_port(), (tmp_path / "serve.log").open("w")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    server = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"],
                              cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT)
    url, snippet = f"http://127.0.0.1:{port}/demo/", tmp_path / "snippets" / "demo" / "a.py"
    try:
        wait_for(url, "v1 &lt;b&gt;")
        save(snippet, "x = 2\nprint('v2 <i>')\nx.nope\n")
        html = wait_for(url, "This chapter failed")
        # The error, escaped, with its file, line and output so far; the old output stays.
        failed = html[html.index("This chapter failed"):][:1500]
        assert "snippets/demo/a.py:3: AttributeError" in html, failed
        assert "v2 &lt;i&gt;" in html and "<i>" not in html
        assert "v1 &lt;b&gt;" in html and "Value 1." in html
        save(snippet, "x = 3\nprint('v3')\n")
        html = wait_for(url, "v3")
        assert "This chapter failed" not in html and "Value 3." in html
        page = tmp_path / "docs" / "demo.md"
        save(page, page.read_text() + "\nA new sentence.\n")
        html = wait_for(url, "A new sentence.")
        assert "v3" in html and "Value 3." in html  # the outputs survive a prose-only rebuild
        # A page error (here an unknown option) shows on the page; the server carries on.
        good = page.read_text()
        save(page, good.replace("@run demo/a.py", "@run demo/a.py fast"))
        html = wait_for(url, "This page cannot be drawn until this is fixed")
        assert "docs/demo.md:3: unknown option &#x27;fast&#x27; after @run" in html
        save(page, good)
        html = wait_for(url, "Value 3.")
        assert "cannot be drawn" not in html
        time.sleep(2)  # time for a second, unwanted rebuild to start, if one were coming
        assert processes_of(tmp_path)  # the session kept before b.py, and its sandbox
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
    deadline = time.monotonic() + 5
    while processes_of(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_of(tmp_path) == []  # none outlives the server
    # SIGTERM stops serve as Ctrl-C does: its shutdown removed the kept sessions' folder.
    assert not (Path(tempfile.gettempdir()) / f"{SESSIONS_PREFIX}{server.pid}").exists()
    text = (tmp_path / "serve.log").read_text()
    assert text.count("Building documentation") == 6, text  # the first build and one per save
    assert "Aborted" not in text and "appear stuck" not in text


REBUILD = """\
import filecmp, shutil, sys
from mkdocs.commands.build import build
from mkdocs.config import load_config

def serve_build(first=False):
    config = load_config(site_dir="served")
    if first:  # as `mkdocs serve` does once; the plugin object then lives across rebuilds
        config.plugins.on_startup(command="serve", dirty=False)
    build(config, serve_url="http://127.0.0.1:8000/")

import markdown
from material.plugins.search.plugin import Parser

import jinja2

calls = {"convert": 0, "parse": 0, "compile": 0}
convert, feed, parse = markdown.Markdown.convert, Parser.feed, jinja2.Environment._parse

def counted_convert(self, text):
    calls["convert"] += 1
    return convert(self, text)

def counted_feed(self, data):
    calls["parse"] += 1
    return feed(self, data)

def counted_parse(self, source, name=None, filename=None):
    calls["compile"] += 1
    calls.setdefault("names", set()).add(name)
    return parse(self, source, name, filename)

markdown.Markdown.convert, Parser.feed = counted_convert, counted_feed
jinja2.Environment._parse = counted_parse
serve_build(first=True)
print("first build:", {k: calls[k] for k in ("convert", "parse", "compile")})
shutil.copytree("served", "first")
calls.update(convert=0, parse=0, compile=0, names=set())
serve_build()  # nothing changed: pages and search entries are reused
print("rebuild:", {k: calls[k] for k in ("convert", "parse")})
print("compiled again:", sorted(calls["names"]))
same = filecmp.dircmp("first", "served")
print("differ:", same.diff_files + same.left_only + same.right_only
      + [d for sub in same.subdirs.values() for d in sub.diff_files])
with open("docs/demo.md", "a") as f:
    f.write("\\nA sentence added under serve.\\n")
serve_build()
"""


def test_a_serve_rebuild_reuses_unchanged_pages_without_changing_the_site(tmp_path):
    build(tmp_path, "# Demo\n\n@run demo/a.py\n\nValue {{ x }}.\n", {"a.py": "x = 4\nprint(x)\n"})
    material = CONFIG.replace("plugins:\n", "theme:\n  name: material\nplugins:\n  - search\n")
    (tmp_path / "mkdocs.yml").write_text(material)
    proc = subprocess.run([sys.executable, "-c", REBUILD], cwd=tmp_path, capture_output=True,
                          text=True, env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    assert proc.returncode == 0, proc.stderr
    first = re.search(r"first build: \{'convert': 1, 'parse': 1, 'compile': (\d+)\}", proc.stdout)
    assert first and int(first.group(1)) > 10, proc.stdout  # Material's templates compiled
    assert "rebuild: {'convert': 0, 'parse': 0}" in proc.stdout  # nothing converted again
    # The page templates are reused; Material's search plugin reads its translations
    # through a Jinja environment of its own, which the plugin never sees.
    assert "compiled again: ['partials/language.html', 'partials/languages/en.html']" in proc.stdout
    assert "differ: []" in proc.stdout  # and the reused page and search entries are identical
    index = (tmp_path / "served" / "search" / "search_index.json").read_text()
    assert "A sentence added under serve." in index  # a changed page is indexed again
    assert "A sentence added under serve." in (tmp_path / "served" / "demo" / "index.html"
                                               ).read_text()

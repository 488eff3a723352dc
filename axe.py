import http.server, threading, functools
from playwright.sync_api import sync_playwright
from axe_playwright_python.sync_playwright import Axe
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory="/tmp/review-site")
class Quiet(handler.func):
    def log_message(self, *a): pass
srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory="/tmp/review-site"))
threading.Thread(target=srv.serve_forever, daemon=True).start()
port = srv.server_address[1]
axe = Axe()
with sync_playwright() as p:
    b = p.chromium.launch(executable_path="/usr/bin/chromium")
    for page in ("ppo", "bandits"):
        for scheme in ("light", "dark"):
            pg = b.new_page(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
            pg.goto(f"http://127.0.0.1:{port}/{page}/", timeout=30000)
            res = axe.run(pg, context=".chapter-header").response["violations"]
            print(page, scheme, [(v["id"], v["impact"], len(v["nodes"])) for v in res])
            pg.close()
    b.close()
srv.shutdown()

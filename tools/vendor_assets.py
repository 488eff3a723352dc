"""Refresh the vendored KaTeX and mermaid files from the npm registry.

    python tools/vendor_assets.py

Math and diagrams are drawn when the site is built, so the scripts that draw them
live with the build (bookrun/vendor/) and pages load neither. The site serves
only what the drawn output needs: KaTeX's stylesheet and its WOFF2 fonts
(docs/assets/vendor/katex/). Needs `npm` (only to refresh them; the committed
copies are used).
"""
import re
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "bookrun" / "markdown" / "vendor"
SITE = ROOT / "docs" / "assets" / "vendor"
KATEX = "katex@0.19.1"
MERMAID = "mermaid@11.12.2"
# package@version -> [(glob in the package folder, folder to copy the matches into)]
ASSETS = {
    KATEX: [("dist/katex.min.js", BUILD / "katex"), ("LICENSE", BUILD / "katex"),
            ("dist/katex.min.css", SITE / "katex"), ("LICENSE", SITE / "katex"),
            ("dist/fonts/*.woff2", SITE / "katex" / "fonts")],
    MERMAID: [("dist/mermaid.min.js", BUILD / "mermaid"), ("LICENSE", BUILD / "mermaid")],
}
# Every browser that runs Material reads WOFF2, so the stylesheet's WOFF and TTF
# fallbacks would only point at files the site does not ship.
FALLBACK_FONTS = re.compile(r',url\([^)]*\.(?:woff|ttf)\) format\("(?:woff|truetype)"\)')


def main():
    with tempfile.TemporaryDirectory() as tmp:
        for spec, copies in ASSETS.items():
            out = subprocess.run(["npm", "pack", spec, "--silent"], cwd=tmp, check=True,
                                 capture_output=True, text=True).stdout.split()[-1]
            with tarfile.open(Path(tmp) / out) as tar:
                tar.extractall(Path(tmp) / spec, filter="data")
            package = Path(tmp) / spec / "package"
            for pattern, target in copies:
                target.mkdir(parents=True, exist_ok=True)
                for src in sorted(package.glob(pattern)):
                    name = "LICENSE.txt" if src.name == "LICENSE" else src.name
                    if src.suffix == ".css":
                        css = FALLBACK_FONTS.sub("", src.read_text(encoding="utf-8"))
                        (target / name).write_text(css, encoding="utf-8")
                    else:
                        shutil.copy(src, target / name)
                    print(f"{spec}: {src.relative_to(package)} -> {(target / name).relative_to(ROOT)}")


if __name__ == "__main__":
    main()

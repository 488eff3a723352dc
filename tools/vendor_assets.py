"""Refresh the browser assets vendored into docs/assets/vendor from the npm registry.

    python tools/vendor_assets.py

Pages must render with no network, so MathJax and mermaid are served by the
site itself. Needs `npm` (only to refresh them; the committed copies are used).
"""
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

VENDOR = Path(__file__).resolve().parent.parent / "docs" / "assets" / "vendor"
# package@version -> files to copy (from the package folder) into vendor/<name>/
ASSETS = {
    "mathjax@3.2.2": ["es5/tex-svg.js", "LICENSE"],
    "mermaid@11.12.2": ["dist/mermaid.min.js", "LICENSE"],
}


def main():
    with tempfile.TemporaryDirectory() as tmp:
        for spec, files in ASSETS.items():
            out = subprocess.run(["npm", "pack", spec, "--silent"], cwd=tmp, check=True,
                                 capture_output=True, text=True).stdout.split()[-1]
            with tarfile.open(Path(tmp) / out) as tar:
                tar.extractall(Path(tmp) / spec, filter="data")
            target = VENDOR / spec.split("@")[0]
            target.mkdir(parents=True, exist_ok=True)
            for f in files:
                name = "LICENSE.txt" if f == "LICENSE" else Path(f).name
                shutil.copy(Path(tmp) / spec / "package" / f, target / name)
                print(f"{spec}: {f} -> {target / name}")


if __name__ == "__main__":
    main()

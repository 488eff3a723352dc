"""Where things are: the checkout, Zensical's virtualenv, and the book's chapters."""
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Zensical lives in its own virtualenv (requirements-zensical.txt); .ci/run creates it.
ZENSICAL = Path(os.environ.get("ZENSICAL", ROOT / ".venv-zensical" / "bin" / "zensical"))
# Zensical's config: mkdocs.yml with its own site_dir (Zensical has no --site-dir flag).
ZENSICAL_CONFIG = "zensical.yml"
INSTALL_ZENSICAL = ("python -m venv .venv-zensical && "
                    ".venv-zensical/bin/pip install -r requirements-zensical.txt")
# The chapters' pages in the nav's order, as URL paths of the built site. Written out,
# not read from mkdocs.yml: a chapter dropped from the nav must fail the site's tests.
CHAPTERS = ["setup", "return-and-discount", "bandits", "q-learning", "policy-gradients", "ppo",
            "rl-for-language-models"]

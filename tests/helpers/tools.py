"""Tools outside Python that some tests need: a test without one skips, saying how to
install it, except under CI, where .ci/run installs every tool and a missing one fails."""
import os

import pytest

from helpers.paths import INSTALL_ZENSICAL, ZENSICAL


def missing_tool(why: str, module: bool = False):
    """Skip (the test, or with `module` the whole module at import), saying why; under CI
    (`CI=true`), where .ci/run installs every tool, fail."""
    if os.environ.get("CI") == "true":
        pytest.fail(why, pytrace=False)
    pytest.skip(why, allow_module_level=module)


def need_zensical() -> None:
    if not ZENSICAL.exists():
        missing_tool(f"Zensical is not installed at {ZENSICAL}: {INSTALL_ZENSICAL}")

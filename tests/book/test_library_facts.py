"""What the chapters say about TRL's releases is read from those releases' own source
(issue 44, habit 4): each wheel is fetched from PyPI as a file (`pip download
--no-deps`), opened as a zip and parsed with `ast`; nothing is installed or imported.

CURRENT is the release the pages call the newest they were checked against. Moving it
to a newer release re-reads every fact there, so a change of default or a removed
module fails here, naming the fact, before the pages can say something stale."""
import ast
import re
import subprocess
import sys
import zipfile
from functools import lru_cache
from pathlib import Path

import pytest

from helpers.paths import ROOT

CURRENT = "1.16.0"  # the newest release the pages were checked against
FIRST_READ = "1.9.0"  # where the GRPO box's reading started
WHEELS = ROOT / ".cache" / "bookrun" / "wheels"  # downloaded once per machine
PAGES = {name: (ROOT / "docs" / f"{name}.md").read_text(encoding="utf-8")
         for name in ("ppo", "rl-for-language-models")}


@lru_cache(maxsize=None)
def wheel(version: str) -> zipfile.ZipFile:
    """TRL's wheel of `version`, from the cache or PyPI (as a file: not installed)."""
    WHEELS.mkdir(parents=True, exist_ok=True)
    found = sorted(WHEELS.glob(f"trl-{version}-*.whl"))
    if not found:
        done = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                               "--only-binary=:all:", f"trl=={version}", "-d", str(WHEELS)],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f"could not fetch trl=={version}: {done.stderr[-800:]}"
        found = sorted(WHEELS.glob(f"trl-{version}-*.whl"))
    return zipfile.ZipFile(found[0])


def source(version: str, path: str) -> ast.Module:
    return ast.parse(wheel(version).read(path).decode("utf-8"), filename=path)


def has_file(version: str, path: str) -> bool:
    return path in wheel(version).namelist()


def defines_class(version: str, name: str) -> bool:
    """Whether any module of the release defines `class name`."""
    z = wheel(version)
    for path in (n for n in z.namelist() if n.startswith("trl/") and n.endswith(".py")):
        text = z.read(path).decode("utf-8")
        if f"class {name}" in text and any(
                isinstance(node, ast.ClassDef) and node.name == name
                for node in ast.walk(ast.parse(text))):
            return True
    return False


def field_defaults(version: str) -> dict:
    """GRPOConfig's fields and their defaults (`x: T = field(default=...)` or `x: T = v`)."""
    tree = source(version, "trl/trainer/grpo_config.py")
    [config] = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "GRPOConfig"]
    found = {}
    for item in config.body:
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) and item.value:
            value = item.value
            if isinstance(value, ast.Call) and getattr(value.func, "id", "") == "field":
                value = next((k.value for k in value.keywords if k.arg == "default"), None)
            if value is not None:
                try:
                    found[item.target.id] = ast.literal_eval(value)
                except ValueError:
                    pass  # a default built by a call: not one the pages state
    return found


@pytest.mark.parametrize("version", [FIRST_READ, CURRENT])
def test_the_grpo_defaults_the_box_lists_are_the_releases(version):
    defaults = field_defaults(version)
    assert {k: defaults.get(k) for k in ("num_generations", "beta", "scale_rewards",
                                         "loss_type")} == {
        "num_generations": 8, "beta": 0.0, "scale_rewards": "group", "loss_type": "dapo"}


@pytest.mark.parametrize("version", [FIRST_READ, CURRENT])
def test_grpo_divides_by_trls_own_nanstd_plus_1e_4(version):
    tree = source(version, "trl/trainer/grpo_trainer.py")
    calls = {getattr(n.func, "id", getattr(n.func, "attr", "")) for n in ast.walk(tree)
             if isinstance(n, ast.Call)}
    assert "nanstd" in calls
    added = [n for n in ast.walk(tree) if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add)
             and isinstance(n.right, ast.Constant) and n.right.value == 1e-4]
    assert any(isinstance(d, ast.BinOp) and isinstance(d.op, ast.Div) and d.right in added
               for d in ast.walk(tree))


def test_the_ppo_trainer_moved_lost_its_shims_and_was_removed_as_the_box_says():
    assert not has_file("0.25.1", "trl/experimental/ppo/__init__.py")
    assert has_file("0.26.0", "trl/experimental/ppo/__init__.py")  # moved in 0.26
    for shim in ("trl/trainer/ppo_trainer.py", "trl/trainer/ppo_config.py"):
        assert has_file("0.28.0", shim) and not has_file("0.29.0", shim)
    assert has_file("0.29.0", "trl/trainer/__init__.py")  # the module itself stays
    assert defines_class("1.12.0", "PPOTrainer")  # the last release that has it
    assert not defines_class("1.13.0", "PPOTrainer")
    assert not defines_class(CURRENT, "PPOTrainer")


def test_the_pages_name_the_releases_read_here():
    llm, ppo = PAGES["rl-for-language-models"], PAGES["ppo"]
    assert f"from TRL {FIRST_READ} to {CURRENT}" in llm
    assert f"checked again in {CURRENT}, the newest" in re.sub(r"\s+", " ", llm)
    said = re.sub(r"\s+", " ", ppo)
    assert "moved that trainer to `trl.experimental.ppo` in 0.26" in said
    assert "in 1.13.0 it removed the trainer itself, so 1.12.0 is the last release" in said

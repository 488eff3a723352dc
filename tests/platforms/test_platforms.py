"""The book on another CPU's floating-point paths, simulated on this one.

Environment variables make torch, NumPy and OpenBLAS take the portable kernels a
different CPU (an ARM laptop, an AVX-512 runner) would: the check and every chapter
test must still pass there, and a changed constant must still fail it.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

from bookrun.store.book import Book

ROOT = Path(__file__).resolve().parents[2]
# torch without AVX2, NumPy on its baseline loops, OpenBLAS on an old core. NumPy 2.4
# names its dispatch targets (X86_V3 is AVX2+FMA3+F16C); it ignores, with an
# ImportWarning, the feature names "AVX2 FMA3 F16C AVX" that older releases took.
PORTABLE = {"ATEN_CPU_CAPABILITY": "default",
            "NPY_DISABLE_CPU_FEATURES": "X86_V3 X86_V4 AVX512_ICL AVX512_SPR",
            "OPENBLAS_CORETYPE": "Prescott"}
FINGERPRINT = ("import numpy, torch, json; from pathlib import Path; "
               "from bookrun.config import load; from bookrun.execute.worker.loop import platform_fingerprint; "
               "print(json.dumps(platform_fingerprint(load(Path('.'))[0].fingerprint)))")


def run(args, extra_env, **kw):
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", **extra_env)
    return subprocess.run(args, cwd=kw.pop("cwd", ROOT), env=env, capture_output=True,
                          text=True, **kw)


def test_the_settings_really_change_the_kernels():
    native = run([sys.executable, "-c", FINGERPRINT], {}).stdout
    portable = run([sys.executable, "-c", FINGERPRINT], PORTABLE).stdout
    assert '"torch_cpu": "DEFAULT"' in portable and '"numpy_simd": []' in portable
    assert '"openblas Haswell"' not in portable  # Prescott's kernels (OpenBLAS: Katmai)
    assert native != portable


def test_check_and_chapter_findings_pass_on_portable_kernels():
    """`python -m pytest` of the check and every chapter test, on the other kernels."""
    # Only what floating point decides: the engine, page and browser tests would repeat
    # themselves unchanged (and took most of this test's time when they ran here).
    chapters = [c.name for c in Book(root=ROOT).chapters() if c.name != "home"]
    tests = ["tests/book/test_book.py::test_every_chapter_matches_its_record",
             *(f"tests/book/test_{name}.py" for name in chapters)]
    assert all((ROOT / t).is_file() for t in tests[1:]), tests
    proc = run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests],
               PORTABLE, timeout=1800)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]


def test_a_changed_constant_fails_the_check_on_both_kernels(tmp_path, monkeypatch):
    copy = tmp_path / "book"
    for part in ("docs", "snippets"):
        shutil.copytree(ROOT / part, copy / part)
    shutil.copy(ROOT / "matplotlibrc", copy / "matplotlibrc")  # part of the stamp
    snippet = copy / "snippets" / "setup" / "bellman_solve.py"
    text = snippet.read_text()
    assert text.count("1e-14") == 2  # the bound the residual is printed against
    snippet.write_text(text.replace("1e-14", "1e-20"))
    book = Book(root=copy)
    book.log = lambda msg: None
    for env in ({}, PORTABLE):
        for name, value in env.items():
            monkeypatch.setenv(name, value)  # the session inherits them
        problems = book.check([book.chapter("setup")]).problems
        assert problems[0].startswith("snippets/setup/_record.json: stale")
        assert any(p.startswith("snippets/setup/bellman_solve.py: output differs")
                   for p in problems)

"""Run every benchmark in this folder, one after another, and print their figures.

    python benchmarks/run.py

Each benchmark measures its baseline in the same run and prints ratios, so the
figures compare like with like on whatever machine runs them.
"""
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

for script in sorted(HERE.glob("bench_*.py")):
    print(f"== {script.name}", flush=True)
    subprocess.run([sys.executable, str(script)], cwd=HERE.parent, check=True)

"""Time the bandit comparison of docs/bandits.md two ways.

Vectorised: the chapter's own snippets (snippets/bandits/*.py, executed here,
not copied), which simulate 7 strategies x 400 runs x 20,000 visitors with one
numpy step per visitor. Loop: a straightforward pure-Python version of the same
experiment, one visitor and one run at a time with the `random` module. The
loop is slow, so it runs on a subset of runs and its time is scaled per run.

Run from the project root:  python benchmarks/bench_bandits.py [loop_runs]
"""
import contextlib
import io
import math
import random
import sys
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
SNIPPETS = Path(__file__).resolve().parent.parent / "snippets" / "bandits"
SETUP = ["signup_pages", "simulate", "pilot_then_commit", "epsilon_greedy", "ucb",
         "thompson_sampling"]
RUNS, HORIZONS = 400, (2_000, 20_000)


def run_snippet(name, namespace):
    code = compile((SNIPPETS / f"{name}.py").read_text(), f"{name}.py", "exec")
    with contextlib.redirect_stdout(io.StringIO()):
        exec(code, namespace)


# --- the pure-Python loop version -------------------------------------------
RATES = [0.05, 0.07, 0.10]
BEST = max(RATES)


def argmax(values):
    return max(range(len(values)), key=values.__getitem__)


def play(strategy, param, horizon, rnd):
    """One run of one strategy; returns {horizon: (regret, most-shown page)}."""
    n = [0.0, 0.0, 0.0]
    s = [1e-9 * rnd.random() for _ in range(3)]  # random tie-break, as in numpy
    lost, out, verdict = 0.0, {}, None
    for t in range(horizon):
        if strategy == "pilot":
            if t < 3 * param:
                a = t % 3
            else:
                if verdict is None:
                    verdict = argmax([s[k] / n[k] for k in range(3)])
                a = verdict
        elif strategy == "eps":
            if rnd.random() < param:
                a = rnd.randrange(3)
            else:
                a = argmax([s[k] / max(n[k], 1) for k in range(3)])
        elif strategy == "ucb":
            log_t = math.log(t + 1)
            a = argmax([s[k] / max(n[k], 1e-12)
                        + math.sqrt(param * log_t / max(n[k], 1e-12))
                        for k in range(3)])
        else:  # thompson
            a = argmax([rnd.betavariate(1 + s[k], 1 + n[k] - s[k]) for k in range(3)])
        n[a] += 1
        if rnd.random() < RATES[a]:
            s[a] += 1
        lost += BEST - RATES[a]
        if t + 1 in HORIZONS:
            out[t + 1] = (lost, argmax(n))
    return out


def loop_comparison(runs, strategies):
    rnd = random.Random(0)
    table = {}
    for name, (strategy, param) in strategies.items():
        results = [play(strategy, param, max(HORIZONS), rnd) for _ in range(runs)]
        table[name] = {h: (sum(r[h][0] for r in results) / runs,
                           sum(r[h][1] != 2 for r in results) / runs)
                       for h in HORIZONS}
    return table


def main():
    loop_runs = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    ns = {"__name__": "bandits"}
    for name in SETUP:
        run_snippet(name, ns)
    t0, c0 = time.perf_counter(), time.process_time()
    run_snippet("compare_strategies", ns)  # the whole comparison, as on the page
    vec_wall, vec_cpu = time.perf_counter() - t0, time.process_time() - c0
    strategies = {"pilot, 50 per page": ("pilot", 50),
                  "pilot, 300 per page": ("pilot", 300),
                  "eps-greedy 0.1": ("eps", 0.1), "eps-greedy 0.01": ("eps", 0.01),
                  "UCB c = 2": ("ucb", 2.0), ns["TUNED"]: ("ucb", ns["C_TUNED"]),
                  "Thompson": ("thompson", None)}
    t0, c0 = time.perf_counter(), time.process_time()
    table = loop_comparison(loop_runs, strategies)
    scale = RUNS / loop_runs
    loop_wall = (time.perf_counter() - t0) * scale
    loop_cpu = (time.process_time() - c0) * scale
    print("Bandit comparison: 7 strategies x 400 runs x 20,000 visitors "
          "(regret read at 2,000 and 20,000)")
    print(f"vectorised seconds (snippets, 400 runs):      {vec_wall:8.2f}"
          f"   (CPU {vec_cpu:.2f})")
    print(f"loop seconds ({loop_runs} runs timed, x{scale:g} per run): {loop_wall:8.2f}"
          f"   (CPU {loop_cpu:.2f})")
    print(f"ratio loop / vectorised:                      {loop_wall / vec_wall:8.1f}"
          f"   (CPU {loop_cpu / vec_cpu:.1f})")
    print(f"\nsign-ups lost at 20,000 (vectorised 400 runs | loop {loop_runs} runs):")
    for name in strategies:
        vec, loop = ns["lost"][name, 20_000], table[name][20_000][0]
        print(f"  {name:21s} {vec:7.1f} | {loop:7.1f}")


if __name__ == "__main__":
    main()

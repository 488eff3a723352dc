"""Cart-pole REINFORCE: one environment at a time versus the chapter's batched version.

Run from the project root:  python benchmarks/bench_policy_gradients.py

The loop version is the straightforward one: Python floats and `math` for the
physics, the torch policy called once per step, one episode per Adam update.
The batched version is the chapter's own `train_reinforce`, loaded from
snippets/policy_gradients/ (not copied), which steps every episode of every
seed in lockstep. Prints seconds, not pass/fail.
"""
import contextlib
import io
import math
import time
from pathlib import Path

import torch

SNIPPETS = Path(__file__).resolve().parent.parent / "snippets" / "policy_gradients"
CHAPTER_CODE = ["cartpole_env.py", "batched_policy.py", "rollout.py",
                "reward_to_go.py", "reinforce_cartpole.py"]
LOOP_EPISODES = 40  # the loop version is slow: time this many, then scale


def load_chapter():
    ns = {}
    with contextlib.redirect_stdout(io.StringIO()):  # the snippets print examples
        for name in CHAPTER_CODE:
            path = SNIPPETS / name
            exec(compile(path.read_text(), str(path), "exec"), ns)
    return ns


def loop_step(state, push_right, c):
    """The same equations as cartpole_step, on four Python floats."""
    x, x_dot, th, th_dot = state
    force = c["FORCE"] if push_right else -c["FORCE"]
    cos, sin = math.cos(th), math.sin(th)
    pole_ml = c["POLE_MASS"] * c["HALF_LENGTH"]
    temp = (force + pole_ml * th_dot**2 * sin) / c["TOTAL_MASS"]
    th_acc = (c["GRAVITY"] * sin - cos * temp) / (
        c["HALF_LENGTH"] * (4 / 3 - c["POLE_MASS"] * cos**2 / c["TOTAL_MASS"]))
    x_acc = temp - pole_ml * th_acc * cos / c["TOTAL_MASS"]
    dt = c["DT"]
    new = (x + dt * x_dot, x_dot + dt * x_acc, th + dt * th_dot, th_dot + dt * th_acc)
    fallen = abs(new[0]) > c["X_LIMIT"] or abs(new[2]) > c["ANGLE_LIMIT"]
    return new, fallen


def loop_reinforce(ns, episodes, seed=0, lr=0.02, gamma=0.99):
    """One episode at a time, one network call per step. Returns total env steps."""
    params = ns["init_policies"]([seed])
    opt = torch.optim.Adam(params, lr=lr)
    gen = torch.Generator().manual_seed(seed)
    steps = 0
    for _ in range(episodes):
        start = torch.rand(4, generator=gen, dtype=torch.float64) * 0.1 - 0.05
        state = tuple(start.tolist())
        log_probs = []
        for t in range(ns["MAX_STEPS"]):
            s = torch.tensor(state, dtype=torch.float64).view(1, 1, 4)
            logp = torch.log_softmax(ns["policy_logits"](params, s)[0, 0], -1)
            a = int(torch.multinomial(logp.exp(), 1, generator=gen))
            log_probs.append(logp[a])
            state, fallen = loop_step(state, a == 1, ns)
            if fallen:
                break
        steps += len(log_probs)
        returns, g = [], 0.0
        for _ in log_probs:
            g = 1.0 + gamma * g
            returns.append(g)
        returns = torch.tensor(returns[::-1], dtype=torch.float64)
        loss = -(torch.stack(log_probs) * returns).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return steps


def main():
    torch.set_num_threads(1)
    ns = load_chapter()
    loop_reinforce(ns, 2)  # warm-up: first-use imports of torch.optim are not timed

    t0 = time.perf_counter()
    loop_steps = loop_reinforce(ns, LOOP_EPISODES)
    loop_s = time.perf_counter() - t0
    per_step = loop_s / loop_steps

    seeds = [0, 1, 2, 3, 4, 5]
    t0 = time.perf_counter()
    lengths, _ = ns["train_reinforce"](seeds * 2, [False] * 6 + [True] * 6, lr=0.02)
    study_s = time.perf_counter() - t0
    n_runs, episodes = lengths.shape
    steps_per_run = lengths.sum() / n_runs

    t0 = time.perf_counter()
    ns["train_reinforce"]([0], [False], lr=0.02)
    single_s = time.perf_counter() - t0

    loop_run_steps = per_step * steps_per_run
    loop_run_episodes = loop_s / LOOP_EPISODES * episodes
    batched_run = study_s / n_runs
    print(f"loop version: {LOOP_EPISODES} episodes, {loop_steps} env steps in "
          f"{loop_s:.2f} s ({per_step * 1e3:.3f} ms per step)")
    print(f"  scaled to one {episodes}-episode run of the study's average length "
          f"({steps_per_run:.0f} env steps): {loop_run_steps:.1f} s per run")
    print(f"  scaled per episode instead (early episodes are short, so this "
          f"understates the loop): {loop_run_episodes:.1f} s per run")
    print(f"batched version: whole study, {n_runs} runs x {episodes} episodes in one "
          f"call: {study_s:.2f} s, {batched_run:.2f} s per run")
    print(f"batched version, a single run on its own: {single_s:.2f} s")
    print(f"per-run ratio, loop / batched study: {loop_run_steps / batched_run:.0f}x "
          f"(per-step scaling), {loop_run_episodes / batched_run:.1f}x (per-episode)")


if __name__ == "__main__":
    main()

import math

VARIANTS = {   # name: (critic, epochs, clip eps, kl_stop, norm_adv)
    "REINFORCE":      (False, 1, math.inf, math.inf, True),
    "actor-critic":   (True, 1, math.inf, math.inf, True),
    "PPO":            (True, 4, 0.2, 0.02, True),
    "PPO, no brakes": (True, 4, math.inf, math.inf, True),
}


def train(variants, seeds=4, iters=30, envs=6, lr=3e-3, seed=0, optimiser=Adam):
    """Train seeds x variants agents side by side; returns (iters, variants, seeds)."""
    rows = [v for v in variants.values() for _ in range(seeds)]
    # a sixth entry, minibatches, is optional: zip stops at the shorter side
    cfg = dict(zip(("critic", "epochs", "clip", "kl_stop", "norm_adv", "minibatches"),
                   map(list, zip(*rows))))
    cfg["critic"], cfg["norm_adv"] = np.array(cfg["critic"]), cfg["norm_adv"]
    rng = np.random.default_rng(seed)
    agents = Agents(len(rows), seed)
    opt = optimiser(agents, lr)
    env = CartPoles((len(rows), envs), rng)
    log = {k: [] for k in ("adv_std", "on", "kl", "clipfrac", "frozen", "gnorm",
                           "entropy")}
    lengths = []
    for _ in range(iters):
        b = collect(env, agents, rng)
        lengths.append(b["mask"].sum(1).mean(1))   # mean episode length per agent
        update(agents, opt, b, cfg, rng, log)
    return np.array(lengths).reshape(iters, len(variants), seeds), log


lengths, log = train(VARIANTS)
final = lengths[-5:].mean(0)                       # last 5 rounds, per seed
best_so_far = np.maximum.accumulate(lengths, axis=0)
fall = (best_so_far - lengths).max(0)              # deepest drop below an earlier best
print(f"mean episode length over the last 5 of {len(lengths)} rounds (max 200)")
print(f"{'':15s}  mean +-    sd   per seed            deepest fall")
for name, per_seed, drop in zip(VARIANTS, final, fall):
    print(f"{name:15s} {per_seed.mean():5.1f} +- {per_seed.std(ddof=1):5.1f}  ",
          " ".join(f"{x:4.0f}" for x in per_seed), f"  {drop.max():5.0f}")

j, k = np.unravel_index(fall.argmax(), fall.shape)  # the worst collapse of all
t = (best_so_far[:, j, k] - lengths[:, j, k]).argmax()
collapse = dict(variant=list(VARIANTS)[j], before=best_so_far[t, j, k],
                after=lengths[t, j, k], round=t + 1)
print("worst collapse: {variant}, from {before:.0f} to {after:.0f} "
      "in round {round}".format(**collapse))

# One knob at a time around the raced PPO (clip 0.2, 4 epochs, 4 minibatches,
# KL stop 0.02). The seven settings and their seeds train side by side in one
# batched run. Eight rounds, not the race's 30, keep the chapter fast: this
# measures how fast each setting learns, not where it ends up.
SWEEP = {"as raced": (0.2, 4, 4),
         "clip 0.1": (0.1, 4, 4), "clip 0.3": (0.3, 4, 4),
         "2 epochs": (0.2, 2, 4), "8 epochs": (0.2, 8, 4),
         "2 minibatches": (0.2, 4, 2), "8 minibatches": (0.2, 4, 8)}
rounds = 8
sweep, sweep_log = train({name: (True, epochs, clip, 0.02, True, mb)
                          for name, (clip, epochs, mb) in SWEEP.items()},
                         iters=rounds, seed=2)
swept = dict(zip(SWEEP, sweep[-5:].mean(0)))   # per seed, last 5 rounds as raced
# gradient steps each agent took per round, since the KL stop can end it early
went = np.array(sweep_log["on"]).reshape(rounds, -1, len(SWEEP), 4)
steps_taken = dict(zip(SWEEP, went.sum(1).mean((0, 2))))
print(f"mean episode length over rounds {rounds - 4} to {rounds} (max 200)")
print(f"{'setting':14s}  mean +-   sd   per seed         steps per round")
for name, (clip, epochs, mb) in SWEEP.items():
    row = swept[name]
    print(f"{name:14s} {row.mean():5.1f} +- {row.std(ddof=1):4.1f}  ",
          " ".join(f"{x:4.0f}" for x in row),
          f"  {steps_taken[name]:4.1f} of {epochs * mb:2d}")

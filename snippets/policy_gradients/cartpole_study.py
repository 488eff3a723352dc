import matplotlib.pyplot as plt

SEEDS = [0, 1, 2, 3, 4, 5]
# one batched call: six seeds without a baseline, the same six with one
lengths, _ = train_reinforce(SEEDS * 2, [False] * 6 + [True] * 6, lr=0.02)
smooth = np.array([np.convolve(run, np.ones(50) / 50, "valid") for run in lengths])
first, peak, last = lengths[:, :50].mean(1), smooth.max(1), lengths[:, -50:].mean(1)
print("baseline  seed  first 50  best 50 in a row  last 50   (mean episode length)")
for i in range(12):
    print(f"{str(i >= 6):8s} {SEEDS[i % 6]:5d} {first[i]:9.1f} {peak[i]:17.1f} "
          f"{last[i]:8.1f}")

# a run "collapsed" if it averaged over 300 steps for 50 episodes, then lost half
collapsed = [i for i in range(12) if peak[i] > 300 and last[i] < peak[i] / 2]
print("collapsed runs:", [(bool(i >= 6), SEEDS[i % 6]) for i in collapsed])

# -- drawing the figure --
fig, axes = plt.subplots(1, 2, figsize=(8, 3.5), sharey=True)
for ax, offset, title in zip(axes, (0, 6), ("no baseline", "leave-one-out baseline")):
    for k, seed in enumerate(SEEDS):
        _ = ax.plot(np.arange(50, 401), smooth[offset + k], lw=1, label=f"seed {seed}")
    _ = ax.set(xlabel="episode (end of the 50-episode window)", title=title)

_ = axes[0].set_ylabel("episode length, mean of 50")
_ = axes[1].legend(fontsize=9, ncol=2, loc="upper left")
plt.tight_layout()
plt.show()

fig, ax = plt.subplots(figsize=(7, 3.5))
episode = np.arange(1, EPISODES_AB + 1)
for name, share in left_share.items():
    mean, std = share.mean(0), share.std(0)
    line, = ax.plot(episode, mean, label=name)
    _ = ax.fill_between(episode, mean - std, mean + std, color=line.get_color(),
                        alpha=0.3, lw=0)

_ = ax.axhline(EPS_AB / 2, color="k", ls=":", lw=1, label=r"optimal, $\varepsilon/2$")
_ = ax.set_xlabel("episode")
_ = ax.set_ylabel("share of runs going left from A")
_ = ax.set_ylim(0, 1)
_ = ax.set_title(f"Maximisation bias: {SEEDS_AB} groups of {RUNS_AB:,} runs")
_ = ax.legend(loc="upper right")
fig.tight_layout()
plt.show()
peak = {name: (share.mean(0).max(), share.mean(0).argmax() + 1)
        for name, share in left_share.items()}
for name, (top, at) in peak.items():
    print(f"{name}: episode 1 {left_share[name][:, 0].mean():.3f}, peak "
          f"{top:.3f} (episode {at}), last 100: "
          f"{left_share[name][:, -100:].mean():.3f}")

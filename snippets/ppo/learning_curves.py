def plot_learning_curves():
    fig, ax = plt.subplots(figsize=(7, 3.6))
    rounds = np.arange(1, len(lengths) + 1)
    for j, name in enumerate(VARIANTS):
        runs_j = lengths[:, j]
        ax.plot(rounds, runs_j.mean(1), color=f"C{j}", label=name)
        ax.fill_between(rounds, runs_j.min(1), runs_j.max(1), color=f"C{j}",
                        alpha=0.15)
    ax.set_xlabel("round (6 fresh episodes per agent each round)")
    ax.set_ylabel("mean episode length")
    ax.set_title("Cart-pole, 4 seeds each: mean (line) and min-max over seeds (band)")
    ax.set_ylim(0, 265)          # headroom above 200 keeps the legend off the data
    ax.legend(fontsize=9, loc="upper left", ncol=2)
    plt.tight_layout()
    plt.show()


plot_learning_curves()

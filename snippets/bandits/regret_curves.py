import matplotlib.pyplot as plt


def plot_regret(regret, names, every=100):
    thousands = np.arange(1, len(regret) + 1) * every / 1_000  # snapshot times
    fig, axes = plt.subplots(1, 2, figsize=(7, 3.5), sharey=True)
    # fixed exploration on the left, exploration that follows the data on the right
    for i, name in enumerate(names):
        ax = axes[0] if name.startswith(("pilot", "eps")) else axes[1]
        ax.plot(thousands, regret[:, i].mean(axis=1), label=name)
    axes[0].set_title("pilots and ε-greedy", fontsize=10)
    axes[1].set_title("UCB and Thompson", fontsize=10)
    axes[0].set_ylabel("sign-ups lost (mean of runs)")
    for ax in axes:
        ax.set_xlabel("visitors so far (thousands)")
        ax.legend(fontsize=9, loc="upper left")
    fig.suptitle("Regret over time: straight lines never stop paying", fontsize=11)
    fig.tight_layout()


plot_regret(regret, NAMES)
plt.show()

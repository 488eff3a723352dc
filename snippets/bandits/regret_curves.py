import matplotlib.pyplot as plt


def plot_regret(regret, names, every=100):
    visitors = np.arange(1, len(regret) + 1) * every  # snapshot times
    fig, ax = plt.subplots(figsize=(7, 3.5))
    for i, name in enumerate(names):
        style = "--" if name.startswith("pilot") else "-"
        ax.plot(visitors, regret[:, i].mean(axis=1), style, lw=1.5, label=name)
    ax.set_xlabel("visitors so far")
    ax.set_ylabel("sign-ups lost (mean of runs)")
    ax.set_title("Regret over time: straight lines never stop paying")
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()


plot_regret(regret, NAMES)
plt.show()

import matplotlib.pyplot as plt

# a phone shrinks each figure to its screen width: draw small, write large
plt.rcParams["font.size"] = 11

def plot_corridor_visits():
    """Bars: simulated visits per episode; dots: the exact expectation."""
    squares = np.arange(1, 8)
    fig, ax = plt.subplots(figsize=(6, 3.6), layout="constrained")
    for k, p in enumerate(P_RIGHTS):
        x = squares + (k - 1) * 0.27
        ax.bar(x, visits_per_episode[p][1:-1], width=0.27, label=f"p(right) = {p}")
        ax.plot(x, exact_visits[p], "k.", markersize=5)
    ax.set_xticks(range(0, 9))
    ax.set_xticklabels(["0.1\nend"] + [str(s) for s in squares] + ["1.0\nend"])
    ax.set_xlabel("square (both ends stop the episode)")
    ax.set_ylabel("visits per episode")
    ax.set_title("Where each policy spends its time (dots: exact)")
    ax.legend(frameon=False)
    plt.show()

plot_corridor_visits()

import matplotlib.pyplot as plt


def plot_clip_objective(eps=0.2):
    grid = np.linspace(0.4, 1.8, 141)
    fig, axes = plt.subplots(1, 2, figsize=(7, 3.2), sharex=True)
    for ax, adv in zip(axes, (+1.0, -1.0)):
        ax.plot(grid, grid * adv, "--", color="gray", lw=1, label="raw  rho*A")
        ax.plot(grid, ppo_term(grid, adv, eps), color="C1", lw=2, label="PPO  min(...)")
        flat = (grid > 1 + eps) if adv > 0 else (grid < 1 - eps)
        ax.fill_between(grid, -2, 2, where=flat, color="C4", alpha=0.15, lw=0,
                        label="zero gradient")
        ax.set_ylim(-1.9, 1.9)
        ax.set_xlabel("ratio rho = pi_new / pi_old")
        ax.set_title(f"advantage A = {adv:+.0f}")
    axes[0].set_ylabel("per-sample objective")
    # the right panel's upper right is empty for A = -1: room for the legend
    axes[1].legend(fontsize=9, loc="upper right")
    plt.tight_layout()
    plt.show()


plot_clip_objective()

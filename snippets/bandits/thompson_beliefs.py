import math

import matplotlib.pyplot as plt


def beta_pdf(x, a, b):
    log_norm = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    return np.exp(log_norm + (a - 1) * np.log(x) + (b - 1) * np.log1p(-x))


def plot_beliefs(snapshots):
    x = np.linspace(0.001, 0.3, 300)
    fig, axes = plt.subplots(1, len(snapshots), figsize=(7, 3.5), sharey=True)
    for ax, (title, signups, shown) in zip(axes, snapshots):
        for p, k, m in zip("ABC", signups, shown):
            ax.plot(x, beta_pdf(x, 1 + k, 1 + m - k), lw=1.5, label=f"{p}: {k}/{m}")
        ax.set_xlabel("sign-up rate")
        ax.set_title(title)
        ax.legend(fontsize=9)
    axes[0].set_ylabel("belief (density)")
    fig.tight_layout()


later_signups, later_shown = np.array([20, 60, 70]), np.array([600, 600, 600])
plot_beliefs([("after 60 visitors each", signups, shown),
              ("after 600 visitors each", later_signups, later_shown)])
plt.show()
share_later = chance_shown(later_signups, later_shown)
print("chance shown after 600 each:",
      ", ".join(f"{p} {q:.3f}" for p, q in zip("ABC", share_later)))

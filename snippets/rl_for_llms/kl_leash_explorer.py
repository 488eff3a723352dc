import matplotlib.pyplot as plt

# five replies; the best one (reward 3) is one the reference model never writes
leash_r = np.array([0.0, 0.5, 1.0, 2.0, 3.0])
leash_ref = np.array([0.4, 0.3, 0.2, 0.1, 0.0])
leash_betas = np.logspace(1, -2, 61)  # the traced curves: beta from 10 down to 0.01


def kl_stats(beta):
    """pi*, its expected reward and its KL from the reference, at this beta."""
    p, _ = kl_optimum(leash_ref, leash_r, beta)
    return p, float(p @ leash_r), kl(p, leash_ref)


leash_curves = np.array([kl_stats(b)[1:] for b in leash_betas])


def kl_leash_frame(beta=1.0):
    p, mean_r, div = kl_stats(beta)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 3.6))
    x = np.arange(len(leash_r))
    _ = ax1.bar(x - 0.2, leash_ref, 0.4, label=r"$\pi_{\mathrm{ref}}$", color="C4", hatch="//")
    _ = ax1.bar(x + 0.2, p, 0.4, label=r"$\pi^*$", color="C0")
    ticks = [f"r={v:g}\nref {q:g}" for v, q in zip(leash_r, leash_ref)]
    _ = ax1.set(xticks=x, xticklabels=ticks, ylim=(0, 1.05), ylabel="probability",
                title=rf"$\beta$ = {beta:g}")
    _ = ax1.legend(loc="upper left")
    _ = ax2.plot(leash_betas, leash_curves[:, 0], label=r"$\mathbb{E}_{\pi^*}[r]$")
    _ = ax2.plot(leash_betas, leash_curves[:, 1], label=r"$\mathrm{KL}(\pi^*\,\Vert\,\pi_{\mathrm{ref}})$")
    _ = ax2.plot([beta, beta], [mean_r, div], "ko", ms=7)
    _ = ax2.axvline(beta, color="grey", lw=0.8)
    _ = ax2.set(xscale="log", xlim=(12, 0.008), ylim=(0, 2.4),
                xlabel=r"$\beta$ (the leash loosens to the right)", title=r"along $\beta$")
    _ = ax2.legend(loc="lower right")
    fig.subplots_adjust(left=0.08, right=0.98, bottom=0.2, top=0.9, wspace=0.2)
    shares = ", ".join(f"{q:.2f}" for q in p)
    print(f"beta = {beta:g}: pi* = ({shares}), E[r] = {mean_r:.3f}, KL = {div:.3f}")
    plt.show()


kl_leash_frame()

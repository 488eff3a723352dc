import math
import matplotlib.pyplot as plt


def clip_frame(rho=1.0, advantage=1, eps=0.2):
    grid = np.linspace(0.45, 2.05, 161)
    flat = (grid > 1 + eps) if advantage > 0 else (grid < 1 - eps)
    slopes = np.where(flat, 0.0, float(advantage))
    value = ppo_term(rho, advantage, eps)
    edge = 1 + eps if advantage > 0 else 1 - eps
    if math.isclose(rho, edge):
        slope = "undefined (the kink)"
    elif (rho > edge) == (advantage > 0):
        slope = "0 (clipped: no gradient)"
    else:
        slope = f"{advantage:+d}"
    fig, (left, right) = plt.subplots(1, 2, figsize=(7, 3.2), sharex=True)
    for ax in (left, right):
        # the flat side is shaded in both panels; fixed limits keep the axes still
        ax.axvspan(*((1 + eps, 2.05) if advantage > 0 else (0.45, 1 - eps)),
                   color="C4", alpha=0.15, lw=0, label="zero gradient")
        ax.axvline(rho, color="gray", lw=1, ls=":")
        ax.set_xlim(0.45, 2.05)
        ax.set_xlabel("ratio ρ")
    _ = left.plot(grid, grid * advantage, "--", color="gray", lw=1, label="raw ρÂ")
    _ = left.plot(grid, ppo_term(grid, advantage, eps), "-", color="C1", label="PPO")
    _ = left.plot([rho], [value], "o", color="black")
    left.set_ylim(-2.2, 2.2)
    left.set_ylabel("per-sample objective")
    left.set_title(f"Â = {advantage:+d}, ε = {eps:.1f}")
    # the corner the curves leave empty
    left.legend(fontsize=9, loc="lower right" if advantage > 0 else "upper right")
    _ = right.step(grid, slopes, where="mid", color="C1")
    _ = right.plot([rho], [np.interp(rho, grid, slopes)], "o", color="black")
    right.set_ylim(-1.4, 1.4)
    right.set_title("slope d objective / dρ")
    # fixed margins, not tight_layout: every frame keeps the same axes, and drawing
    # 186 frames does not lay each one out twice
    fig.subplots_adjust(left=0.1, right=0.98, bottom=0.16, top=0.9, wspace=0.28)
    print(f"ρ = {rho:.2f}, Â = {advantage:+d}, ε = {eps:.1f}: objective {value:+.2f}, "
          f"slope {slope}")
    plt.show()


clip_frame()

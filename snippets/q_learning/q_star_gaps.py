import matplotlib.pyplot as plt

GLYPH = "↑→↓←"

def draw_board(ax, values, policy=None, title="", fmt="{:.2f}", cmap="YlGn", top=1.4):
    """Colour each square by a value; print the value and the policy's arrow."""
    grid = np.where(DECIDE, values, np.nan).reshape(4, 4)
    im = ax.imshow(grid, cmap=cmap, vmin=0, vmax=top)
    for s in range(N_S):
        row, col = divmod(s, 4)
        label = fmt.format(values[s]) if DECIDE[s] else CELLS[s]
        if DECIDE[s] and policy is not None:
            label = GLYPH[policy[s]] + "\n" + label
        ax.text(col, row, label, ha="center", va="center", fontsize=10)
    ax.set_xticks(range(4))
    ax.set_yticks(range(4))
    ax.set_xlabel("column")
    ax.set_ylabel("row")
    ax.set_title(title)
    return im

Q_star = backup(V_star)
top2 = np.sort(Q_star, axis=1)[:, -2:]
gap = top2[:, 1] - top2[:, 0]                  # best action minus the runner-up
fig, axes = plt.subplots(1, 2, figsize=(7, 3.5))
_ = draw_board(axes[0], V_star, pi_star, "V* and the optimal policy")
_ = draw_board(axes[1], gap, None, "Q* gap: best - second best", "{:.3f}",
               "YlOrRd_r", 0.15)
plt.show()

# Q* needs the model once (to build it); acting on it needs no model at all.
for s in (START, 3, 8):
    row = "  ".join(f"{ARROWS[a]} {Q_star[s, a]:+.3f}" for a in range(N_A))
    print(f"square {s:2d}: {row}   -> {ARROWS[Q_star[s].argmax()]}")

print("V* = max_a Q*:", np.allclose(Q_star.max(axis=1)[DECIDE], V_star[DECIDE]))
print(f"smallest gap between the two best actions: {gap[DECIDE].min():.4f}"
      f" on square {np.flatnonzero(DECIDE)[gap[DECIDE].argmin()]}")

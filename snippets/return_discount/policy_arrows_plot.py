import matplotlib.pyplot as plt

def draw_policy(ax, pi, title):
    """The ledge as coloured squares, with the chosen move of each live square."""
    colour = {"P": "#e06666", "G": "#6aa84f", "S": "#cfe2f3", ".": "white"}
    for s, c in enumerate(cells):
        r, col = divmod(s, COLS)
        ax.add_patch(plt.Rectangle((col - 0.5, r - 0.5), 1, 1, fc=colour[c], ec="grey"))
        if terminal[s]:
            _ = ax.text(col, r, c, ha="center", va="center", fontsize=12)
        else:
            dr, dc = MOVES[pi[s]]
            _ = ax.arrow(col - 0.3 * dc, r - 0.3 * dr, 0.5 * dc, 0.5 * dr,
                         head_width=0.18, length_includes_head=True, color="black")
    ax.set_xlim(-0.5, COLS - 0.5)
    ax.set_ylim(ROWS - 0.5, -0.5)  # row 0 at the top, as printed
    ax.set_aspect("equal")
    ax.set_xticks(range(COLS))
    ax.set_yticks(range(ROWS))
    ax.set_ylabel("row")
    _ = ax.set_title(title, fontsize=11)

# stacked, not side by side, so that a phone screen does not shrink them
fig, axes = plt.subplots(3, 1, figsize=(4.2, 6.6), layout="constrained")
draw_policy(axes[0], pi_base, f"γ = 0.99, step −0.04: P(pit) = {pit_base:.3f}")
draw_policy(axes[1], pi_short, f"γ = 0.5, step −0.04: P(pit) = {pit_short:.3f}")
draw_policy(axes[2], pi_cost, f"γ = 0.99, step −0.5: P(pit) = {pit_cost:.3f}")
_ = axes[2].set_xlabel("column")
plt.show()

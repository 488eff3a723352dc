import matplotlib.pyplot as plt

def draw_policy(ax, pi, title):
    colour = {"P": "#e06666", "G": "#6aa84f", "S": "#cfe2f3", ".": "white"}
    for s, c in enumerate(cells):
        r, col = divmod(s, COLS)
        ax.add_patch(plt.Rectangle((col - 0.5, r - 0.5), 1, 1, fc=colour[c], ec="grey"))
        if terminal[s]:
            _ = ax.text(col, r, c, ha="center", va="center", fontsize=11)
        else:
            dr, dc = MOVES[pi[s]]
            _ = ax.arrow(col - 0.3 * dc, r - 0.3 * dr, 0.5 * dc, 0.5 * dr,
                         head_width=0.18, length_includes_head=True, color="black")
    ax.set_xlim(-0.5, COLS - 0.5)
    ax.set_ylim(ROWS - 0.5, -0.5)  # row 0 at the top, as printed
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    _ = ax.set_title(title, fontsize=10)

fig, axes = plt.subplots(1, 3, figsize=(9, 2.4), layout="constrained")
draw_policy(axes[0], pi_base, "γ = 0.99, step -0.04")
draw_policy(axes[1], pi_short, "γ = 0.5, step -0.04")
draw_policy(axes[2], pi_cost, "γ = 0.99, step -0.5")
plt.show()

def plot_values(grid, title):
    """Heat map of a value grid; wall and terminal squares are drawn grey."""
    shown = grid.copy()
    shown[GOAL] = shown[PIT] = np.nan  # their value is 0: nothing follows
    cmap = plt.get_cmap("RdYlGn").with_extremes(bad="lightgrey")
    fig, ax = plt.subplots(figsize=(5.6, 3.6), layout="constrained")
    image = ax.imshow(shown, cmap=cmap, vmin=-1, vmax=1)
    names = {WALL: "wall", GOAL: "goal\n+1", PIT: "pit\n−1"}
    for (r, c), v in np.ndenumerate(grid):
        text = names.get((r, c), f"{v:+.3f}")
        if (r, c) == START:
            text += "\nstart"
        ax.text(c, r, text, ha="center", va="center", fontsize=11)
    ax.set_xticks(range(COLS))
    ax.set_yticks(range(ROWS))
    ax.set_xlabel("column")
    ax.set_ylabel("row")
    ax.set_title(title)
    fig.colorbar(image, ax=ax, label="value V(s)")
    plt.show()

plot_values(grid, f"Value of the uniform random policy (gamma = {GAMMA})")

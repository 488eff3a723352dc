from matplotlib.colors import LogNorm

fig, axes = plt.subplots(1, 2, figsize=(7, 3.5))
for ax, counts, title in ((axes[0], visits[0], "run 0"),
                          (axes[1], visits.mean(axis=0), "mean of 20 runs")):
    grid = np.where(DECIDE, counts, np.nan).reshape(4, 4)
    im = ax.imshow(grid, cmap="Blues", norm=LogNorm(vmin=50, vmax=40_000))
    for s in range(N_S):
        label = f"{counts[s]:.0f}" if DECIDE[s] else CELLS[s]
        _ = ax.text(s % 4, s // 4, label, ha="center", va="center", fontsize=9)
    _ = ax.set_xlabel("column")
    _ = ax.set_ylabel("row")
    _ = ax.set_title(title)

_ = fig.suptitle(f"Steps taken from each square in {STEPS} steps")
_ = fig.colorbar(im, ax=axes, shrink=0.8, label="visits (log scale)")
plt.show()
print(f"run 0: start square {visits[0, START]} visits, square 3 {visits[0, 3]},"
      f" ratio {visits[0, START] / visits[0, 3]:.0f}")

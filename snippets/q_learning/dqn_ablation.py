blown = ~(np.abs(q_dqn) < 10).all(axis=(0, 2, 3))   # |Q| > 10 or NaN, ever
summary = {}                                        # (step size, variant) -> numbers
print("step  variant            mean V(S)  worst V(S)  diverged runs")
for j, lr in enumerate(LRS):
    for i, name in enumerate(VARIANTS):
        r = slice((j * len(VARIANTS) + i) * SEEDS, (j * len(VARIANTS) + i + 1) * SEEDS)
        summary[lr, name] = (v_dqn[r].mean(), v_dqn[r].min(), blown[r].sum())
        print(f"{lr:4.1f}  {name:18s} {v_dqn[r].mean():9.3f} {v_dqn[r].min():11.3f}"
              f" {blown[r].sum():9d} / {SEEDS}")

# -- drawing the figure --
# The bold step size, value error per update (capped so blown-up runs still plot).
v_err = np.abs(np.nan_to_num(q_dqn.max(axis=-1), nan=1e3) - V_star)[..., DECIDE]
v_err = np.minimum(v_err.max(axis=-1), 1e3)         # (updates, runs)
fig, ax = plt.subplots(figsize=(7, 3.5))
for i, name in enumerate(VARIANTS):
    r = slice((len(VARIANTS) + i) * SEEDS, (len(VARIANTS) + i + 1) * SEEDS)
    _ = ax.semilogy(np.arange(0, len(v_err), 10), np.median(v_err[::10, r], axis=1),
                    lw=1.2, label=name)

_ = ax.set_xlabel("gradient update")
_ = ax.set_ylabel("max_s |max_a Q(s,a) - V*(s)|")
_ = ax.set_title(f"DQN, step size {LRS[1]}: median of {SEEDS} runs per variant")
_ = ax.legend()
fig.tight_layout()
plt.show()

errors = np.abs(sweeps - V_star).max(axis=1)       # worst error after each sweep
ratios = errors[1:] / errors[:-1]
print("error after sweeps 0..6:", " ".join(f"{e:.4f}" for e in errors[:7]))
print("ratio, sweeps 1..6:     ", " ".join(f"{q:.3f}" for q in ratios[:6]))
print(f"largest ratio over all {len(ratios)} sweeps: {ratios[:-1].max():.3f}"
      f" (gamma = {GAMMA})")

# -- drawing the figure --
fig, ax = plt.subplots(figsize=(7, 3.5))
k = np.arange(len(errors))
_ = ax.semilogy(k[:-1], errors[:-1], "o-", ms=3, label=r"$\max_s\,|V_k(s) - V^*(s)|$")
_ = ax.semilogy(k, errors[0] * GAMMA**k, "--", label=r"bound: $\mathrm{error}_0\,\gamma^k$")
_ = ax.set_xlabel(r"sweep $k$")
_ = ax.set_ylabel("worst error (log scale)")
_ = ax.set_title(r"Value iteration is a $\gamma$-contraction")
_ = ax.legend()
fig.tight_layout()
plt.show()

curve = policy_value(greedy)[..., START]            # (checkpoints, runs)
shortfall = np.maximum(V_star[START] - curve, 1e-4) # 1e-4 stands in for "optimal"
at = 500 * np.arange(1, len(curve) + 1)
lo, mid, hi = np.percentile(shortfall, [10, 50, 90], axis=1)
fig, ax = plt.subplots(figsize=(7, 3.5))
_ = ax.fill_between(at, lo, hi, alpha=0.3, label="10th to 90th percentile, 20 runs")
_ = ax.semilogy(at, mid, label="median run")
_ = ax.axhline(0.01 * V_star[START], color="k", ls="--", lw=1, label="1% of V*(S)")
_ = ax.set_xlabel("environment steps")
_ = ax.set_ylabel("V*(S) - V_greedy(S)")
_ = ax.set_title("Tabular Q-learning: shortfall of the greedy policy")
_ = ax.legend(loc="upper right")
fig.tight_layout()
plt.show()
within = np.mean(curve >= 0.99 * V_star[START], axis=1)
for n in (1000, 2000, 5000, STEPS):
    print(f"after {n:5d} steps: median shortfall {mid[n // 500 - 1]:.4f}, "
          f"runs within 1% of optimum {within[n // 500 - 1]:.2f}")

near_tie = pi_star.copy()
near_tie[8] = np.argsort(Q_star[8])[-2]             # square 8 takes its runner-up
tie_cost = V_star[START] - policy_value(near_tie)[START]
print(f"pi* with the runner-up action on square 8 falls short by {tie_cost:.4f}")

at = 1000 * np.arange(1, len(checkpoints) + 1)
window = 200
rolling = np.convolve(wins, np.ones(window) / window, mode="valid")
fig, ax = plt.subplots(figsize=(7, 3.5))
_ = ax.plot(at, success(np.array(checkpoints)), "o-", ms=3,
            label="greedy policy, exact chance of reaching G")
_ = ax.plot(ends[window - 1:], rolling, lw=1,
            label=f"episodes won, moving mean of {window} (explores)")
_ = ax.axhline(success(pi_fl), color="k", ls="--", lw=1, label="optimal policy")
_ = ax.axhline(success(explorer), color="C1", ls=":", lw=1.5,
               label="final greedy policy with 5 % random actions")
_ = ax.set_xlabel("environment steps")
_ = ax.set_ylabel("probability of reaching G")
_ = ax.set_title("Q-learning on FrozenLake-v1 (slippery)")
_ = ax.legend(loc="lower right", fontsize=9)
fig.tight_layout()
plt.show()

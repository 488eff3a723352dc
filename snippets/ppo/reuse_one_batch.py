def softmax(z):
    e = np.exp(z - z.max())
    return e / e.sum()


def ppo_passes(actions, adv, passes, lr=0.3, eps=0.2, n_actions=3):
    """Gradient ascent on the mean PPO objective of ONE batch, `passes` times.
    eps=None drops the clip (plain importance-weighted policy gradient).
    Returns the final probabilities and the ratios at the start of each pass.
    """
    z = np.zeros(n_actions)
    old = softmax(z)[actions]
    history = []
    for _ in range(passes):
        p = softmax(z)
        rho = p[actions] / old
        history.append(rho)
        # a sample is frozen once it has moved past 1 +- eps in its favoured way
        live = np.ones_like(rho, bool) if eps is None else ~(
            ((adv > 0) & (rho > 1 + eps)) | ((adv < 0) & (rho < 1 - eps)))
        # d(rho * A)/dz = A * rho * (onehot(a) - p)
        w = live * adv * rho
        grad = (np.bincount(actions, w, n_actions) - w.sum() * p) / len(actions)
        z = z + lr * grad
    return softmax(z), np.array(history)


rng = np.random.default_rng(1)
win = np.array([0.2, 0.5, 0.8])              # the three-armed bandit
actions = rng.integers(0, 3, 16)             # 16 pulls from the uniform policy
rewards = (rng.random(16) < win[actions]).astype(float)
adv = rewards - rewards.mean()
for arm in range(3):
    hits = actions == arm
    print(f"arm {'ABC'[arm]}: pulled {hits.sum():2d}, won {rewards[hits].sum():.0f}")

runs = {name: ppo_passes(actions, adv, 50, eps=e)
        for name, e in (("clipped", 0.2), ("unclipped", None))}

for name, (p, hist) in runs.items():
    print(f"{name:9s}: largest ratio at the start of pass 50: {hist[-1].max():.2f}")
    print(f"{'':9s}  pi after pass 50: {np.round(p, 3)}")

# -- drawing the figure --
def plot_largest_ratio():
    fig, ax = plt.subplots(figsize=(7, 3.2))
    for name, color in (("unclipped", "C3"), ("clipped", "C0")):
        ax.plot(np.arange(1, 51), runs[name][1].max(1), color=color, label=name)
    ax.axhline(1.2, color="gray", ls=":", lw=1, label=r"$1 + \varepsilon$")
    ax.set_xlabel("pass over the same 16 pulls")
    ax.set_ylabel("largest ratio in the batch")
    ax.set_title("Reusing one batch: the clip removes the incentive to keep going")
    ax.legend()
    plt.tight_layout()
    plt.show()


plot_largest_ratio()

def sampled_rlhf(rm, beta, steps=2000, batch=64, lr=0.2, seed=4):
    """REINFORCE on rm(y) - beta * log(pi(y) / pi_sft(y)), answers sampled from pi."""
    rng = np.random.default_rng(seed)
    theta = np.log(p_sft)
    for _ in range(steps):
        p = np.exp(theta - theta.max())
        p = p / p.sum()
        y = rng.choice(6, batch, p=p)
        adv = rm[y] - beta * np.log(p[y] / p_sft[y])
        adv = adv - adv.mean()  # the batch mean as a baseline
        # sum over the batch of adv * (one_hot(y) - p), divided by the batch size
        theta = theta + lr * (np.bincount(y, adv, minlength=6) - adv.sum() * p) / batch
    return np.exp(theta) / np.exp(theta).sum()


p_pg = sampled_rlhf(rm_fast, beta=0.5)
p_exact, _ = kl_optimum(p_sft, rm_fast, 0.5)
show(p_pg, "sampled RLHF, beta 0.5")
print(f"KL(pg || sft) {kl(p_pg, p_sft):.2f} vs exact optimum {kl(p_exact, p_sft):.2f};"
      f" largest gap to pi* {np.abs(p_pg - p_exact).max():.3f}")

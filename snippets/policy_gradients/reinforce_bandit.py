def reinforce_bandit(win, pulls, runs, lr, offset=0.0, baseline=False, seed=0):
    """REINFORCE on a Bernoulli bandit; `runs` independent learners, one per row.
    A pull pays offset + 1 with chance win[arm], else offset. Returns the policy
    before every pull and after the last, shape (pulls + 1, runs, arms)."""
    rng = np.random.default_rng(seed)
    z = np.zeros((runs, len(win)))
    mean_reward = np.zeros(runs)
    history = [softmax(z)]
    for t in range(pulls):
        pi = softmax(z)
        # inverse CDF: the arm index is how many cumulative probabilities a uniform
        # draw exceeds, one draw per row
        a = (rng.random((runs, 1)) > pi.cumsum(1)).sum(1)
        r = offset + (rng.random(runs) < win[a])
        # baseline: mean of the earlier rewards (the reward itself on pull one)
        b = (mean_reward if t else r) if baseline else 0.0
        z += lr * (r - b)[:, None] * grad_log_softmax(z, a)
        mean_reward += (r - mean_reward) / (t + 1)
        history.append(softmax(z))
    return np.array(history)


pis = reinforce_bandit(win, pulls=500, runs=1000, lr=0.1)
final_c = pis[-1, :, 2]
print(f"pi(C) after 500 pulls: median {np.median(final_c):.3f}, "
      f"runs above 0.9: {np.mean(final_c > 0.9):.1%}")

print(f"expected reward per pull: {(pis[0] @ win).mean():.3f} -> "
      f"{(pis[-1] @ win).mean():.3f}")

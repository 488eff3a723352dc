def monte_carlo_returns(start, policy, n=20_000, horizon=300, seed=0):
    """Discounted returns of n episodes from `start`, all simulated at once."""
    rng = np.random.default_rng(seed)
    cdf = P.cumsum(axis=2)
    cdf[..., -1] = 1.0  # guard against rounding just below 1
    policy_cdf = policy.cumsum(axis=1)
    s = np.full(n, start)
    G = np.zeros(n)
    for t in range(horizon):  # 0.9**300 is 2e-14: the cut-off costs nothing
        live = np.flatnonzero(~TERMINAL[s])
        if live.size == 0:
            break
        a = (rng.random(live.size)[:, None] > policy_cdf[s[live]]).sum(axis=1)
        u = rng.random(live.size)[:, None]
        s[live] = (u > cdf[s[live], a]).sum(axis=1)
        G[live] += GAMMA**t * REWARD[s[live]]
    return G

G = monte_carlo_returns(INDEX[START], pi)
mc_mean = G.mean()
half_width = 1.96 * G.std(ddof=1) / np.sqrt(G.size)
low, high = mc_mean - half_width, mc_mean + half_width
inside = low <= V[INDEX[START]] <= high
print(f"exact V(start)      {V[INDEX[START]]:+.4f}")
print(f"Monte Carlo mean    {mc_mean:+.4f}  from {G.size} episodes")
print(f"95% interval        [{low:+.4f}, {high:+.4f}]  contains exact: {inside}")

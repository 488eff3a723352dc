def simulate_shop(policy, n=100_000, seed=0):
    """Many customers side by side: mean first-visit reward and mean return."""
    rng = np.random.default_rng(seed)
    device = (rng.random(n) >= P_MOBILE).astype(int)
    active = np.ones(n, dtype=bool)
    total = np.zeros(n)
    first = None
    while active.any():
        # one page per customer from its row of the policy: the page is the number
        # of cumulative probabilities a uniform draw exceeds (inverse-CDF sampling)
        cdf = policy[device].cumsum(axis=1)
        page = (rng.random(n)[:, None] > cdf).sum(axis=1)
        bought = (rng.random(n) < BUY[device, page]) & active
        total += bought
        first = bought.mean() if first is None else first  # keep visit 1 only
        active &= rng.random(n) < COME_BACK[page]
        device = (rng.random(n) >= P_MOBILE).astype(int)
    return first, total.mean()

def exact_value(policy):
    """V = r + c V: each visit earns r on average, then repeats with chance c."""
    weights = np.array([P_MOBILE, 1 - P_MOBILE])[:, None] * policy
    r, c = (weights * BUY).sum(), (weights * COME_BACK).sum()
    return r / (1 - c)

policies = {
    "always A": np.array([[1.0, 0, 0], [1, 0, 0]]),
    "always C (pushy)": np.array([[0.0, 0, 1], [0, 0, 1]]),
    "B on mobile, A on desktop": np.array([[0.0, 1, 0], [1, 0, 0]]),
    "uniform random": uniform,
}
print(f"{'policy':26s} {'first visit':>11s} {'return':>7s} {'exact':>6s}")
shop = {}
for name, policy in policies.items():
    shop[name] = simulate_shop(policy) + (exact_value(policy),)
    print(f"{name:26s} {shop[name][0]:11.3f} {shop[name][1]:7.3f} {shop[name][2]:6.3f}")

def thompson(seed=1):
    rng = np.random.default_rng(seed)
    def choose(t, n, s):
        return rng.beta(1 + s, 1 + n - s)  # one plausible rate per page and run
    return choose


def chance_shown(signups, shown, draws=100_000, seed=3):
    """How often Thompson sampling would show each page, given these counts."""
    rng = np.random.default_rng(seed)
    samples = rng.beta(1 + signups, 1 + shown - signups, size=(draws, len(shown)))
    return np.bincount(samples.argmax(axis=1), minlength=len(shown)) / draws


signups, shown = np.array([2, 6, 7]), np.array([60, 60, 60])  # an early snapshot
share = chance_shown(signups, shown)
for p, k, m, q in zip("ABC", signups, shown, share):
    print(f"page {p}: {k}/{m} signed up -> next visitor sees it with chance {q:.3f}")

rng = np.random.default_rng(5)
print(f"{'per page':>8s}{'wrong':>8s}{'expected loss over 20,000':>28s}")
for m in (50, 300, 1_000, 3_000):
    signups = rng.binomial(m, RATES, size=(100_000, K)) + rng.random((100_000, K))
    winner_gap = GAPS[signups.argmax(axis=1)]  # loss per visitor after the pilot
    loss = m * GAPS.sum() + (20_000 - K * m) * winner_gap.mean()
    print(f"{m:8,d}{(winner_gap > 0).mean():8.1%}{loss:28.1f}")

def epsilon_greedy(eps, seed=1):
    rng = np.random.default_rng(seed)  # the strategy's own dice, not the visitors'
    def choose(t, n, s):
        explore = rng.random((len(n), 1)) < eps  # which runs explore this visitor
        return np.where(explore, rng.random(n.shape), s / np.maximum(n, 1))
    return choose


# Said once, above the rows, so that each row fits the page (max_output_width).
print("with perfect estimates, exploring still loses:")
for eps in (0.1, 0.01):
    floor = eps * GAPS.mean()  # a random page costs the average gap
    print(f"eps = {eps}: {floor:.5f} per visitor, {floor * 18_000:.1f} over 18,000 "
          "visitors")

from math import comb

def pilot_exact(per_page, rates=RATES):
    """Exact chance that a pilot crowns each page: each page's sign-up count is
    binomial, and ties are split evenly, as the simulation's tiny noise does."""
    k = np.arange(per_page + 1)
    ways = np.array([comb(per_page, j) for j in k], dtype=float)
    pmf = ways * rates[:, None] ** k * (1 - rates[:, None]) ** (per_page - k)
    below = np.cumsum(pmf, axis=1) - pmf                     # P(X < k)
    win = np.zeros(len(rates))
    for a in range(len(rates)):
        (b, c) = [j for j in range(len(rates)) if j != a]
        tie = (below[b] * below[c] + (pmf[b] * below[c] + below[b] * pmf[c]) / 2
               + pmf[b] * pmf[c] / 3)
        win[a] = (pmf[a] * tie).sum()
    return win

exact_wrong, exact_loss = {}, {}
# Said once, above the rows, so that each row fits the page (max_output_width).
print("exact, for 20,000 visitors:")
for m in (50, 300):
    win = pilot_exact(m)
    exact_wrong[m] = 1 - win[2]
    exact_loss[m] = m * GAPS.sum() + (20_000 - K * m) * win @ GAPS
    print(f"pilot of {m:3d} per page: P(wrong page) {exact_wrong[m]:.1%}, "
          f"expected loss {exact_loss[m]:.1f}")

# When may the run above stop? At a few moments of it, draw plausible rates for all
# three pages from their Beta beliefs and ask two questions: how likely is each page
# to be the best, and how many sign-ups per 1,000 visitors would we expect to give up
# if we stopped now and kept the page that looks best?
def stopping_report(shown, signed, draws=200_000, seed=5):
    rng = np.random.default_rng(seed)
    theta = rng.beta(1 + signed, 1 + shown - signed, size=(draws, len(shown)))
    p_best = np.bincount(theta.argmax(1), minlength=len(shown)) / draws
    pick = int(np.argmax((1 + signed) / (2 + shown)))  # best posterior mean
    loss = (theta.max(1) - theta[:, pick]).mean()   # expected regret per visitor
    return p_best, pick, loss


LOSS_LIMIT = 1 / 1000                               # a convention, chosen in advance
CHECKS = (100, 200, 400, 800, 1200, 1600, 2000)     # when the rule is looked at
stop_table = {}
print(f"{'visitors':>8s}  P(best): {'A':>6s} {'B':>6s} {'C':>6s}   keep  "
      "expected loss per 1,000")
for v in CHECKS:
    stop_table[v] = stopping_report(*counts[v])
    p_best, pick, loss = stop_table[v]
    flag = "  <- under the limit" if loss < LOSS_LIMIT else ""
    print(f"{v:8d}           {p_best[0]:6.3f} {p_best[1]:6.3f} {p_best[2]:6.3f}"
          f"      {'ABC'[pick]}  {1000 * loss:8.2f}{flag}")  # fits the page's column

# The report at the first checkpoint under the limit: what was seen, what is believed
# (posterior mean and a 95 % credible interval), and what stopping costs.
stop_at = min(v for v, (_, _, loss) in stop_table.items() if loss < LOSS_LIMIT)
shown_stop, signed_stop = counts[stop_at]
beliefs = np.random.default_rng(6).beta(1 + signed_stop, 1 + shown_stop - signed_stop,
                                        size=(200_000, K))
low, high = np.quantile(beliefs, [0.025, 0.975], axis=0)
p_best_stop, keep, loss_stop = stop_table[stop_at]
print(f"\nstopped after {stop_at} visitors, keeping page {'ABC'[keep]}")
for i, p in enumerate("ABC"):
    print(f"  page {p}: {signed_stop[i]:3.0f}/{shown_stop[i]:4.0f} signed up, rate "
          f"{(1 + signed_stop[i]) / (2 + shown_stop[i]):.3f} "
          f"[{low[i]:.3f}, {high[i]:.3f}], P(best) {p_best_stop[i]:.3f}")

print(f"  expected loss of keeping {'ABC'[keep]}: {1000 * loss_stop:.2f} sign-ups "
      f"per 1,000 visitors (limit {1000 * LOSS_LIMIT:.0f})")

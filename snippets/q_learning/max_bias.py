# Ten estimates, each right on average: every one is a single reward drawn from
# N(-0.1, 1). The largest of them is not right on average.
import math

# the settings of the two-state example further down
B_ACTIONS, EPS_AB, ALPHA_AB, EPISODES_AB = 10, 0.1, 0.1, 300
B_MEAN = -0.1                                       # true value of every action in B


def expected_max(n, mean=B_MEAN):
    """E[max of n draws of N(mean, 1)], integrating x against the density of the
    largest draw, n * pdf(x) * cdf(x)**(n - 1), on a fine grid."""
    x = np.linspace(-10, 10, 200_001)
    pdf = np.exp(-x**2 / 2) / math.sqrt(2 * math.pi)
    cdf = 0.5 * (1 + np.frompyfunc(math.erf, 1, 1)(x / math.sqrt(2)).astype(float))
    return mean + np.sum(x * n * pdf * cdf ** (n - 1)) * (x[1] - x[0])


one_set = np.random.default_rng(0).normal(B_MEAN, 1.0, (100_000, B_ACTIONS))
print(f"true value of every action: {B_MEAN:+.3f}, so the best of them is worth "
      f"{B_MEAN:+.3f}")
print(f"E[max of {B_ACTIONS} one-draw estimates] = {expected_max(B_ACTIONS):+.4f} "
      f"exact, {one_set.max(1).mean():+.4f} sampled")
# double Q's remedy: choose with one set of estimates, rate with an independent one
other_set = np.random.default_rng(1).normal(B_MEAN, 1.0, (100_000, B_ACTIONS))
rated = other_set[np.arange(len(other_set)), one_set.argmax(1)]
print(f"chosen by one set, rated by the other: {rated.mean():+.4f} sampled")

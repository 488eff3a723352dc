def estimate_moments(pi, payoff, b):
    """Exact mean and variance, per logit, of the one-pull estimate
    (R(a) - b) * grad log pi(a) when arm a always pays payoff[a]."""
    z = np.log(pi)
    est = np.array([(payoff[a] - b) * grad_log_softmax(z, a) for a in range(len(pi))])
    mean = pi @ est
    return mean, pi @ (est - mean) ** 2


half = np.array([0.5, 0.5])
for b in (0.0, 11.0):
    mean, var = estimate_moments(half, np.array([10.0, 12.0]), b)
    print(f"b = {b:4.1f}: mean {mean[1]:+.2f}, variance {var[1]:.2f}  (logit of arm 2)")

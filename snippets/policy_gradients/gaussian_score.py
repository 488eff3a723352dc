# A continuous action: the policy is a normal density N(mu, sigma^2) over the real
# line. Its parameters are mu and log sigma (so sigma stays positive whatever step
# the gradient takes).
def gauss_log_prob(a, mu, log_sigma):
    sigma = np.exp(log_sigma)
    return -0.5 * ((a - mu) / sigma) ** 2 - log_sigma - 0.5 * np.log(2 * np.pi)


def gauss_score(a, mu, log_sigma):
    """Gradient of log pi(a) with respect to (mu, log sigma), stacked on axis 0."""
    z2 = ((a - mu) / np.exp(log_sigma)) ** 2
    return np.stack([(a - mu) / np.exp(2 * log_sigma), z2 - 1])


a_, mu_, ls_, h = 1.3, 0.4, -0.2, 1e-6              # any point: check by differences
d_mu = gauss_log_prob(a_, mu_ + h, ls_) - gauss_log_prob(a_, mu_ - h, ls_)
d_ls = gauss_log_prob(a_, mu_, ls_ + h) - gauss_log_prob(a_, mu_, ls_ - h)
print("score by formula:     ", np.round(gauss_score(a_, mu_, ls_), 6))
print("score by differences: ", np.round(np.array([d_mu, d_ls]) / (2 * h), 6))
# "log pi(mu)", not "log pi(a) at a = mu": the line fits the page (max_output_width).
print(f"log pi(mu), sigma = 0.1: {gauss_log_prob(0.0, 0.0, np.log(0.1)):+.3f}"
      " (a density, not a probability: can exceed 1)")

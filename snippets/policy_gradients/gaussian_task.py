# A one-step task with a known answer: the action a is any real number and pays
# -(a - 2)^2 plus noise. Under N(mu, sigma^2) the expected reward is
# J = -((mu - 2)^2 + sigma^2), so the exact gradient is
# dJ/dmu = -2 (mu - 2) and dJ/dlog(sigma) = -2 sigma^2.
TARGET_A, NOISE_A = 2.0, 0.5


def continuous_reward(a, rng):
    return -(a - TARGET_A) ** 2 + NOISE_A * rng.normal(size=np.shape(a))


def exact_gauss_grad(mu, log_sigma):
    return np.array([-2 * (mu - TARGET_A), -2 * np.exp(2 * log_sigma)])


print(f"at mu = 0, sigma = 1: J = {-(0 - TARGET_A) ** 2 - 1:.0f} exactly")
print("exact gradient (mu, log sigma):", exact_gauss_grad(0.0, 0.0))

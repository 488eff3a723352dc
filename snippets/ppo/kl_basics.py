def kl(p, q):
    """KL(p || q) in nats: the mean of log(p / q) over draws from p."""
    return float(np.sum(p * np.log(p / q)))

p_a, p_b = np.array([0.5, 0.3, 0.2]), np.array([0.4, 0.4, 0.2])
coin, bent = np.array([0.5, 0.5]), np.array([0.9, 0.1])
print(f"KL(p_a || p_b) = {kl(p_a, p_b):.4f} nats   KL(p_b || p_a) = {kl(p_b, p_a):.4f}")
print(f"KL(p_a || p_a) = {kl(p_a, p_a):.4f}")
print(f"fair coin vs 0.9/0.1 coin: {kl(coin, bent):.4f} nats"
      f" = {kl(coin, bent) / np.log(2):.4f} bits; the other way {kl(bent, coin):.4f}")

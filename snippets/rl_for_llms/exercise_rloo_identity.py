rng = np.random.default_rng(6)
many = rng.random((5, 6))  # 5 prompts, K = 6 rewards each
K = many.shape[1]
scaled = K / (K - 1) * (many - many.mean(1, keepdims=True))
gap = np.abs(rloo_adv(many) - scaled).max()
print(f"largest |RLOO - K/(K-1)(r - mean)|: {gap:.1e}")
print("rewards (1, 0): RLOO", fmt(rloo_adv([1, 0])),
      " GRPO sample std", fmt(grpo_adv([1, 0], ddof=1)))

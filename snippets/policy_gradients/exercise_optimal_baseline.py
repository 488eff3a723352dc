# Offset bandit at the uniform policy: R = 5 + Bernoulli(win[a]).
pi_u = np.full(3, 1 / 3)
g = np.eye(3) - pi_u  # row a: grad log pi(a) at uniform logits
mean_r = 5 + win  # E[R | a]
second_r = win * 6.0**2 + (1 - win) * 5.0**2  # E[R^2 | a]


def total_variance(b):
    """Sum over logits of Var[(R - b) grad log pi(a)], exactly."""
    second = pi_u @ ((second_r - 2 * b * mean_r + b**2)[:, None] * g**2)
    mean = pi_u @ ((mean_r - b)[:, None] * g)
    return float((second - mean**2).sum())


bs = np.linspace(0, 8, 801)
best = bs[np.argmin([total_variance(b) for b in bs])]
w = (g**2).sum(1)  # |grad log pi(a)|^2, the weight each arm gets
print(f"variance at b = 0: {total_variance(0):.3f}, at b = 5.5: "
      f"{total_variance(5.5):.3f}")

print(f"best b on the grid {best:.2f}; formula E[R|g|^2]/E[|g|^2] = "
      f"{(pi_u * w) @ mean_r / (pi_u @ w):.2f}")

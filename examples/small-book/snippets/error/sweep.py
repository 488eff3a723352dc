import numpy as np

rng = np.random.default_rng(11)
repeats = 20
rms = {}
for n in [100, 1_000, 10_000, 100_000]:
    estimates = np.array([4 * ((rng.random((n, 2)) ** 2).sum(axis=1) <= 1).mean()
                          for _ in range(repeats)])
    rms[n] = float(np.sqrt(np.mean((estimates - np.pi) ** 2)))
    print(f"n = {n:>7,}: typical error {rms[n]:.4f}, error x sqrt(n) = {rms[n] * n**0.5:.2f}")

# One dart scores 4 or 0; its standard deviation is the constant in the error.
theory = float(np.sqrt(np.pi * (4 - np.pi)))

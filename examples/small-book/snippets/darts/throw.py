import numpy as np

rng = np.random.default_rng(2026)
n = 4000
darts = rng.random((n, 2))  # uniform on the unit square
inside = (darts**2).sum(axis=1) <= 1.0  # within the quarter circle of radius 1
hits = int(inside.sum())
estimate = 4 * hits / n
print(f"{hits} of {n} darts landed inside the quarter circle")
print(f"estimate of pi: {estimate:.4f} (error {estimate - np.pi:+.4f})")

import numpy as np


def kl(p, q):
    """KL(p || q) for distributions on the same finite set (0 log 0 = 0)."""
    m = p > 0
    return float(np.sum(p[m] * np.log(p[m] / q[m])))


def kl_optimum(p_ref, r, beta):
    """pi* proportional to p_ref * exp(r / beta), and its normaliser Z."""
    w = p_ref * np.exp((r - r.max()) / beta)  # shift by max(r) so exp never overflows
    z = w.sum() * np.exp(r.max() / beta)
    return w / w.sum(), z


p_ref = np.array([0.5, 0.3, 0.2])
r = np.array([0.0, 1.0, 2.0])
beta = 1.0
p_star, Z = kl_optimum(p_ref, r, beta)
objective = p_star @ r - beta * kl(p_star, p_ref)
print("pi*       ", np.round(p_star, 3))
print(f"E[r] {p_star @ r:.3f}   KL {kl(p_star, p_ref):.3f}   objective {objective:.3f}")
print(f"beta*log Z {beta * np.log(Z):.3f}   (Z = {Z:.4f})")
print("r - beta*log(pi*/p_ref) per response:",
      np.round(r - beta * np.log(p_star / p_ref), 3))

# Exercise 2: natural vs plain gradient from a non-uniform start, both at KL = 0.05
theta_a = np.array([1.0, 0.0, -1.0])            # prefers "forward", rarely goes back
V_a, A_a, d_a, pi_a = evaluate(theta_a)
F_a = np.diag(pi_a) - np.outer(pi_a, pi_a)
g_a = F_a @ (d_a @ A_a)                         # policy gradient at theta_a


def gain_at_kl(direction, target=0.05):
    """Step along `direction` until KL(pi_a || new) equals target; return true gain."""
    lo, hi = 0.0, 10.0                          # the KL grows along the ray: bisect
    for _ in range(60):
        mid = (lo + hi) / 2
        below = kl(pi_a, softmax(theta_a + mid * direction)) < target
        lo, hi = (mid, hi) if below else (lo, mid)
    return evaluate(theta_a + lo * direction)[0][0] - V_a[0]


natural = np.linalg.pinv(F_a) @ g_a             # F is singular along (1, 1, 1)
gains = {}
for name, direction in (("plain", g_a), ("natural", natural)):
    unit = direction / np.linalg.norm(direction)
    gains[name] = gain_at_kl(unit)
    print(f"{name:8s} direction {np.round(unit, 3)}  true gain at KL 0.05: "
          f"{gains[name]:.4f}")

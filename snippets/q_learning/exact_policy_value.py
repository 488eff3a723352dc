def policy_value(pi, R=R_BASE, P=P, gamma=GAMMA, decide=DECIDE):
    """Exact V of policies by one linear solve each: (I - gamma P_pi) V = r_pi.
    pi holds actions (..., 16) or action probabilities (..., 16, 4)."""
    pi = np.asarray(pi)
    if pi.dtype.kind in "iu":                       # actions -> one-hot probabilities
        pi = np.eye(P.shape[1])[pi]
    P_pi = np.einsum("...sa,sat->...st", pi, P) * decide[:, None]
    r_pi = (P_pi * R).sum(axis=-1)                  # expected reward of the next move
    A = np.eye(len(decide)) - gamma * P_pi
    return np.linalg.solve(A, r_pi[..., None])[..., 0]

final = greedy[-1]                                  # 20 learned greedy policies
scores = policy_value(final)[:, START]
exact = np.all((final == pi_star) | ~DECIDE, axis=1)
print(f"check: policy_value(pi*) at the start = {policy_value(pi_star)[START]:.4f}")
print(f"20 runs: {exact.sum()} learned exactly pi*, "
      f"mean value {scores.mean():.4f}, worst {scores.min():.4f}")
print(f"worst run loses {1 - scores.min() / V_star[START]:.1%} of the optimum")
wrong = (final != pi_star) & DECIDE
print("runs that pick a non-optimal action, per square:")
show([f"{n}" for n in wrong.sum(axis=0)])

BONUS_SQUARE, GOAL = 10, 15
R_bonus = R_BASE.copy()
R_bonus[:, BONUS_SQUARE] += 0.3                     # "+0.3 for reaching row 2, col 2"

def reach_goal(pi, moves=20):
    """Exact probability of standing on G within `moves` steps from S."""
    M = np.einsum("...sa,sat->...st", np.eye(N_A)[pi], P)
    M[..., ~DECIDE, :] = np.eye(N_S)[~DECIDE]       # the ends absorb
    return np.linalg.matrix_power(M, moves)[..., START, GOAL]

V_b, _ = value_iteration(R_bonus)
pi_b = backup(V_b, R_bonus).argmax(axis=1)
print("optimal policy once the bonus is paid:")
show([ARROWS[a] for a in pi_b])
for name, pi, Vs in (("true reward", pi_star, V_star), ("with bonus", pi_b, V_b)):
    print(f"{name:11s}: V(S) believed {Vs[START]:+.3f}, true "
          f"{policy_value(pi)[START]:+.3f}, reaches G in 20 moves "
          f"{reach_goal(pi):.2f}")

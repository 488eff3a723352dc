from fractions import Fraction

def outcomes(pi, limit):
    """Exact chances that an episode of pi ends at G, ends in a hole, or is still
    walking when the time limit stops it."""
    M = np.einsum("sa,sat->st", np.eye(n_a)[pi], P_fl)
    M[~live] = np.eye(n_s)[~live]                  # holes and G absorb
    where = np.linalg.matrix_power(M, limit)[0]
    goal = where[desc.index("G")]
    hole = where[[s for s, ch in enumerate(desc) if ch == "H"]].sum()
    return goal, hole, max(1 - goal - hole, 0.0)    # round-off can dip below 0

for limit in (100, 100_000):
    goal, hole, cut = outcomes(pi_fl, limit)
    print(f"pi*, limit {limit:>7,}: goal {goal:.3f}, hole {hole:.3f},"
          f" time out {cut:.3f}")

near = Fraction(goal).limit_denominator(100)
print(f"with no limit the goal chance is {near} (off by below 1e-12: "
      f"{abs(goal - near) < 1e-12})")

# No policy does better: value iteration on the chance of success itself (gamma = 1).
V_win, _ = value_iteration(R_fl, P_fl, 1.0, live)
print(f"best chance of ever reaching G over all policies: {V_win[0]:.4f}")

# A policy may also read the clock and take more risk as the limit nears: backward
# induction over the steps left gives the best chance of reaching G within 100.
W_clock = np.zeros(n_s)
for _ in range(100):
    W_clock = np.where(live, backup(W_clock, R_fl, P_fl, 1.0).max(axis=1), 0.0)

print(f"best chance within 100 steps, acting on the steps left: {W_clock[0]:.3f}")

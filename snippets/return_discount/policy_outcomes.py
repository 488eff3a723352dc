def outcomes(P, pi):
    """Exactly, from S: chance of ending in the pit, in the goal, and mean steps.
    Absorbing-chain algebra: solve (I - P_pi) x = b on the non-terminal squares."""
    live = np.flatnonzero(~terminal)
    P_pi = P[live, pi[live]]  # (live, N): where the chosen move lands
    A = np.eye(len(live)) - P_pi[:, live]
    pit = np.linalg.solve(A, P_pi[:, [c == "P" for c in cells]].sum(1))
    goal = np.linalg.solve(A, P_pi[:, [c == "G" for c in cells]].sum(1))
    steps = np.linalg.solve(A, np.ones(len(live)))
    i = list(live).index(start)
    return pit[i], goal[i], steps[i]

def aims_at_pit(P, pi):
    """Squares whose intended move (probability 0.8) lands in the pit."""
    return [square(s) for s in np.flatnonzero(~terminal)
            if cells[np.argmax(P[s, pi[s]])] == "P"]

pit_base, goal_base, steps_base = outcomes(P, pi_base)
print(f"from S: pit {pit_base:.3f}, goal {goal_base:.3f}, "
      f"mean steps {steps_base:.1f}")
print("squares aiming at the pit:", aims_at_pit(P, pi_base))

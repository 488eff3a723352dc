def value_iteration(P, R, gamma, tol=1e-10):
    """Optimal values and greedy policy. Terminal rows of P are zero, so V = 0 there."""
    V = np.zeros(len(R))
    while True:
        Q = R + gamma * P @ V  # Q[s, a] = E[r + gamma * V(s')]
        V_new = Q.max(axis=1)
        if np.abs(V_new - V).max() < tol:
            return Q.argmax(axis=1), V_new
        V = V_new

def show_policy(pi, V):
    """One line per row of the grid: the arrow of each square and its value."""
    for r in range(ROWS):
        row = range(r * COLS, (r + 1) * COLS)
        text = [f"  {cells[s]}  " if terminal[s] else f"{ARROW[pi[s]]}{V[s]:+.2f}"
                for s in row]
        print("  ".join(text).rstrip())

pi_base, V_base = value_iteration(*ledge_model(step_reward=-0.04), gamma=0.99)
show_policy(pi_base, V_base)

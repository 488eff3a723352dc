def backup(V, R=R_BASE, P=P, gamma=GAMMA):
    """Q(s, a) = sum over s2 of P(s2 | s, a) * (R(s, s2) + gamma * V(s2))."""
    return np.einsum("sat,st->sa", P, R + gamma * V)

def value_iteration(R=R_BASE, P=P, gamma=GAMMA, decide=DECIDE, tol=1e-12):
    """Sweep V <- max_a backup(V) until it stops moving; V stays 0 off the board."""
    sweeps = [np.zeros(len(decide))]
    while True:
        V = np.where(decide, backup(sweeps[-1], R, P, gamma).max(axis=1), 0.0)
        sweeps.append(V)
        if np.abs(sweeps[-1] - sweeps[-2]).max() < tol:
            return V, np.array(sweeps)

def show(cells):
    """Print 16 strings as the 4 x 4 board, with the wall and ends marked."""
    marks = [c if DECIDE[s] else f"{CELLS[s]:>6}" for s, c in enumerate(cells)]
    for row in range(4):
        print(" ".join(f"{m:>6}" for m in marks[4 * row:4 * row + 4]))

V_star, sweeps = value_iteration()
pi_star = backup(V_star).argmax(axis=1)
print(f"converged after {len(sweeps) - 1} sweeps")
show([f"{v:.3f}" for v in V_star])
show([ARROWS[a] for a in pi_star])
print(f"value of the start square: {V_star[START]:.3f}")

pi = np.full((S, A), 1 / A)  # the uniform random policy
P_pi = np.einsum("sa,sat->st", pi, P)  # P_pi[s, s2]: one step under pi
R_pi = P_pi @ REWARD  # expected reward of the next step from each state
V = np.linalg.solve(np.eye(S) - GAMMA * P_pi, R_pi)
residual = np.abs(V - (R_pi + GAMMA * P_pi @ V)).max()

grid = np.full((ROWS, COLS), np.nan)  # the wall stays nan
for cell, v in zip(CELLS, V):
    grid[cell] = v

labels = {WALL: "  wall", GOAL: "  goal", PIT: "   pit"}
for r in range(ROWS):
    print("  ".join(labels.get((r, c), f"{grid[r, c]:+.3f}") for c in range(COLS)))

print(f"V(start) = {V[INDEX[START]]:.4f}")
# Round-off differs between CPUs, so print the bound, not its digits.
print(f"max |V - (R_pi + gamma P_pi V)| < 1e-14: {residual < 1e-14}")

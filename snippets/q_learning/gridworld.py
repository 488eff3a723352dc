import numpy as np

LAYOUT = ["S...",
          ".#.H",
          "....",
          "...G"]
CELLS = "".join(LAYOUT)          # square s sits at row s // 4, column s % 4
N_S, N_A = 16, 4
START, GAMMA, STEP_COST = 0, 0.95, -0.04
ARROWS = "^>v<"                  # actions 0..3 = up, right, down, left
OFFSET = [(-1, 0), (0, 1), (1, 0), (0, -1)]

def intended(s, a):
    """Where action a from square s leads if nothing slips (edges and wall block)."""
    row, col = s // 4 + OFFSET[a][0], s % 4 + OFFSET[a][1]
    if 0 <= row < 4 and 0 <= col < 4 and CELLS[4 * row + col] != "#":
        return 4 * row + col
    return s

MOVE = np.array([[intended(s, a) for a in range(N_A)] for s in range(N_S)])
TERMINAL = np.array([ch in "GH" for ch in CELLS])
DECIDE = np.array([ch in "S." for ch in CELLS])      # squares where a choice is made
ARRIVE = np.array([{"G": 1.0, "H": -1.0}.get(ch, STEP_COST) for ch in CELLS])
R_BASE = np.tile(ARRIVE, (N_S, 1))                   # R[s, s2]: reward for s -> s2

# Slippery floor: the intended move 80 % of the time, a quarter turn either way 10 %.
P = np.zeros((N_S, N_A, N_S))
for s in range(N_S):
    for a in range(N_A):
        for turn, p in ((0, 0.8), (1, 0.1), (3, 0.1)):
            P[s, a, MOVE[s, (a + turn) % 4]] += p

print(f"{DECIDE.sum()} squares to decide in, {DECIDE.sum() * N_A} Q-values to learn")
print("every row of P sums to 1:", np.allclose(P.sum(axis=-1), 1.0))
print("from the start, 'right' lands on:", {int(t): float(P[START, 1, t])
                                            for t in np.flatnonzero(P[START, 1])})

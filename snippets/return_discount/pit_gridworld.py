import numpy as np

LEDGE = ["......",
         "......",
         "SPPPPG"]
ROWS, COLS = len(LEDGE), len(LEDGE[0])
cells = "".join(LEDGE)  # state s is square (s // COLS, s % COLS)
N = len(cells)
terminal = np.array([c in "PG" for c in cells])
MOVES = [(-1, 0), (0, 1), (1, 0), (0, -1)]  # up, right, down, left
ARROW = "↑→↓←"

def landing(s, a):
    """Square reached from s by moving in direction a; walls of the grid block."""
    r, c = s // COLS + MOVES[a][0], s % COLS + MOVES[a][1]
    return r * COLS + c if 0 <= r < ROWS and 0 <= c < COLS else s

def ledge_model(step_reward, slip=0.1):
    """P[s, a, s'] and expected reward R[s, a]. The move goes as asked with
    probability 1 - 2*slip, else sideways (each side with probability slip)."""
    pay = np.array([{"G": 1.0, "P": -1.0}.get(c, step_reward) for c in cells])
    P, R = np.zeros((N, 4, N)), np.zeros((N, 4))
    for s in np.flatnonzero(~terminal):
        for a in range(4):
            for b, p in [(a, 1 - 2 * slip), ((a + 1) % 4, slip), ((a + 3) % 4, slip)]:
                P[s, a, landing(s, b)] += p
            R[s, a] = P[s, a] @ pay
    return P, R

def square(s):
    return f"({s // COLS},{s % COLS}){cells[s] if cells[s] != '.' else ''}"

P, R = ledge_model(step_reward=-0.04)
start = cells.index("S")
print("every row of P sums to one:", np.allclose(P[~terminal].sum(-1), 1))
for a in [0, 1]:
    went = ", ".join(f"{square(s2)} {p:.1f}" for s2, p in enumerate(P[start, a]) if p)
    print(f"S then {ARROW[a]}: lands on {went}; expected reward {R[start, a]:+.3f}")

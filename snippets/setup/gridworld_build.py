ROWS, COLS = 3, 4
WALL, GOAL, PIT, START = (1, 1), (0, 3), (1, 3), (2, 0)
CELLS = [(r, c) for r in range(ROWS) for c in range(COLS) if (r, c) != WALL]
INDEX = {cell: i for i, cell in enumerate(CELLS)}
TERMINAL = np.array([cell in (GOAL, PIT) for cell in CELLS])
MOVES = [(-1, 0), (0, 1), (1, 0), (0, -1)]  # up, right, down, left
SLIP, STEP_REWARD, GAMMA = 0.1, -0.04, 0.9

def move(cell, direction):
    """Where one push in `direction` leads; walls and edges bounce you back."""
    r, c = cell[0] + MOVES[direction][0], cell[1] + MOVES[direction][1]
    if not (0 <= r < ROWS and 0 <= c < COLS) or (r, c) == WALL:
        return cell
    return (r, c)

S, A = len(CELLS), len(MOVES)
P = np.zeros((S, A, S))  # P[s, a, s2] = P(s2 | s, a)
for cell in CELLS:
    if cell in (GOAL, PIT):
        continue  # terminal squares: the episode is over, nothing follows
    for a in range(A):
        # the floor is slippery: 80% as intended, 10% to each side
        for d, prob in ((a, 1 - 2 * SLIP), ((a + 1) % 4, SLIP), ((a - 1) % 4, SLIP)):
            P[INDEX[cell], a, INDEX[move(cell, d)]] += prob

REWARD = np.full(S, STEP_REWARD)  # reward for arriving in each square
REWARD[INDEX[GOAL]], REWARD[INDEX[PIT]] = 1.0, -1.0

print(f"{S} states ({TERMINAL.sum()} terminal), {A} actions, gamma = {GAMMA}")
print("rows of P sum to 1:", np.allclose(P[~TERMINAL].sum(axis=2), 1.0))
start, up = INDEX[START], 0
for s2 in np.flatnonzero(P[start, up]):
    print(f"P({CELLS[s2]} | {START}, up) = {P[start, up, s2]:.1f}")

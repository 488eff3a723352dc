# Does the way a walker reached square 4 change where it goes next?
rng = np.random.default_rng(1)
n, p = 20_000, 0.7
pos = np.full(n, 4)
prev = np.full(n, -1)  # -1: no previous square yet
alive = np.ones(n, dtype=bool)
went_right = {3: [], 5: []}  # keyed by the square the walker came from
while alive.any():
    step = np.where(rng.random(n) < p, 1, -1)
    for came_from in (3, 5):
        mask = alive & (pos == 4) & (prev == came_from)
        went_right[came_from].append(step[mask] == 1)
    prev = np.where(alive, pos, prev)
    pos = np.where(alive, pos + step, pos)
    alive &= (pos > 0) & (pos < 8)

for came_from, moves in went_right.items():
    moves = np.concatenate(moves)
    print(f"at square 4, arrived from {came_from}: stepped right "
          f"{moves.mean():.3f} of {moves.size} times")

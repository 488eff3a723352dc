def expected_visits(p, n_squares=9):
    """Exact mean visits to each inner square: a row of (I - Q)^-1."""
    inner = n_squares - 2  # squares 1..7; the two ends absorb the walk
    Q = np.zeros((inner, inner))  # Q[i, j]: chance of stepping from i to j
    for i in range(inner):
        if i + 1 < inner:
            Q[i, i + 1] = p
        if i > 0:
            Q[i, i - 1] = 1 - p
    fundamental = np.linalg.inv(np.eye(inner) - Q)
    return fundamental[inner // 2]  # the row of the middle square

exact_visits = {p: expected_visits(p) for p in P_RIGHTS}
for p in P_RIGHTS:
    row = " ".join(f"{v:5.2f}" for v in exact_visits[p])
    print(f"p(right)={p}  exact visits  {row}")

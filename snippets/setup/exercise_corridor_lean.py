def smallest_lean(target=Fraction(9, 10), n_squares=9):
    """Smallest p(right), in steps of 0.001, that reaches the right end often enough."""
    half = (n_squares - 1) // 2
    for k in range(500, 1001):
        p = Fraction(k, 1000)
        if p_reach_right(p, start=half, length=2 * half) >= target:
            return p

for n_squares in (9, 17, 33):
    p = smallest_lean(n_squares=n_squares)
    print(f"{n_squares:2d} squares: p(right) >= {float(p):.3f} finds 1.0 in 90%")

from fractions import Fraction

def p_reach_right(p, start=4, length=8):
    """Gambler's ruin: chance a walk from `start` hits `length` before 0."""
    if p == Fraction(1, 2):
        return Fraction(start, length)
    ratio = (1 - p) / p
    return (1 - ratio**start) / (1 - ratio**length)

exact_share = {}
print("p(right)  exact fraction  exact    simulated  expected return")
for p in P_RIGHTS:
    frac = p_reach_right(Fraction(p).limit_denominator(100))
    exact_share[p] = float(frac)
    ret = 0.1 * (1 - exact_share[p]) + 1.0 * exact_share[p]
    print(f"{p:8.1f}  {str(frac):>14s}  {exact_share[p]:.4f}   {share[p]:.3f}"
          f"      {ret:.4f}")

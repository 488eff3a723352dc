def crossover(a, b, n):
    """The gamma at which a now and b after n steps are worth the same."""
    return (a / b) ** (1 / n)

g_star = crossover(5, 20, 12)
print(f"5 now vs 20 after 12 steps: indifferent at gamma = {g_star:.3f}")
print("check:", round(discounted_return([5.0], g_star), 6),
      round(discounted_return([0] * 12 + [20.0], g_star), 6))
need = 1 / 0.99**100  # b must satisfy b * 0.99**100 > 1
print(f"at gamma 0.99, a reward 100 steps away must exceed {need:.3f} to beat 1 now")

now = [1.0]                      # one point on this step
later = [0, 0, 0, 0, 0, 10.0]    # ten points, five steps after this one
print(" gamma | 1 now | 10 later | choose")
for g in [0.0, 0.5, 0.631, 0.9, 0.99]:
    a, b = discounted_return(now, g), discounted_return(later, g)
    # gaps below 5e-4 vanish in a three-decimal table: call those a tie
    pick = "now" if a > b + 5e-4 else "later" if b > a + 5e-4 else "either"
    print(f" {g:5.3f} | {a:5.3f} | {b:8.3f} | {pick}")

crossover = 0.1 ** (1 / 5)  # solve 1 = 10 * gamma**5
print(f"crossover: gamma = 0.1**(1/5) = {crossover:.3f}")

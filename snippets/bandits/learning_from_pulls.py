rng = np.random.default_rng(0)
agents = 10_000  # independent agents, one per row
found_c = {}
for pulls in (5, 20, 100):
    wins = rng.binomial(pulls, WIN, size=(agents, 3))  # each pulls every machine
    noisy = wins + rng.random(wins.shape)  # a random machine wins a tie
    found_c[pulls] = (noisy.argmax(axis=1) == 2).mean()
    print(f"{pulls:3d} pulls per machine: best-looking machine is C "
          f"in {found_c[pulls]:.1%} of agents")

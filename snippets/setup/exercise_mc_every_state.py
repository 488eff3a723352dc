# one Monte Carlo interval per non-terminal square, 5,000 episodes each
hits = 0
for s in np.flatnonzero(~TERMINAL):
    G_s = monte_carlo_returns(s, pi, n=5_000, seed=int(s))
    half = 1.96 * G_s.std(ddof=1) / np.sqrt(G_s.size)
    hit = abs(G_s.mean() - V[s]) <= half
    hits += hit
    print(f"{str(CELLS[s]):7s} exact {V[s]:+.3f}  MC {G_s.mean():+.3f} ± {half:.3f}"
          f"  {'inside' if hit else 'OUTSIDE'}")

print(f"{hits} of {(~TERMINAL).sum()} intervals contain the exact value")

gammas = np.round(np.arange(0.0, 0.995, 0.01), 2)
waits, aiming = [], 0
for g in gammas:
    pi_g, _ = value_iteration(P, R, gamma=g)  # step cost -0.04 throughout
    waits.append(ARROW[pi_g[start]] != "↑")
    aiming += len(aims_at_pit(P, pi_g))

waits = np.array(waits)
first_move = gammas[np.flatnonzero(~waits)[0]]
print(f"S stops waiting and moves up from gamma = {first_move:.2f}")
below = gammas < first_move
print("does S wait for every gamma below that?", bool(waits[below].all()))
print("does S move up for every gamma from there on?", not waits[~below].any())
print(f"squares aiming at the pit, summed over {len(gammas)} gammas: {aiming}")

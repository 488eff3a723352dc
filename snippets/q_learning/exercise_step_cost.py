for cost in (-0.01, -0.04, -0.1, -0.4):
    arrive = np.array([{"G": 1.0, "H": -1.0}.get(ch, cost) for ch in CELLS])
    R_c = np.tile(arrive, (N_S, 1))
    V_c, _ = value_iteration(R_c)
    pi_c = backup(V_c, R_c).argmax(axis=1)
    top = " ".join(ARROWS[a] for a in pi_c[:4])
    print(f"step cost {cost:+.2f}: V*(S) = {V_c[START]:+.3f}, top row {top}, "
          f"square 6 {ARROWS[pi_c[6]]}")

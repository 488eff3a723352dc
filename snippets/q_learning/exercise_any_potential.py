rng = np.random.default_rng(7)
for trial in range(3):
    phi_r = np.where(DECIDE, rng.normal(0, 2, N_S), 0.0)   # any potential, 0 at ends
    R_r = R_BASE + GAMMA * phi_r[None, :] - phi_r[:, None]
    V_r, _ = value_iteration(R_r)
    pi_r = backup(V_r, R_r).argmax(axis=1)
    print(f"trial {trial}: max |phi| {np.abs(phi_r).max():.2f}, policy unchanged: "
          f"{np.array_equal(pi_r[DECIDE], pi_star[DECIDE])}, "
          f"V_shaped = V* - phi: {np.allclose(V_r, V_star - phi_r)}")

phi = np.where(np.arange(N_S) == BONUS_SQUARE, 0.3, 0.0)   # a potential, 0 at ends
R_pot = R_BASE + GAMMA * phi[None, :] - phi[:, None]       # F = gamma phi(s2) - phi(s)
V_p, _ = value_iteration(R_pot)
pi_p = backup(V_p, R_pot).argmax(axis=1)
print("same optimal policy as the true reward:", np.array_equal(pi_p[DECIDE],
                                                               pi_star[DECIDE]))
print("V_shaped = V* - phi:", np.allclose(V_p, V_star - phi))

# The learner, not just the planner: 10 runs for each reward, stepped together.
rewards = np.stack([R_BASE] * 10 + [R_bonus] * 10 + [R_pot] * 10)
Qh, visits_h, _ = run_q_learning(30, STEPS, seed=3, R=rewards)
pols = Qh.argmax(axis=-1)
print(f"{'':11s}  true V(S)  reaches G in 20 moves  share of steps on square 10")
for k, name in enumerate(("true reward", "+0.3 bonus", "potential")):
    r = slice(10 * k, 10 * k + 10)
    print(f"{name:11s}  {policy_value(pols[r])[:, START].mean():+9.3f}"
          f"  {reach_goal(pols[r]).mean():21.2f}"
          f"  {(visits_h[r, 10] / STEPS).mean():27.2f}")

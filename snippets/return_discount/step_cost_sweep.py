edge = COLS + 2  # square (1,2), above the middle of the pit
sweep = {}  # step cost -> (arrow at S, arrow at (1,2), squares aiming, P(pit), V(S))
for cost in [0.0, -0.04, -0.1, -0.2, -0.25, -0.3, -0.5, -1.0]:
    P_c, R_c = ledge_model(step_reward=cost)
    pi_c, V_c = value_iteration(P_c, R_c, gamma=0.99)
    sweep[cost] = (ARROW[pi_c[start]], ARROW[pi_c[edge]],
                   len(aims_at_pit(P_c, pi_c)), outcomes(P_c, pi_c)[0], V_c[start])

print("step cost | S | (1,2) | aiming at pit | P(pit from S) |   V(S)")
for cost, (a_s, a_e, n_aim, pit, v) in sweep.items():
    print(f"{cost:9.2f} | {a_s} | {a_e:>5} | {n_aim:13d} | {pit:13.3f} | {v:+.3f}")

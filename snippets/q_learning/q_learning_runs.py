def run_q_learning(n_runs, steps, seed=0, alpha=0.1, init=0.0, mask=True,
                   sarsa=False, eps=None, R=R_BASE, every=500):
    """Tabular Q-learning on n_runs independent copies of the grid, stepped
    together. It sees sampled moves and rewards only, never P. init, mask, sarsa
    and R may be one setting for all runs or one per run (arrays).
    Returns Q-tables, visit counts and the greedy policies every `every` steps."""
    rng = np.random.default_rng(seed)
    # All the randomness up front, one row per step: slips, coin flips, actions.
    turn = rng.choice([0, 1, 3], p=[0.8, 0.1, 0.1], size=(steps, n_runs))
    if eps is None:                                 # explore less as Q fills in
        eps = np.maximum(0.05, np.exp(-np.arange(steps) / 5000))
    explore = rng.random((steps, n_runs)) < np.reshape(eps, (-1, 1))
    random_action = rng.integers(N_A, size=(steps, n_runs))
    run = np.arange(n_runs)
    Q = np.zeros((n_runs, N_S, N_A)) + np.reshape(init, (-1, 1, 1))
    R = np.broadcast_to(R, (n_runs, N_S, N_S))
    path = np.zeros((steps, n_runs), dtype=int)     # the square each run stood on
    s, a = np.full(n_runs, START), random_action[0]
    greedy = []
    for t in range(steps):
        s2 = MOVE[s, (a + turn[t]) % 4]             # the floor decides, not P
        end = TERMINAL[s2]
        s_next = np.where(end, START, s2)           # an episode ends: back to S
        best = Q[run, s_next].argmax(axis=-1)
        a_next = np.where(explore[t], random_action[t], best)
        # Q-learning bootstraps from the best action, SARSA from the one it takes.
        # (After an end, Q[s2] is still the untouched init, so a2 does not matter.)
        a2 = np.where(sarsa, a_next, best)
        td_update(Q, s, a, R[run, s, s2], s2, a2, end & mask, alpha)
        path[t] = s
        s, a = s_next, a_next
        if (t + 1) % every == 0:
            greedy.append(Q.argmax(axis=-1))
    visits = np.stack([np.bincount(p, minlength=N_S) for p in path.T])
    return Q, visits, np.array(greedy)

STEPS = 20_000
Q, visits, greedy = run_q_learning(n_runs=20, steps=STEPS, seed=0)
learned = Q[0].argmax(axis=1)                       # run 0, shown in full
differ = [int(s) for s in np.flatnonzero(DECIDE & (learned != pi_star))]
print(f"{STEPS} sampled steps per run; run 0 values the start at "
      f"{Q[0, START].max():.3f} (optimum {V_star[START]:.3f})")
show([ARROWS[a] for a in learned])
print("squares where run 0 disagrees with value iteration:", differ)

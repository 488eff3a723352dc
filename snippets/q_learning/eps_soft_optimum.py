def best_eps_greedy(eps=EPS, R=R_BASE, P=P, gamma=GAMMA, decide=DECIDE):
    """Policy iteration over eps-greedy policies (Sutton and Barto, section 5.4):
    the best any learner can do while it keeps exploring at rate eps."""
    pi = np.zeros(len(decide), dtype=int)           # start from "always up"
    while True:
        V = policy_value(eps_soft(pi, eps), R, P, gamma, decide)
        Q = np.einsum("sat,st->sa", P, R + gamma * V)
        if np.array_equal(Q.argmax(axis=1)[decide], pi[decide]):
            return pi, Q
        pi = Q.argmax(axis=1)

pi_soft, Q_soft = best_eps_greedy()
vote_sarsa = votes[is_sarsa].sum(0).argmax(-1)
print("best eps-greedy policy = pi* on every square:",
      bool(np.all((pi_soft == pi_star) | ~DECIDE)))
print("corner (square 3) in eps-greedy play:",
      "  ".join(f"{ARROWS[a]} {Q_soft[3, a]:+.3f}" for a in range(N_A)))
for name, pi in (("pi*", pi_star), ("SARSA majority vote", vote_sarsa)):
    worth = policy_value(eps_soft(pi))[START]
    print(f"{name:20s} worth {worth:.4f} under eps-greedy play")

print("squares where the vote differs from pi*, with its exact eps-greedy cost"
      "\nand the median number of visits per SARSA run (all squares: "
      f"{np.median(visits_m[is_sarsa][:, DECIDE]):.0f})")
for s in np.flatnonzero(DECIDE & (vote_sarsa != pi_star)):
    cost = Q_soft[s].max() - Q_soft[s, vote_sarsa[s]]
    print(f"  square {s}: vote {ARROWS[vote_sarsa[s]]}, pi* {ARROWS[pi_star[s]]},"
          f" costs {cost:.4f}, visits {np.median(visits_m[is_sarsa][:, s]):5.0f}")

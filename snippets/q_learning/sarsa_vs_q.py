EPS = 0.2                                           # keep exploring, never decay
is_sarsa = np.arange(20) >= 10                      # runs 0-9 Q-learning, 10-19 SARSA
Qm, visits_m, _ = run_q_learning(20, STEPS, seed=1, eps=EPS, sarsa=is_sarsa)

def eps_soft(pi, eps=EPS):
    """Action probabilities of acting eps-greedily around deterministic pi."""
    return (1 - eps) * np.eye(N_A)[pi] + eps / N_A

pols = Qm.argmax(axis=-1)
est_greedy = Qm[:, START].max(axis=1)               # estimate, read as greedy
est_soft = (eps_soft(pols)[:, START] * Qm[:, START]).sum(axis=1)
true_greedy = policy_value(pols)[:, START]
true_soft = policy_value(eps_soft(pols))[:, START]
print("mean over 10 runs     estimate | exact V(S): greedy   eps-greedy")
for name, r, est in (("Q-learning", ~is_sarsa, est_greedy),
                     ("SARSA", is_sarsa, est_soft)):
    print(f"{name:20s} {est[r].mean():8.3f} | {true_greedy[r].mean():17.3f}"
          f" {true_soft[r].mean():12.3f}")

votes = np.eye(N_A)[pols]                           # (runs, squares, actions)
print("action most runs pick on the top row, Q-learning | SARSA:",
      " ".join(ARROWS[a] for a in votes[~is_sarsa].sum(0).argmax(-1)[:4]), "|",
      " ".join(ARROWS[a] for a in votes[is_sarsa].sum(0).argmax(-1)[:4]))

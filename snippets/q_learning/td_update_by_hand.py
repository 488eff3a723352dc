def epsilon_greedy(q, eps, coin, random_action):
    """Rows of q are runs. Greedy action per run, or random_action where coin < eps."""
    return np.where(coin < eps, random_action, q.argmax(axis=-1))

def td_update(Q, s, a, r, s2, a2, end, alpha=0.1, gamma=GAMMA):
    """One TD step for every run at once, in place; returns the TD errors.
    The target bootstraps from Q[s2, a2]: a2 = argmax gives Q-learning,
    a2 = the action actually taken next gives SARSA."""
    run = np.arange(len(s))
    delta = r + gamma * Q[run, s2, a2] * (1 - end) - Q[run, s, a]
    Q[run, s, a] += alpha * delta
    return delta

Q = np.zeros((1, N_S, N_A))                    # one run, all estimates start at 0
one = lambda x: np.array([x])                  # a batch of one run
d1 = td_update(Q, one(14), one(1), one(1.0), one(15), one(0), one(True))
d2 = td_update(Q, one(13), one(1), one(STEP_COST), one(14), one(1), one(False))
print(f"14 -> goal:  TD error {d1[0]:+.3f}, Q[14, >] = {Q[0, 14, 1]:+.4f}")
print(f"13 -> 14:    TD error {d2[0]:+.3f}, Q[13, >] = {Q[0, 13, 1]:+.4f}")

def reward_to_go_bootstrap(rewards, dones, last_values, gamma):
    """Like reward_to_go_batch, but a row cut off by the buffer (not ended) starts
    from the critic's estimate of the state where it was cut, last_values[i]."""
    G = np.zeros_like(rewards, dtype=float)
    running = np.asarray(last_values, dtype=float).copy()
    for t in range(rewards.shape[1] - 1, -1, -1):
        running = rewards[:, t] + gamma * running * (1 - dones[:, t])
        G[:, t] = running
    return G

cut = np.array([[1.0, 1, 1, 1, 1, 1]])  # six steps of +1, episode still running
no_end = np.zeros_like(cut)
print("pretend it ended:", reward_to_go_batch(cut, no_end, 0.9).round(3))
print("bootstrap V=10 :", reward_to_go_bootstrap(cut, no_end, [10.0], 0.9).round(3))
print(f"true G_0 of +1 forever: {1 / (1 - 0.9):.3f}")

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
# zero is an estimate too: the error at step 0 is the estimate's error times 0.9**6
start_errors = {v: reward_to_go_bootstrap(cut, no_end, [v], 0.9)[0, 0] - 10
                for v in (0.0, 7.0, 25.0)}
for v, err in start_errors.items():
    print(f"start from {v:4.1f}: error at step 0 {err:+.3f} "
          f"= {0.9**6:.3f} x ({v:4.1f} - 10)")

def reward_to_go_batch(rewards, dones, gamma):
    """Reward-to-go for a (runs, steps) array; dones[:, t] is 1 where an episode ends.
    Loops backwards over time once and over runs not at all (one run per row)."""
    G = np.zeros_like(rewards, dtype=float)
    running = np.zeros(rewards.shape[0])
    for t in range(rewards.shape[1] - 1, -1, -1):
        # an episode ending at t takes nothing from column t+1, the next episode
        running = rewards[:, t] + gamma * running * (1 - dones[:, t])
        G[:, t] = running
    return G

rewards = np.array([[0, 0, 1, 0, 0, 1.0],
                    [1, 1, 1, 1, 1, 1.0]])
dones = np.array([[0, 0, 1, 0, 0, 1],
                  [0, 0, 0, 0, 0, 1]])
print(reward_to_go_batch(rewards, dones, 0.9).round(3))

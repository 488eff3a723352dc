def reward_to_go(rewards, gamma=0.99):
    """G_t = r_t + gamma * G_{t+1}, computed backwards along axis 0 (time)."""
    out = np.zeros_like(rewards, dtype=float)
    future = np.zeros_like(rewards[0], dtype=float)
    for t in range(len(rewards) - 1, -1, -1):
        future = rewards[t] + gamma * future
        out[t] = future
    return out


print(reward_to_go(np.array([1.0, 1.0, 1.0, 0.0, 0.0]), gamma=0.5))

import numpy as np

def reward_to_go(rewards, gamma):
    """G_t for every step of one episode, in one backward pass over a numpy array."""
    rewards = np.asarray(rewards, dtype=float)
    G = np.zeros_like(rewards)
    running = 0.0
    for t in range(len(rewards) - 1, -1, -1):
        running = rewards[t] + gamma * running
        G[t] = running
    return G

print(reward_to_go([0, 0, 1], 0.9).round(4))
print(reward_to_go([-1, -1, -1, -1, 10], 0.5).round(4))

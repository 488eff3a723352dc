def gae(rewards, values, last_value, gamma, lam):
    """Generalised advantage estimates for one stretch of experience.
    values[t] = V(s_t); last_value = V(s_T), or 0 if the episode terminated."""
    next_values = np.append(values[1:], last_value)
    deltas = rewards + gamma * next_values - values  # one TD error per step
    adv, running = np.zeros_like(deltas), 0.0
    for t in range(len(deltas) - 1, -1, -1):
        running = deltas[t] + gamma * lam * running
        adv[t] = running
    return adv, deltas


# a six-step cart-pole episode that ends with the fall, and an imperfect critic
rewards = np.ones(6)
values = np.array([4.0, 4.5, 3.0, 2.5, 1.0, 0.5])
for lam in (0.0, 0.95, 1.0):
    adv, deltas = gae(rewards, values, 0.0, gamma=0.99, lam=lam)
    print(f"lambda {lam:4.2f}: A = {adv.round(3)}")

a0, deltas = gae(rewards, values, 0.0, gamma=0.99, lam=0.0)
a1, _ = gae(rewards, values, 0.0, gamma=0.99, lam=1.0)
mc = reward_to_go(rewards, gamma=0.99) - values
print("lambda 0 equals the TD errors:        ", np.abs(a0 - deltas).max() < 1e-12)
print("lambda 1 equals G_t - V(s_t) (Monte Carlo):", np.abs(a1 - mc).max() < 1e-12)

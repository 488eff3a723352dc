def discounted_return(rewards, gamma):
    """Sum of gamma**k * rewards[k]: the return seen from the first step."""
    return sum(gamma**k * r for k, r in enumerate(rewards))

rewards = [0.0, 0.0, 1.0]  # r_1, r_2, r_3: nothing, nothing, then the prize
gamma = 0.9
G = [discounted_return(rewards[t:], gamma) for t in range(len(rewards))]
for t, g in enumerate(G):
    print(f"G_{t} = {round(g, 10):g}")

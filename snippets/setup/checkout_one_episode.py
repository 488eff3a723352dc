def shop_step(device, page, rng):
    """The environment: answer one action with a reward and the next state."""
    reward = float(rng.random() < BUY[device, page])
    if rng.random() >= COME_BACK[page]:
        return reward, None  # the customer never returns: the episode ends
    return reward, int(rng.random() >= P_MOBILE)  # 0 = mobile, 1 = desktop

def run_customer(policy, rng):
    """The agent-environment loop for one customer, first visit to last."""
    device, trajectory = int(rng.random() >= P_MOBILE), []
    while device is not None:
        page = rng.choice(len(PAGES), p=policy[device])  # the agent acts
        reward, next_device = shop_step(device, page, rng)
        trajectory.append((DEVICES[device], PAGES[page], reward))
        device = next_device
    return trajectory

uniform = np.full((2, 3), 1 / 3)  # policy: row = state, column = P(action)
rng = np.random.default_rng(11)
episode = run_customer(uniform, rng)
for t, (state, action, reward) in enumerate(episode):
    print(f"t={t}  state={state:7s}  action=page {action}  reward={reward:.0f}")

print(f"return of this episode: {sum(r for _, _, r in episode):.0f}")

import gymnasium as gym

# Drive gymnasium's CartPole-v1 and our function with the same random pushes.
env = gym.make("CartPole-v1").unwrapped
obs, _ = env.reset(seed=0)
ours = obs.astype(np.float64)
pushes = np.random.default_rng(0).integers(0, 2, size=200)
worst, steps = 0.0, 0
for a in pushes:
    obs, reward, terminated, truncated, _ = env.step(int(a))
    ours, fallen = cartpole_step(ours, a == 1)
    worst = max(worst, float(np.abs(obs - ours).max()))
    steps += 1
    if terminated:
        break

print(f"gymnasium: the pole fell after {steps} steps; ours fell then too: {fallen}")
print(f"states agree to within 1e-6 at every step: {worst < 1e-6}")

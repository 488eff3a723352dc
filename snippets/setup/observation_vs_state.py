# What Gymnasium's cart-pole hands the agent, against what decides its future.
import gymnasium as gym

env = gym.make("CartPole-v1")
obs, _ = env.reset(seed=0)
for t in range(100):                                # push towards the side it leans to
    obs, reward, terminated, truncated, _ = env.step(int(obs[2] + 0.5 * obs[3] > 0))

names = ["cart position", "cart velocity", "pole angle", "pole angular velocity"]
shown = [f"{n} {v:+.3f}" for n, v in zip(names, obs)]
# Two lines, so that each fits the page (max_output_width).
print("observation after 100 steps:", ", ".join(shown[:2]) + ",")
print("   ", ", ".join(shown[2:]))
print("the physics inside holds the same four numbers:",
      np.allclose(obs, env.unwrapped.state, atol=1e-6))
print(f"also deciding the future, unobserved: step {env._elapsed_steps} "
      f"of the {env.spec.max_episode_steps}-step time limit")

# Keep only the positions (a camera still frame shows no velocities): two states
# that look the same, pushed the same way, move apart.
sim = gym.make("CartPole-v1").unwrapped
_ = sim.reset(seed=0)
after_push = {}
# Said once, above the rows, so that each row fits the page (max_output_width).
print("what a camera still frame sees, (position, angle):")
for cart_velocity in (+0.5, -0.5):
    sim.state = np.array([0.0, cart_velocity, 0.05, 0.0])
    seen = sim.state[[0, 2]]
    after = after_push[cart_velocity] = sim.step(1)[0][[0, 2]]
    print(f"cart velocity {cart_velocity:+.1f}: seen ({seen[0]:+.3f}, {seen[1]:+.3f}); "
          f"pushed right ({after[0]:+.3f}, {after[1]:+.3f})")

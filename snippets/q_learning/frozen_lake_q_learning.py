# The same agent, written for one run: epsilon-greedy action, TD update, reset.
rng = np.random.default_rng(0)
Q_fl = np.zeros((n_s, n_a))
s, _ = env.reset(seed=0)
_ = env.action_space.seed(0)
wins, ends, checkpoints = [], [], []
for t in range(30_000):
    if rng.random() < max(0.05, np.exp(-t / 5000)):
        a = int(env.action_space.sample())
    else:
        a = int(Q_fl[s].argmax())
    s2, r, terminated, truncated, _ = env.step(a)
    target = r + (0.0 if terminated else G_FL * Q_fl[s2].max())
    Q_fl[s, a] += 0.1 * (target - Q_fl[s, a])
    s = s2
    if terminated or truncated:                     # either way, a new episode
        wins.append(r)
        ends.append(t + 1)
        s, _ = env.reset()
    if (t + 1) % 1000 == 0:
        checkpoints.append(Q_fl.argmax(axis=1))

pi_learned = checkpoints[-1]
v_learned = policy_value(pi_learned, R_fl, P_fl, G_FL, live)[0]
print(f"{len(wins)} episodes; share won among the last 500: {np.mean(wins[-500:]):.3f}")
print(f"greedy policy reaches G with probability {success(pi_learned):.3f}"
      f" (optimum {success(pi_fl):.3f})")
print(f"its V(start) {v_learned:.3f}, V*(start) {V_fl[0]:.3f}")
explorer = eps_soft(pi_learned, 0.05)               # the same policy, 5 % random
print(f"with 5 % random actions it reaches G with probability {success(explorer):.3f}")

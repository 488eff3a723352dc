import gymnasium as gym

env = gym.make("FrozenLake-v1", is_slippery=True)   # 4x4, 100-step time limit
n_s, n_a = env.observation_space.n, env.action_space.n
# The model, only to compute the exact answer; the learner never reads it.
P_fl, R_fl = np.zeros((n_s, n_a, n_s)), np.zeros((n_s, n_s))
for s, by_action in env.unwrapped.P.items():
    for a, outcomes in by_action.items():
        for p, s2, r, _ in outcomes:
            P_fl[s, a, s2] += p
            R_fl[s, s2] = r

desc = "".join(row.decode() for row in env.unwrapped.desc.flatten())
live = np.array([ch in "SF" for ch in desc])        # holes and the goal end it
G_FL = 0.99
V_fl, _ = value_iteration(R_fl, P_fl, G_FL, live)
pi_fl = backup(V_fl, R_fl, P_fl, G_FL).argmax(axis=1)

def success(pi, limit=100):
    """Exact chance of reaching G within the time limit. Like policy_value, pi
    holds actions (..., 16) or action probabilities (..., 16, 4)."""
    pi = np.asarray(pi)
    if pi.dtype.kind in "iu":
        pi = np.eye(n_a)[pi]
    M = np.einsum("...sa,sat->...st", pi, P_fl)
    M[..., ~live, :] = np.eye(n_s)[~live]
    return np.linalg.matrix_power(M, limit)[..., 0, desc.index("G")]

print(desc[0:4], desc[4:8], desc[8:12], desc[12:16], sep="\n")
print(f"optimal policy: V*(start) = {V_fl[0]:.3f}, reaches G within 100 steps "
      f"with p = {success(pi_fl):.3f}")

from torch.func import grad, vmap

# a half-trained policy: seed 0 with the baseline, stopped after 10 iterations
_, half = train_reinforce([0], [True], iterations=10, lr=0.02, rng_seed=1)
half = [p.detach() for p in half]
rng = np.random.default_rng(2)
N_EPISODES = 1000
# 50 separate probe episodes give the baselines: a constant b, and a critic
# V(s) fitted by least squares on quadratic features of the state
probe_states, _, probe_alive = rollout(half, 50, rng)
probe_G = reward_to_go(probe_alive.astype(float))[probe_alive]
b = probe_G.mean()


def quad(s):
    """Features 1, s_i and s_i * s_j of a batch of states s, shape (N, 4)."""
    pairs = (s[:, :, None] * s[:, None]).reshape(len(s), -1)
    return np.concatenate([np.ones((len(s), 1)), s, pairs], 1)


critic_w = np.linalg.lstsq(quad(probe_states[probe_alive]), probe_G, rcond=None)[0]
states, actions, alive = rollout(half, N_EPISODES, rng)
t, ep = np.nonzero(alive[:, 0])
G = reward_to_go(alive.astype(float))[t, 0, ep]
V = quad(states[t, 0, ep]) @ critic_w


def log_prob(params, state, action):
    logits = policy_logits(params, state[None, None])[0, 0]
    return torch.log_softmax(logits, -1).gather(0, action[None])[0]


# one row per step taken: the gradient of log pi(a_t | s_t), all parameters
per_step = vmap(grad(log_prob), in_dims=(None, 0, 0))(
    half, torch.as_tensor(states[t, 0, ep]), torch.as_tensor(actions[t, 0, ep]).long())

J = torch.cat([g.reshape(len(t), -1) for g in per_step], 1).numpy()
print(f"{len(t)} steps in {N_EPISODES} episodes, {J.shape[1]} parameters, "
      f"b = {b:.1f}")

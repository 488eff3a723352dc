def collect(env, agents, rng):
    """One fresh episode in every environment; env.shape = (agents, envs per agent).
    Returns arrays of shape (agents, T, envs); `mask` marks steps before the fall.
    """
    K, N = env.shape
    obs, alive = env.reset(), np.ones((K, N), bool)
    cols = {c: [] for c in ("obs", "act", "logp", "mask", "term")}
    for _ in range(env.max_steps):
        with torch.no_grad():
            logits = agents.net("actor", torch.from_numpy(obs).float())
            logp_all = F.log_softmax(logits, -1).numpy()
        act = (rng.random((K, N)) < np.exp(logp_all[..., 1])).astype(np.int64)
        for c, x in zip(cols, (obs, act, np.where(act, logp_all[..., 1],
                                                  logp_all[..., 0]), alive)):
            cols[c].append(x)
        obs, fell = env.step(act)
        cols["term"].append(fell & alive)          # a real ending: no bootstrap
        alive = alive & ~fell
        if not alive.any():
            break
    b = {c: np.stack(v, 1) for c, v in cols.items()}
    T = b["act"].shape[1]
    with torch.no_grad():
        flat_obs = torch.from_numpy(b["obs"].reshape(K, T * N, 4)).float()
        b["value"] = agents.net("critic", flat_obs).numpy().reshape(K, T, N)
        last = agents.net("critic", torch.from_numpy(obs).float()).numpy()[..., 0]
    b["last_value"] = np.where(alive, last, 0.0)   # cut off at 200: bootstrap
    b["rew"] = b["mask"].astype(float)
    return b


def advantages(b, gamma=0.99, lam=0.95):
    """GAE(lambda) from the critic, and the critic-free discounted return-to-go."""
    K, T, N = b["rew"].shape
    gae, ret = np.zeros((K, T, N)), np.zeros((K, T, N))
    run_gae, run_ret, next_v = np.zeros((K, N)), np.zeros((K, N)), b["last_value"]
    for t in reversed(range(T)):
        live, cont = b["mask"][:, t], ~b["term"][:, t]
        delta = b["rew"][:, t] + gamma * cont * next_v - b["value"][:, t]
        run_gae = (delta + gamma * lam * cont * run_gae) * live
        run_ret = (b["rew"][:, t] + gamma * cont * run_ret) * live
        gae[:, t], ret[:, t], next_v = run_gae, run_ret, b["value"][:, t]
    return gae, ret


rng = np.random.default_rng(0)
b = collect(CartPoles((3, 4), rng), agents, rng)
gae, ret = advantages(b)
print(f"untrained agents: {b['mask'].sum(1).mean():.1f} steps per episode on average")
print(f"first step of episode 0: return-to-go {ret[0, 0, 0]:.2f}, "
      f"critic {b['value'][0, 0, 0]:+.3f}, GAE {gae[0, 0, 0]:.2f}")

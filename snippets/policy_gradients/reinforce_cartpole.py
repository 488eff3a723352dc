def train_reinforce(seeds, baseline, iterations=50, batch=8, lr=1e-2, rng_seed=0):
    """REINFORCE on cart-pole for several seeds at once. Each iteration plays
    `batch` episodes per policy and takes one Adam step. baseline: a bool per
    policy. Returns episode lengths (P, iterations * batch) and the parameters."""
    params = init_policies(seeds)
    opt = torch.optim.Adam(params, lr=lr)
    rng = np.random.default_rng(rng_seed)
    use_baseline = np.asarray(baseline, dtype=float)[None, :, None]
    lengths = []
    for it in range(iterations):
        states, actions, alive = rollout(params, batch, rng)
        lengths.append(alive.sum(0))
        G = reward_to_go(alive.astype(float))
        # leave-one-out baseline: the other episodes' mean reward-to-go at step t
        others = (G.sum(-1, keepdims=True) - G) / (batch - 1)
        weights = (G - use_baseline * others) * alive
        # one forward pass over every (state, action) of the iteration
        T, P, B = actions.shape
        def flat(a):  # (T, P, B, ...) -> (P, T * B, ...) torch tensor
            return torch.as_tensor(a.swapaxes(0, 1).reshape(P, T * B, *a.shape[3:]))
        logp = torch.log_softmax(policy_logits(params, flat(states)), -1)
        logp_taken = logp.gather(-1, flat(actions).long()[..., None])[..., 0]
        loss = -(logp_taken * flat(weights)).sum() / B
        opt.zero_grad()
        loss.backward()
        opt.step()
    return np.concatenate(lengths, -1), params

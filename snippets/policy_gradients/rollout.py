MAX_STEPS = 500


def rollout(params, n_episodes, rng):
    """Play n_episodes episodes with each of the P policies, all in lockstep.
    Returns states (T, P, B, 4), actions (T, P, B) and alive (T, P, B), where
    alive[t] marks episodes still running when action t was taken."""
    # acting needs no gradients: run the same network in numpy, on shared memory
    w1, b1, w2, b2 = (p.detach().numpy() for p in params)
    state = rng.uniform(-0.05, 0.05, size=(w1.shape[0], n_episodes, 4))
    alive = np.ones(state.shape[:2], dtype=bool)
    states, actions, alives = [], [], []
    for t in range(MAX_STEPS):
        logits = np.maximum(state @ w1 + b1, 0) @ w2 + b2
        p_right = 1 / (1 + np.exp(logits[..., 0] - logits[..., 1]))
        push_right = rng.random(p_right.shape) < p_right
        states.append(state), actions.append(push_right), alives.append(alive)
        state, fallen = cartpole_step(state, push_right)
        alive = alive & ~fallen
        if not alive.any():
            break
    return np.stack(states), np.stack(actions), np.stack(alives)

def episode_mean(values, group=ep):
    """Each step gets the mean of `values` over the steps of its own episode (or of
    its own `group`)."""
    return (np.bincount(group, values) / np.bincount(group))[group]


BATCH = ep // 8  # batches of 8 episodes, as a training loop standardises them


weightings = {
    "raw reward-to-go": G,
    "minus a constant b": G - b,
    "minus episode mean": G - episode_mean(G),
    "minus critic V(s_t)": G - V,
    "standardised": (G - episode_mean(G))
    / (np.sqrt(episode_mean((G - episode_mean(G)) ** 2)) + 1e-8),
    "standardised per 8": (G - episode_mean(G, BATCH))
    / np.sqrt(episode_mean((G - episode_mean(G, BATCH)) ** 2, BATCH)),
}
stats = {}
print(f"{'weights':20s} {'variance':>12s} {'|mean grad|':>12s} {'ratio':>7s}")
for name, w in weightings.items():
    # each episode's gradient estimate: sum over its steps of w_t * grad log pi
    per_episode = torch.zeros(N_EPISODES, J.shape[1], dtype=torch.float64).index_add_(
        0, torch.as_tensor(ep), torch.as_tensor(w[:, None] * J)).numpy()
    var = per_episode.var(0).sum()
    signal = np.linalg.norm(per_episode.mean(0))
    stats[name] = (var, signal, signal / np.sqrt(var))
    print(f"{name:20s} {var:12.1f} {signal:12.3f} {signal / np.sqrt(var):7.3f}")

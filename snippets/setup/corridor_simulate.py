def corridor(p_right, n_episodes=10_000, n_squares=9, seed=0):
    """Run many corridor episodes side by side, one entry per episode.
    Returns a boolean array (did the episode end on the right, paying 1.0?)
    and the total number of visits to each square over all episodes.
    """
    rng = np.random.default_rng(seed)
    pos = np.full(n_episodes, n_squares // 2)  # everyone starts in the middle
    alive = np.ones(n_episodes, dtype=bool)
    visits = np.zeros(n_squares, dtype=int)
    while alive.any():
        visits += np.bincount(pos[alive], minlength=n_squares)
        step = np.where(rng.random(n_episodes) < p_right, 1, -1)
        pos = np.where(alive, pos + step, pos)
        alive &= (pos > 0) & (pos < n_squares - 1)  # both ends are terminal
    return pos == n_squares - 1, visits

P_RIGHTS = (0.3, 0.5, 0.7)
N_EPISODES = 10_000
share, visits_per_episode = {}, {}
print("p(right)  found 1.0   mean visits per episode to squares 1..7")
for p in P_RIGHTS:
    reached, visits = corridor(p, N_EPISODES)
    share[p] = reached.mean()
    visits_per_episode[p] = visits / N_EPISODES
    row = " ".join(f"{v:5.2f}" for v in visits_per_episode[p][1:-1])
    print(f"{p:8.1f}  {share[p]:9.3f}   {row}")

# Sutton and Barto's Example 6.7. From A, "right" ends the episode at once with reward
# 0; "left" moves to B with reward 0, and each of B's B_ACTIONS actions ends the
# episode with a reward drawn from N(-0.1, 1). Every path through B is worth -0.1, so
# "right" is optimal, and an eps-greedy agent with eps = 0.1 should go left only
# eps / 2 = 5 % of the time.

def pick(rng, q, eps):
    """eps-greedy for each run, q[action, run], ties broken at random (they are, at
    first). Actions on the first axis: the max over 10 actions is then 10 rows taken
    at once, not 10,000 short rows; the draws are made run by run all the same."""
    best = q == q.max(axis=0)
    greedy = np.argmax(best * rng.random(q.shape[::-1]).T, axis=0)
    explore = rng.random(q.shape[1]) < eps
    return np.where(explore, rng.integers(q.shape[0], size=q.shape[1]), greedy)


def two_state_runs(double, runs, seed=0):
    """Whether each run went left from A, and its estimate of Q(A, left) (the mean of
    both tables for double Q), per episode: two (episodes, runs) arrays.
    Undiscounted; the tables start at zero."""
    rng = np.random.default_rng(seed)
    row = np.arange(runs)
    qa = np.zeros((2, 2, runs))                     # two tables; A's actions: 0 = left
    qb = np.zeros((2, B_ACTIONS, runs))             # Q-learning uses table 0 only
    went_left = np.zeros((EPISODES_AB, runs), dtype=bool)
    q_left = np.zeros((EPISODES_AB, runs))          # estimate of Q(A, left) after each
    for ep in range(EPISODES_AB):
        a = pick(rng, qa.sum(0) if double else qa[0], EPS_AB)
        left = a == 0
        went_left[ep] = left
        b = pick(rng, qb.sum(0) if double else qb[0], EPS_AB)
        r = rng.normal(B_MEAN, 1.0, runs)
        # which table learns this episode: a coin per run for double Q, always 0 else
        k = rng.integers(2, size=runs) if double else np.zeros(runs, dtype=int)
        if double:                                  # the other table rates the choice
            choice = qb[k, :, row].argmax(-1)
            future = qb[1 - k, choice, row]
        else:                                       # one table chooses and rates it
            future = qb[0].max(0)
        target_a = np.where(left, future, 0.0)      # "right" ends with reward 0
        qa[k, a, row] += ALPHA_AB * (target_a - qa[k, a, row])
        step_b = np.where(left, ALPHA_AB, 0.0)      # only runs that reached B learn
        qb[k, b, row] += step_b * (r - qb[k, b, row])
        q_left[ep] = qa[:, 0].mean(0) if double else qa[0, 0]
    return went_left, q_left


# 10 groups of 1,000 runs each, all in one batch: the spread between the groups'
# means shows how much of a curve is noise
SEEDS_AB, RUNS_AB = 10, 1000
left_share, q_left_mean = {}, {}
for name, double in (("Q-learning", False), ("double Q-learning", True)):
    went, q_left = two_state_runs(double, SEEDS_AB * RUNS_AB)
    left_share[name] = went.reshape(EPISODES_AB, SEEDS_AB, RUNS_AB).mean(-1).T
    q_left_mean[name] = q_left.mean(-1)                  # over all 10,000 runs

blocks = {"1-10": slice(0, 10), "11-50": slice(10, 50), "51-100": slice(50, 100),
          "101-300": slice(100, 300)}
print(f"share of 'left' from A, mean ± std over {SEEDS_AB} groups of {RUNS_AB:,} runs "
      f"(optimal {EPS_AB / 2:.0%})")
print(f"{'episodes':>17s}" + "".join(f"{k:>14s}" for k in blocks))
for name, share in left_share.items():
    cells = [share[:, s].mean(1) for s in blocks.values()]
    print(f"{name:>17s}" + "".join(f"{c.mean():7.3f} ±{c.std():.3f}" for c in cells))

print(f"mean estimate of Q(A, left) (true value {B_MEAN})")
print(f"{'after episode':>17s}" + "      10      50     300")
for name, q in q_left_mean.items():
    at_episodes = "".join(f"{q[e - 1]:+8.3f}" for e in (10, 50, 300))
    print(f"{name:>17s}" + at_episodes)

def simulate(strategies, rates, horizon, runs=400, seed=0, discount=1.0, every=100):
    """Play each strategy `runs` times against the same stream of visitors.
    Why arrays: every array has one row per run, so one numpy operation moves
    all 400 runs of a strategy forward by one visitor. Python loops over
    visitors (time), never over runs, which is what makes thousands of
    simulated experiments take seconds instead of minutes.
    """
    rng = np.random.default_rng(seed)  # the visitors' dice, shared by all strategies
    rates = np.broadcast_to(np.asarray(rates, float), (horizon, K))
    gaps = rates.max(axis=1, keepdims=True) - rates
    shape = (len(strategies), runs, K)
    n = np.zeros(shape)  # visitors shown each page, per strategy and run
    s = 1e-9 * rng.random(shape)  # sign-ups; the speck of noise breaks ties at random
    page = np.zeros(shape[:2], dtype=int)  # the page each run shows this visitor
    row_start = np.arange(page.size) * K  # where each run's row begins in n.flat
    lost = np.zeros(shape[:2])
    regret, visits = [], []
    for t in range(horizon):
        for i, choose in enumerate(strategies):
            page[i] = choose(t, n[i], s[i]).argmax(axis=-1)
        signed_up = rng.random(runs) < rates[t][page]  # same visitor in each strategy
        if discount < 1:  # fade old evidence, for rates that drift
            n *= discount
            s *= discount
        cell = row_start + page.ravel()
        n.reshape(-1)[cell] += 1
        s.reshape(-1)[cell] += signed_up.ravel()
        lost += gaps[t][page]
        if (t + 1) % every == 0:  # keep a snapshot every `every` visitors
            regret.append(lost.copy())
            visits.append(n.copy())
    return np.array(regret), np.array(visits)


def at(horizon, every=100):
    """Index of the snapshot taken after `horizon` visitors."""
    return horizon // every - 1

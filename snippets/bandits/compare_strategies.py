TUNED = f"UCB c = {C_TUNED:.2f}"
STRATEGIES = {
    "pilot, 50 per page": pilot(50),
    "pilot, 300 per page": pilot(300),
    "eps-greedy 0.1": epsilon_greedy(0.1, seed=1),
    "eps-greedy 0.01": epsilon_greedy(0.01, seed=2),
    "UCB c = 2": ucb(2.0),
    TUNED: ucb(C_TUNED),
    "Thompson": thompson(seed=3),
}
NAMES = list(STRATEGIES)
HORIZONS = (2_000, 20_000)
# one simulation of 20,000 visitors; the 2,000 horizon is read from its snapshots
regret, visits = simulate(list(STRATEGIES.values()), RATES, max(HORIZONS))
lost, spread, wrong = {}, {}, {}
for h in HORIZONS:
    settled = visits[at(h)].argmax(axis=2)  # the page each run has shown most
    for i, name in enumerate(NAMES):
        lost[name, h] = regret[at(h), i].mean()
        spread[name, h] = regret[at(h), i].std()
        wrong[name, h] = (settled[i] != 2).mean()

print(f"{'sign-ups lost (mean ± sd)':21s}" + "".join(
    f"{f'{h:,} visitors':>17s}{'wrong':>7s}" for h in HORIZONS))

for name in NAMES:
    print(f"{name:21s}" + "".join(
        f"{lost[name, h]:9.1f} ± {spread[name, h]:5.1f}{wrong[name, h]:7.1%}"
        for h in HORIZONS))

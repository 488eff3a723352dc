constants = (2.0, 0.5, C_TUNED, 0.05, 0.01)
sweep, sweep_visits = simulate([ucb(c) for c in constants], RATES, 5_000, seed=7)
for i, c in enumerate(constants):
    wrong_c = (sweep_visits[-1, i].argmax(axis=1) != 2).mean()
    print(f"c = {c:4.2f}: lost {sweep[-1, i].mean():5.1f}, wrong page {wrong_c:5.1%}")

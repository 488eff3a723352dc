locked, found = {}, {}
for baseline in (False, True):
    pis5 = reinforce_bandit(win, pulls=400, runs=1000, lr=0.1, offset=5.0,
                            baseline=baseline, seed=1)
    locked[baseline] = (pis5[-1, :, :2] > 0.9).any(1).mean()  # A or B above 0.9
    found[baseline] = (pis5[-1, :, 2] > 0.9).mean()
    print(f"baseline {baseline!s:5}: locked on A or B {locked[baseline]:6.1%}, "
          f"on C {found[baseline]:6.1%}, median pi(C) "
          f"{np.median(pis5[-1, :, 2]):.3f}")

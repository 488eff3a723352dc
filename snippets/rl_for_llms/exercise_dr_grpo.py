hard = [1, 0, 0, 0, 0, 0, 0, 0]  # one success in eight
even = [1, 1, 1, 1, 0, 0, 0, 0]  # four in eight
for name, fn in [("centred only (Dr. GRPO)", lambda g: np.asarray(g) - np.mean(g)),
                 ("GRPO, sample std", lambda g: grpo_adv(g, ddof=1))]:
    w_hard, w_even = np.abs(fn(hard)).sum(), np.abs(fn(even)).sum()
    print(f"{name:24} total |A|: hard {w_hard:.2f}, even {w_even:.2f},"
          f" ratio {w_hard / w_even:.2f}")

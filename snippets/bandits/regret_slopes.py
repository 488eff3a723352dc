def loss_rate(a, b):
    """Sign-ups lost per 1,000 visitors between visitor a and visitor b."""
    return (regret[at(b)] - regret[at(a)]).mean(axis=1) * 1_000 / (b - a)


early, late = loss_rate(1_000, 2_000), loss_rate(19_000, 20_000)
growth = {}
print(f"{'lost per 1,000 visitors':21s}{'1k-2k':>8s}{'19k-20k':>9s}{'late/early':>12s}")
for i, name in enumerate(NAMES):
    growth[name] = late[i] / early[i]
    print(f"{name:21s}{early[i]:8.2f}{late[i]:9.2f}{growth[name]:12.2f}")

from itertools import product

# a deterministic policy picks one page per device: 3 x 3 = 9 of them
ranked = []
for mobile_page, desktop_page in product(range(3), repeat=2):
    policy = np.zeros((2, 3))
    policy[0, mobile_page] = policy[1, desktop_page] = 1.0
    ranked.append((exact_value(policy), PAGES[mobile_page], PAGES[desktop_page]))

ranked.sort(reverse=True)
for value, m, d in ranked[:3]:
    print(f"mobile -> page {m}, desktop -> page {d}: value {value:.4f}")

print(f"worst: mobile -> {ranked[-1][1]}, desktop -> {ranked[-1][2]}: "
      f"{ranked[-1][0]:.4f}")

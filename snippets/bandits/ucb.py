import math


def ucb(c):
    def choose(t, n, s):
        seen = np.maximum(n, 1e-12)  # an unseen page gets an enormous bonus
        return s / seen + np.sqrt(c * math.log(t + 1) / seen)
    return choose


C_TUNED = 2 * 0.10 * (1 - 0.10)  # 2 sigma^2 for a sign-up rate of at most 10 %
for c in (2.0, C_TUNED):
    bonus = math.sqrt(c * math.log(2_000) / 500)
    print(f"c = {c:.2f}: bonus after 500 visits at visitor 2,000 = {bonus:.3f}")

print(f"gaps to beat: {GAPS[0]:.2f} and {GAPS[1]:.2f}")

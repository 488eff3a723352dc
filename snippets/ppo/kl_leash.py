import math


def leashed_reward(reward, pi, pi_ref, beta):
    """R' = R - beta * log(pi / pi_ref): pay for every nat of drift."""
    return reward - beta * math.log(pi / pi_ref)


print(f"pi 0.60 vs ref 0.30: R' = {leashed_reward(1.0, 0.6, 0.3, 0.1):.3f}")
print(f"pi 0.15 vs ref 0.30: R' = {leashed_reward(1.0, 0.15, 0.3, 0.1):.3f}")
# averaged over the policy's own answers, the fee is beta * KL(pi || pi_ref)
pi_now, pi_ref, R = np.array([0.6, 0.3, 0.1]), np.array([0.3, 0.5, 0.2]), np.ones(3)
fee = pi_now @ (R - np.array([leashed_reward(1.0, a, b, 0.1)
                              for a, b in zip(pi_now, pi_ref)]))

print(f"mean fee {fee:.4f} = beta * KL {0.1 * kl(pi_now, pi_ref):.4f}")

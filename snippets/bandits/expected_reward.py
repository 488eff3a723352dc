import numpy as np

WIN = np.array([0.2, 0.5, 0.8])  # machines A, B, C: chance that one pull pays 1


def expected_reward(policy):
    return float(policy @ WIN)  # J = sum over actions of pi(a) * R(a)


policies = {"uniform": np.full(3, 1 / 3), "always C": np.array([0.0, 0.0, 1.0])}
for name, policy in policies.items():
    J = expected_reward(policy)
    print(f"J({name}) = {J:.1f}    regret per pull = {WIN.max() - J:.1f}")

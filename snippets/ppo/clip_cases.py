import numpy as np


def ppo_term(rho, adv, eps=0.2):
    """PPO's per-sample objective: the smaller of the raw and the clipped term."""
    return np.minimum(rho * adv, np.clip(rho, 1 - eps, 1 + eps) * adv)


cases = [(1.1, +3.0), (1.5, +2.0), (0.5, -1.0), (1.5, -1.0)]
print(" rho    A   rho*A   clip(rho)*A    min")
for rho, adv in cases:
    raw, capped = rho * adv, np.clip(rho, 0.8, 1.2) * adv
    low = ppo_term(rho, adv)
    print(f"{rho:4.1f} {adv:+4.0f} {raw:+7.1f} {capped:+13.1f} {low:+6.1f}")

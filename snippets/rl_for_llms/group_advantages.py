def grpo_adv(r, ddof=0, eps=1e-4):
    """(r - mean) / (std + eps) within each group (last axis).
    ddof=0: population std; ddof=1: sample std, torch's default and TRL's."""
    r = np.asarray(r, float)
    centred = r - r.mean(axis=-1, keepdims=True)
    return centred / (r.std(axis=-1, ddof=ddof, keepdims=True) + eps)


def rloo_adv(r):
    """Each reward minus the mean of the other K - 1 rewards in its group."""
    r = np.asarray(r, float)
    k = r.shape[-1]
    return r - (r.sum(axis=-1, keepdims=True) - r) / (k - 1)


def fmt(v, digits=2):
    return "(" + ", ".join(f"{x:+.{digits}f}" for x in v) + ")"


for rewards in ([1, 0, 0, 0], [1, 1, 1, 1]):
    print(f"rewards {rewards}")
    print("  GRPO, population std", fmt(grpo_adv(rewards, ddof=0)))
    print("  GRPO, sample std    ", fmt(grpo_adv(rewards, ddof=1)))
    print("  RLOO                ", fmt(rloo_adv(rewards), 3))

def ppo_epoch(z, acts, adv, p_old, rng, lr, eps=0.2, minibatches=4):
    """One epoch: shuffle, then one gradient step per minibatch (eps=None: no clip)."""
    for idx in np.array_split(rng.permutation(len(acts)), minibatches):
        p = softmax(z)
        a, A = acts[idx], adv[idx]
        rho = p[a] / p_old[a]
        live = np.ones_like(rho, bool) if eps is None else ~(
            ((A > 0) & (rho > 1 + eps)) | ((A < 0) & (rho < 1 - eps)))
        w = live * A * rho
        z = z + lr * (np.bincount(a, w, len(z)) - w.sum() * p) / len(idx)
    return z


rng = np.random.default_rng(3)
n_actions, batch = 10, 64
z_old = rng.normal(0, 0.5, n_actions)         # a random starting policy
p_old = softmax(z_old)
payoff = rng.normal(0, 1, n_actions)          # hidden mean reward of each action
acts = rng.choice(n_actions, batch, p=p_old)
adv10 = payoff[acts] + rng.normal(0, 1, batch)
adv10 = (adv10 - adv10.mean()) / adv10.std()  # normalised, as PPO does

z_clip, z_raw = z_old.copy(), z_old.copy()
# Two generators with one seed: both runs see the same minibatch shuffles, so the
# clip is the only difference between them.
shuffle_clip, shuffle_raw = np.random.default_rng(4), np.random.default_rng(4)
kl_by_epoch, kl_raw_by_epoch, outside_by_epoch, ratio_max = [], [], [], []
print("epoch  outside [0.8,1.2]  largest ratio  KL clipped  KL unclipped")
for epoch in range(1, 11):
    z_clip = ppo_epoch(z_clip, acts, adv10, p_old, shuffle_clip, lr=2.0)
    z_raw = ppo_epoch(z_raw, acts, adv10, p_old, shuffle_raw, lr=2.0,
                      eps=None)
    rho = softmax(z_clip)[acts] / p_old[acts]
    kl_by_epoch.append(kl(p_old, softmax(z_clip)))
    outside_by_epoch.append(np.mean((rho < 0.8) | (rho > 1.2)))
    ratio_max.append(rho.max())
    kl_raw_by_epoch.append(kl(p_old, softmax(z_raw)))
    print(f"{epoch:5d}  {outside_by_epoch[-1]:16.0%}  {ratio_max[-1]:13.2f}"
          f"  {kl_by_epoch[-1]:10.4f}  {kl_raw_by_epoch[-1]:12.4f}")

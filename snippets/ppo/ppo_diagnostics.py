def rows_of(name, seeds=4):
    j = list(VARIANTS).index(name)
    return slice(j * seeds, (j + 1) * seeds)


ppo = rows_of("PPO")
steps_per_round = 4 * 4                           # epochs x minibatches
on = np.array(log["on"])[:, ppo].reshape(-1, steps_per_round, 4)
taken = on.sum(1)                                 # gradient steps per round, per seed
kl_steps = np.array(log["kl"])[:, ppo][np.array(log["on"])[:, ppo]]
clipfrac = np.array(log["clipfrac"])[:, ppo][np.array(log["on"])[:, ppo]]
gnorm = np.array(log["gnorm"])[:, ppo][np.array(log["on"])[:, ppo]]
adv_std = np.array(log["adv_std"])
entropy = np.array(log["entropy"])[:, ppo].reshape(-1, steps_per_round, 4)

frozen = np.array(log["frozen"])[:, ppo][np.array(log["on"])[:, ppo]]
stats = {
    "early_stop_share": np.mean(taken < steps_per_round),
    "mean_steps": taken.mean(),
    "median_kl": np.median(kl_steps),
    "clipfrac": clipfrac.mean(), "frozen": frozen.mean(),
    "actor_norm": np.median(gnorm[:, 0]), "critic_norm": np.median(gnorm[:, 1]),
    "critic_clipped": np.mean(gnorm[:, 1] > 0.5),
    "actor_clipped": np.mean(gnorm[:, 0] > 0.5),
    "adv_std_first": adv_std[0, ppo].mean(), "adv_std_last": adv_std[-1, ppo].mean(),
    "ret_std_last": adv_std[-1, rows_of("REINFORCE")].mean(),
    "entropy_first": entropy[0, 0].mean(), "entropy_last": entropy[-1, 0].mean(),
}
LABELS = {
    "early_stop_share": "share of agent-rounds stopped early by KL",
    "mean_steps": "gradient steps taken per round, of 16",
    "median_kl": "median approximate KL (k3) per step, nats",
    "clipfrac": "clip fraction: ratios outside [0.8, 1.2]",
    "frozen": "frozen: past the band in A's direction",
    "actor_norm": "median grad norm before clipping, actor",
    "critic_norm": "median grad norm before clipping, critic",
    "critic_clipped": "share of steps with critic norm cut to 0.5",
    "actor_clipped": "share of steps with actor norm cut to 0.5",
    "adv_std_first": "std of raw GAE advantages, first round",
    "adv_std_last": "std of raw GAE advantages, last round",
    "ret_std_last": "std of REINFORCE's return-to-go, last round",
    "entropy_first": "policy entropy (nats), first round",
    "entropy_last": "policy entropy (nats), last round",
}
for key, val in stats.items():
    print(f"{LABELS[key]:43s} {val:7.3f}")

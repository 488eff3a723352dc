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

stats = {
    "early_stop_share": np.mean(taken < steps_per_round),
    "mean_steps": taken.mean(),
    "median_kl": np.median(kl_steps),
    "clipfrac": clipfrac.mean(),
    "actor_norm": np.median(gnorm[:, 0]), "critic_norm": np.median(gnorm[:, 1]),
    "critic_clipped": np.mean(gnorm[:, 1] > 0.5),
    "actor_clipped": np.mean(gnorm[:, 0] > 0.5),
    "adv_std_first": adv_std[0, ppo].mean(), "adv_std_last": adv_std[-1, ppo].mean(),
    "ret_std_last": adv_std[-1, rows_of("REINFORCE")].mean(),
    "entropy_first": entropy[0, 0].mean(), "entropy_last": entropy[-1, 0].mean(),
}
for key, val in stats.items():
    print(f"{key:17s} {val:8.3f}")

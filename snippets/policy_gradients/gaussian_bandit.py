# The sampled gradient at the starting policy, against the exact one.
rng_g = np.random.default_rng(0)
n_g = 100_000
acts = rng_g.normal(0.0, 1.0, n_g)                  # at mu = 0, sigma = 1
per_sample = continuous_reward(acts, rng_g) * gauss_score(acts, 0.0, 0.0)
mc_grad = per_sample.mean(1)
mc_err = per_sample.std(1) / np.sqrt(n_g)
print("REINFORCE estimate from 100,000 draws:", np.round(mc_grad, 3),
      "+/-", np.round(mc_err, 3))

# REINFORCE on the continuous task: 500 independent learners, each drawing 8 actions
# per step. The baseline of each draw is the mean reward of the other 7, which does
# not depend on that draw, so the estimate stays unbiased.
RUNS_G, DRAWS_G, STEPS_G, LR_G = 500, 8, 400, 0.05
rng_g = np.random.default_rng(1)
theta_g = np.zeros((2, RUNS_G))                     # rows: mu, log sigma; start N(0, 1)
trace_g = []
for step in range(STEPS_G):
    mu, log_sigma = theta_g[:, :, None]             # one column per draw
    a = mu + np.exp(log_sigma) * rng_g.normal(size=(RUNS_G, DRAWS_G))
    r = continuous_reward(a, rng_g)
    baseline = (r.sum(1, keepdims=True) - r) / (DRAWS_G - 1)
    theta_g += LR_G * ((r - baseline) * gauss_score(a, mu, log_sigma)).mean(-1)
    trace_g.append(theta_g.copy())

trace_g = np.array(trace_g)                         # (steps, 2, runs)
print(f"{'step':>5s} {'mean of mu':>11s} {'spread of mu':>13s} {'median sigma':>13s}")
for s in (0, 10, 50, 100, 200, STEPS_G - 1):
    mu_s, sigma_s = trace_g[s, 0], np.median(np.exp(trace_g[s, 1]))
    print(f"{s + 1:5d} {mu_s.mean():11.3f} {mu_s.std():13.3f} {sigma_s:13.3f}")

mu_final, sigma_final = trace_g[-1, 0], np.exp(trace_g[-1, 1])
# why the spread of mu grows: the reward's noise does not shrink with sigma, and the
# mu-score (a - mu) / sigma^2 scales it by 1 / sigma, so the noise of one draw's
# mu-estimate has a standard deviation of at least NOISE_A / sigma
# The final median sigma by its value, which the table shows: the line fits the page.
print(f"noise floor of one draw's mu-estimate: {NOISE_A / 1.0:.2f} at sigma 1, "
      f"{NOISE_A / np.median(sigma_final):.2f} at sigma {np.median(sigma_final):.3f}")

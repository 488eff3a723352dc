# One sampled answer of five tokens, scored once at the end (a verifier says 1.0).
# For each token: its probability under the policy being trained and under the
# frozen reference, and the critic's estimate V(s_t) of the return from there.
answer = ["The", " total", " is", " 12", "."]
p_policy = np.array([0.90, 0.60, 0.80, 0.50, 0.95])
p_ref = np.array([0.85, 0.40, 0.80, 0.20, 0.90])
v_critic = np.array([0.60, 0.62, 0.70, 0.75, 0.90])
beta_ex, score_ex = 0.05, 1.0

log_ratio_ex = np.log(p_policy) - np.log(p_ref)
kl_charge = 0.0 - beta_ex * log_ratio_ex            # every token pays its KL charge
r_ex = kl_charge.copy()
r_ex[-1] += score_ex                                # the score arrives on the last one
# GAE with gamma = lambda = 1, run backwards: delta_t = r_t + V(s_t+1) - V(s_t),
# A_t = delta_t + A_t+1, with V = 0 after the last token (the answer is over)
v_next = np.append(v_critic[1:], 0.0)
delta_ex = r_ex + v_next - v_critic
adv_ex = np.zeros(len(r_ex))
running = 0.0
for t in reversed(range(len(r_ex))):
    running = delta_ex[t] + running
    adv_ex[t] = running

to_go = np.cumsum(r_ex[::-1])[::-1]                 # sum of rewards from t to the end
print(f"{'t':>2s} {'token':>8s} {'log ratio':>10s} {'KL charge':>10s} {'r_t':>8s}"
      f" {'to go':>7s} {'V(s_t)':>7s} {'delta_t':>8s} {'A_t':>7s}")
for t, tok in enumerate(answer):
    print(f"{t:2d} {tok!r:>8s} {log_ratio_ex[t]:+10.4f} {kl_charge[t]:+10.4f}"
          f" {r_ex[t]:+8.4f} {to_go[t]:+7.4f} {v_critic[t]:7.2f} {delta_ex[t]:+8.4f}"
          f" {adv_ex[t]:+7.4f}")

print("A_t = (rewards from t to the end) - V(s_t) on every token:",
      np.allclose(adv_ex, to_go - v_critic, atol=1e-12))
print(f"critic's targets A_t + V(s_t): {np.round(adv_ex + v_critic, 4)}")

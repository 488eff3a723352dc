log_ratio = np.array([0.2, -0.1, 0.4, 0.0])  # log pi_theta/pi_ref for each token
beta, rm = 0.05, 0.8
token_reward = -beta * log_ratio
token_reward[-1] += rm  # the reward model speaks once, at the last token
print("per-token rewards:", np.round(token_reward, 3))
print(f"sum over the response {token_reward.sum():.3f}")
print(f"rm - beta * log-ratio of the whole sequence {rm - beta * log_ratio.sum():.3f}")

# a model that writes two tokens, each 0 or 1; rows: first token, then second | first
pol_first, pol_second = np.array([0.7, 0.3]), np.array([[0.9, 0.1], [0.4, 0.6]])
ref_first, ref_second = np.array([0.5, 0.5]), np.array([[0.5, 0.5], [0.2, 0.8]])
kl_first = kl(pol_first, ref_first)
kl_second = np.array([kl(pol_second[a], ref_second[a]) for a in (0, 1)])
per_token_sum = kl_first + pol_first @ kl_second  # expected KL of each step, added
pol_seq = (pol_first[:, None] * pol_second).ravel()  # sequences 00, 01, 10, 11
ref_seq = (ref_first[:, None] * ref_second).ravel()
print(f"KL first token {kl_first:.4f}; second token after 0: {kl_second[0]:.4f}, "
      f"after 1: {kl_second[1]:.4f}")
print(f"sum of per-token KLs      {per_token_sum:.4f}")
print(f"KL over whole sequences   {kl(pol_seq, ref_seq):.4f}")

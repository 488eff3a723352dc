rm_exp, w_exp, win_exp, lose_exp = ticket_reward_model(true_w, visible=[0, 1, 2, 3])
print(f"expert RM weights: right {w_exp[0]:+.2f}, json {w_exp[1]:+.2f}, "
      f"length {w_exp[2]:+.2f}, friendly {w_exp[3]:+.2f}")
print(f"expert RM agreement {np.mean(rm_exp[win_exp] > rm_exp[lose_exp]):.0%}")
rows_exp = ticket_sweep(rm_exp)
p_dpo_exp = dpo_fit(win_exp, lose_exp, p_sft, beta=0.5)
print(f"DPO on expert pairs: E[true] {p_dpo_exp @ ticket_true:+.2f}")

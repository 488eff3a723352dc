fast_w = np.array([0.0, 1.5, -1.5, 0.8])  # fast labellers cannot check the category


def ticket_reward_model(labeller_w, visible, n=400, seed=3):
    """Pairs sampled from the SFT model, judged by labellers with taste labeller_w,
    then a Bradley-Terry reward model on the feature columns it can see."""
    rng = np.random.default_rng(seed)
    i, j = rng.choice(6, n, p=p_sft), rng.choice(6, n, p=p_sft)
    i, j = i[i != j], j[i != j]
    u = ticket_f @ labeller_w
    i_wins = rng.random(len(i)) < 1 / (1 + np.exp(-(u[i] - u[j])))
    win, lose = np.where(i_wins, i, j), np.where(i_wins, j, i)
    x = ticket_f[:, visible]
    w, _ = fit_bradley_terry(x[win] - x[lose])
    return x @ w, w, win, lose


rm_fast, w_fast, win_fast, lose_fast = ticket_reward_model(fast_w, visible=[1, 2, 3])
agree_fast = np.mean(rm_fast[win_fast] > rm_fast[lose_fast])
print(f"{len(win_fast)} pairs; weights json {w_fast[0]:+.2f}, length {w_fast[1]:+.2f},"
      f" friendly {w_fast[2]:+.2f}; agreement {agree_fast:.0%}")

# Two answers look the same to this model; rounding makes the tie exact on every CPU,
# and a stable sort then lists them in a fixed order.
for k in np.argsort(-rm_fast.round(6), kind="stable"):
    print(f"   RM {rm_fast[k]:+.2f}  true {ticket_true[k]:+.2f}  {ticket[k]}")

names = ["wrong, short", "wrong, padded", "right, terse", "right, clear",
         "right, thorough", "right, padded"]
feats = np.array([[0, 0.6], [0, 3.8], [1, 0.5], [1, 1.2], [1, 2.2], [1, 3.8]])
p_base = np.array([0.15, 0.05, 0.20, 0.35, 0.20, 0.05])  # the model before RLHF
rm_score = feats @ w_rm  # the reward model fitted above
# what a reader gets: being right matters most; past ~120 tokens, padding costs time
true_util = 2.0 * feats[:, 0] - 0.8 * np.maximum(feats[:, 1] - 1.2, 0)
print(f"{'beta':>6} {'E[RM]':>7} {'E[true]':>8} {'KL':>6}   most likely answer")
sweep = {}
for b in [100, 10, 3, 1, 0.5, 0.3, 0.1]:
    p, _ = kl_optimum(p_base, rm_score, b)
    sweep[b] = (p @ rm_score, p @ true_util, kl(p, p_base))
    print(f"{b:6g} {sweep[b][0]:7.3f} {sweep[b][1]:8.3f} {sweep[b][2]:6.3f}"
          f"   {names[p.argmax()]} ({p.max():.2f})")

ticket = ["concise JSON, right", "JSON + friendly line, right", "concise JSON, WRONG",
          "friendly prose, right, no JSON", "short friendly JSON, WRONG",
          "terse 'billing?', no JSON"]
# features: right category?, valid JSON?, length (0 to 1), friendly line?
ticket_f = np.array([[1, 1, 0.15, 0], [1, 1, 0.35, 1], [0, 1, 0.15, 0],
                     [1, 0, 0.70, 1], [0, 1, 0.10, 1], [1, 0, 0.05, 0]])
true_w = np.array([3.0, 1.5, -1.5, 0.8])  # what the customer and the business value
ticket_true = ticket_f @ true_w
p_pre = np.array([0.10, 0.12, 0.18, 0.20, 0.25, 0.15])  # the base model


def show(p, label):
    print(f"{label}: E[true] {p @ ticket_true:+.2f}, KL from base {kl(p, p_pre):.2f}")
    for k in np.argsort(-p)[:3]:
        print(f"   {p[k]:.2f}  {ticket[k]:31} true {ticket_true[k]:+.2f}")


show(p_pre, "base")
rng = np.random.default_rng(2)
# 300 replies written by support agents, who mostly get it right
demos = rng.choice(6, 300, p=[0.38, 0.30, 0.05, 0.16, 0.03, 0.08])
target = np.bincount(demos, minlength=6) / len(demos)
sft_logits = np.log(p_pre)
for _ in range(300):
    p = np.exp(sft_logits) / np.exp(sft_logits).sum()
    sft_logits = sft_logits - 0.5 * (p - target)  # gradient of the cross-entropy

p_sft = np.exp(sft_logits) / np.exp(sft_logits).sum()
show(p_sft, "SFT")

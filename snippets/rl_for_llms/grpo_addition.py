_ = torch.manual_seed(0)
rng = np.random.default_rng(5)
prompts = [(a, b) for a in range(5) for b in range(5)]  # 25 sums from 0+0 to 4+4
answer = torch.tensor([a + b for a, b in prompts])
n_p, group = len(prompts), 8
# a "pretrained" start: right a third of the time, otherwise an off-by-one or a guess
start = np.full((n_p, 10), 0.02)
for i, s in enumerate(answer.tolist()):
    start[i, s] += 0.3
    start[i, max(s - 1, 0)] += 0.2
    start[i, min(s + 1, 9)] += 0.2

start = np.log(start / start.sum(1, keepdims=True)) + rng.normal(0, 0.3, (n_p, 10))
logits = torch.tensor(start, dtype=torch.float32, requires_grad=True)
opt = torch.optim.Adam([logits], lr=0.05)
acc_curve, unanimous = [], []
for step in range(80):
    probs = torch.softmax(logits, 1)
    acc_curve.append(probs[torch.arange(n_p), answer].mean().item())
    y = torch.multinomial(probs.detach(), group, replacement=True)  # (prompt, group)
    reward = (y == answer[:, None]).float()  # the verifier: right or wrong
    unanimous.append((reward.std(1) == 0).float().mean().item())
    adv = (reward - reward.mean(1, keepdim=True)) / (reward.std(1, keepdim=True) + 1e-4)
    log_pi = torch.log_softmax(logits, 1).gather(1, y)
    loss = -(adv * log_pi).mean()  # one update per batch, so the PPO ratio is 1
    opt.zero_grad()
    loss.backward()
    opt.step()

print(f"accuracy   step 0 {acc_curve[0]:.2f}  step 40 {acc_curve[40]:.2f}"
      f"  step 79 {acc_curve[-1]:.2f}")
print(f"unanimous  first 10 steps {np.mean(unanimous[:10]):.2f}"
      f"  last 10 steps {np.mean(unanimous[-10:]):.2f}")

# -- drawing the figure --
fig, ax = plt.subplots(figsize=(7, 3.5))
_ = ax.plot(acc_curve, label="accuracy: mean P(right answer)")
_ = ax.plot(unanimous, label="share of groups that agree (no signal)", lw=1)
_ = ax.set(xlabel="GRPO step (25 prompts x 8 answers)", ylabel="share", ylim=(0, 1.05),
           title="GRPO with a verifier on addition prompts")
_ = ax.legend(loc="lower right")
fig.tight_layout()
plt.show()

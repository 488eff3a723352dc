import torch
import torch.nn.functional as F

_ = torch.manual_seed(0)
torch.set_num_threads(1)
rng = np.random.default_rng(1)
beta = 1.0
hidden_r = true_util  # the judges' taste; DPO never sees these numbers
n_pairs = 20000
a = rng.choice(6, n_pairs, p=p_base)  # both answers drawn from the base model
b = rng.choice(6, n_pairs, p=p_base)
a, b = a[a != b], b[a != b]
a_wins = rng.random(len(a)) < 1 / (1 + np.exp(-(hidden_r[a] - hidden_r[b]) / beta))
chosen = torch.tensor(np.where(a_wins, a, b))
rejected = torch.tensor(np.where(a_wins, b, a))
log_ref = torch.log(torch.tensor(p_base))
logits = log_ref.clone().requires_grad_(True)  # start the policy at the reference
opt = torch.optim.Adam([logits], lr=0.05)
for step in range(400):
    log_pi = torch.log_softmax(logits, 0)
    implicit_r = beta * (log_pi - log_ref)  # DPO's implied reward of each answer
    loss = -F.logsigmoid(implicit_r[chosen] - implicit_r[rejected]).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()

p_dpo = logits.detach().softmax(0).numpy()  # the trained policy
p_closed, _ = kl_optimum(p_base, hidden_r, beta)
print(f"{len(chosen)} pairs, final DPO loss {loss.item():.4f}")
print(f"{'answer':16} {'base':>6} {'DPO':>6} {'closed form':>12}")
for k in range(6):
    print(f"{names[k]:16} {p_base[k]:6.3f} {p_dpo[k]:6.3f} {p_closed[k]:12.3f}")

dpo_gap = np.abs(p_dpo - p_closed).max()
print(f"largest gap between DPO and pi*: {dpo_gap:.4f}")

def dpo_fit(win, lose, p0, beta, steps=300, lr=0.05):
    """DPO on fixed pairs: the policy's own log-ratio to p0 plays the reward."""
    log_ref = torch.log(torch.tensor(p0))
    logits = log_ref.clone().requires_grad_(True)
    opt = torch.optim.Adam([logits], lr=lr)
    w, l = torch.tensor(win), torch.tensor(lose)
    for _ in range(steps):
        r_hat = beta * (torch.log_softmax(logits, 0) - log_ref)
        loss = -F.logsigmoid(r_hat[w] - r_hat[l]).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return torch.softmax(logits, 0).detach().numpy()


p_dpo_fast = dpo_fit(win_fast, lose_fast, p_sft, beta=0.5)
show(p_dpo_fast, "DPO, beta 0.5, same pairs")
hack = 4  # short friendly JSON, WRONG
in_pairs = np.mean((win_fast == hack) | (lose_fast == hack))
print(f"the hack answer: SFT {p_sft[hack]:.2f} -> DPO {p_dpo_fast[hack]:.2f};"
      f" it appears in {in_pairs:.0%} of pairs")

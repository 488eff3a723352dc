n_sent = np.arange(1, 11)  # answer length in sentences
quality = 1 - ((n_sent - 4) / 3) ** 2  # readers want about four sentences
rated = n_sent <= 4  # people only ever compared answers of 1 to 4 sentences
slope, intercept = np.polyfit(n_sent[rated], quality[rated], 1)
rm_len = torch.tensor(intercept + slope * n_sent)  # a straight line: longer is better
q_len = torch.tensor(quality)
log_ref_len = torch.log_softmax(torch.tensor(-0.5 * (n_sent - 2.5) ** 2), 0)


def train_lengths(beta, steps=300, lr=0.05):
    """Exact gradient ascent on E[RM] - beta * KL(pi || ref) over the 10 lengths."""
    logits = log_ref_len.clone().requires_grad_(True)
    opt = torch.optim.Adam([logits], lr=lr)
    history = []
    for _ in range(steps):
        log_pi = torch.log_softmax(logits, 0)
        pi = log_pi.exp()
        history.append([(pi @ rm_len).item(), (pi @ q_len).item()])
        loss = -(pi @ rm_len - beta * (pi * (log_pi - log_ref_len)).sum())
        opt.zero_grad()
        loss.backward()
        opt.step()
    return np.array(history)


print(f"reward model: {intercept:+.2f} {slope:+.3f} * sentences")
print(f"10 sentences: reward model {rm_len[-1]:.2f}, true quality {quality[-1]:.2f}")
len_runs = {beta: train_lengths(beta) for beta in (0.0, 0.3)}
for beta, h in len_runs.items():
    print(f"beta {beta}: true quality start {h[0, 1]:.2f}, best {h[:, 1].max():.2f}"
          f" (step {h[:, 1].argmax()}), end {h[-1, 1]:.2f} (RM {h[-1, 0]:.2f})")

# -- drawing the figure --
fig, ax = plt.subplots(figsize=(7, 3.5))
for (beta, h), colour in zip(len_runs.items(), ["C3", "C0"]):
    _ = ax.plot(h[:, 0], ls="--", c=colour, label=rf"reward model, $\beta$ = {beta}")
    _ = ax.plot(h[:, 1], ls="-", c=colour, label=rf"true quality, $\beta$ = {beta}")

_ = ax.set(xlabel="gradient step", ylabel="expected value", ylim=(-1.2, 2.7),
           title="Training against a length-loving reward model")
_ = ax.legend(loc="lower left", fontsize=9)
fig.tight_layout()
plt.show()

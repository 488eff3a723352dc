vocab = ["the", "soup", "was", "great", "warm", "."]
V, T, GREAT = len(vocab), 8, vocab.index("great")
_ = torch.manual_seed(1)
ref_logits = torch.randn(V + 1, V)  # row V is the start-of-text state


def sample(logits, n):
    """n sequences of T tokens from a bigram table; returns tokens and log-probs."""
    prev = torch.full((n,), V)
    toks, logps = [], []
    for _ in range(T):
        dist = torch.distributions.Categorical(logits=logits[prev])
        tok = dist.sample()
        toks.append(tok)
        logps.append(dist.log_prob(tok))
        prev = tok
    return torch.stack(toks, 1), torch.stack(logps, 1)


def train_bigram(beta, steps=150, n=256, lr=0.1):
    logits = ref_logits.clone().requires_grad_(True)
    opt = torch.optim.Adam([logits], lr=lr)
    for _ in range(steps):
        toks, logp = sample(logits, n)
        with torch.no_grad():
            ref_lp = torch.log_softmax(ref_logits, 1)[torch.cat(
                [torch.full((n, 1), V), toks[:, :-1]], 1), toks]
            ret = (toks == GREAT).sum(1) - beta * (logp - ref_lp).sum(1)
            adv = ret - ret.mean()
        loss = -(adv * logp.sum(1)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return logits.detach()


def describe(logits, label, n=2000):
    toks, logp = sample(logits, n)
    share = (toks == GREAT).float().mean().item()
    distinct = len({tuple(s) for s in toks.tolist()}) / n
    print(f"{label:10} {share:7.2f}  {distinct:8.2f}"
          f"  {' '.join(vocab[t] for t in toks[0].tolist())}")
    return share, distinct


print("'great': share of 'great' tokens; distinct: share of distinct sequences")
print(" " * 11 + "'great'  distinct  a sample")
_ = torch.manual_seed(2)
hack = {"reference": describe(ref_logits, "reference")}
for beta in (0.0, 1.0):
    hack[beta] = describe(train_bigram(beta), f"beta = {beta}")

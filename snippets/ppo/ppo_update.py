def masked_mean(x, m):
    return (x * m).sum(1) / m.sum(1).clamp(min=1)


def update(agents, opt, b, cfg, rng, log, minibatches=4):
    """One round of learning from a fresh batch, for every agent at once.
    cfg holds one entry per agent: critic (use GAE, train V), epochs, clip eps,
    kl_stop (target for the approximate KL), norm_adv and, if given, minibatches
    (else every agent uses the argument). REINFORCE and actor-critic are this
    same loop with one epoch, no clip and no KL stop.
    """
    K = len(agents.theta)
    gae, ret = advantages(b)
    adv = np.where(cfg["critic"][:, None, None], gae, ret)
    target = gae + b["value"]                      # the critic's lambda-return
    log["adv_std"].append(adv.std(axis=(1, 2), where=b["mask"]))
    live = b["mask"].reshape(K, -1)
    keep = np.argsort(~live, axis=1, kind="stable")[:, :live.sum(1).max()]
    cols = [x.reshape(K, -1, *x.shape[3:]) for x in
            (b["obs"], b["act"], b["logp"], b["mask"], adv, target)]
    data = [torch.from_numpy(np.take_along_axis(x, keep.reshape(
        K, -1, *[1] * (x.ndim - 2)), 1)) for x in cols]
    obs, act, logp_old, mask, adv, target = [x.float() for x in data]
    act = act.long()
    on = torch.ones(K, dtype=torch.bool)
    eps, critic = torch.tensor(cfg["clip"])[:, None], torch.tensor(cfg["critic"])
    norm_adv, kl_stop = torch.tensor(cfg["norm_adv"]), torch.tensor(cfg["kl_stop"])
    n, epochs = obs.shape[1], np.array(cfg["epochs"])
    mb = np.broadcast_to(cfg.get("minibatches", minibatches), K)
    order = np.stack([rng.permuted(np.tile(np.arange(n), (K, 1)), axis=1)
                      for _ in range(epochs.max())], 1)   # a shuffle per epoch
    # Agent k takes epochs[k] x mb[k] steps, step s on slice s % mb[k] of its
    # shuffle for epoch s // mb[k], cut as np.array_split cuts. Agents whose
    # steps are done sit out and compute nothing.
    for step in range(max(epochs * mb)):
        walk = step < epochs * mb
        on &= torch.from_numpy(walk)
        rows = slice(None) if walk.all() else torch.from_numpy(np.flatnonzero(walk))
        eps_r = eps[rows]                          # the clip of each agent at work
        e, j = np.minimum(step // mb, epochs.max() - 1), step % mb
        start = j * (n // mb) + np.minimum(j, n % mb)
        size = n // mb + (j < n % mb)
        pos = np.minimum(start[:, None] + np.arange(size[walk].max()), n - 1)
        i = torch.from_numpy(np.take_along_axis(order[np.arange(K), e], pos, 1))[rows]
        # a narrower slice is padded with samples the mask gives no weight
        short = torch.from_numpy(np.arange(pos.shape[1]) < size[:, None])[rows]
        o = obs[rows].gather(1, i[..., None].expand(-1, -1, 4))
        a, lp0, m, A, R = (x[rows].gather(1, i) for x in (act, logp_old, mask,
                                                           adv, target))
        m = m * short
        mu = masked_mean(A, m)[:, None]
        sd = masked_mean((A - mu) ** 2, m).sqrt()[:, None]
        A = torch.where(norm_adv[rows][:, None], (A - mu) / (sd + 1e-8), A)
        logp_all = F.log_softmax(agents.net("actor", o, rows), -1)
        logp = logp_all.gather(-1, a[..., None])[..., 0]
        ratio = torch.exp(logp - lp0)
        surr = torch.min(ratio * A, ratio.clamp(1 - eps_r, 1 + eps_r) * A)
        entropy = -(logp_all.exp() * logp_all).sum(-1)
        v_err = (agents.net("critic", o, rows)[..., 0] - R) ** 2
        loss = (-masked_mean(surr, m) + 0.5 * critic[rows] * masked_mean(v_err, m)
                - 0.01 * masked_mean(entropy, m))
        loss.sum().backward()                  # agents share nothing
        with torch.no_grad():
            approx_kl = masked_mean((ratio - 1) - (logp - lp0), m)   # k3
            clipped = masked_mean(((ratio - 1).abs() > eps_r).float(), m)
            # the part of clipfrac that lost its gradient: past the band
            # in the direction its advantage pushes
            past = ((A > 0) & (ratio > 1 + eps_r)) | ((A < 0) & (ratio < 1 - eps_r))
            frozen = masked_mean(past.float(), m)
        norms = opt.step(on)
        for key, val in (("kl", approx_kl), ("clipfrac", clipped),
                         ("frozen", frozen), ("entropy", masked_mean(entropy, m))):
            full = torch.zeros(K)
            full[rows] = val.detach()              # agents sitting out log 0
            log[key].append(full.numpy())
        log["on"].append(on.numpy().copy())
        log["gnorm"].append(norms.numpy().copy())
        on[rows] &= approx_kl <= kl_stop[rows]

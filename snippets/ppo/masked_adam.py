class Adam:
    """Adam for the (agents, params) tensor, with two PPO details built in:
    - gradient-norm clipping, separately for each agent's actor and critic;
    - an on/off switch per agent, so one agent can stop early (KL) while others go on.
    """
    def __init__(self, agents, lr, max_norm=0.5, betas=(0.9, 0.999), eps=1e-8):
        self.theta, self.split = agents.theta, agents.n_actor
        self.lr, self.max_norm, (self.b1, self.b2), self.eps = lr, max_norm, betas, eps
        self.m, self.v = torch.zeros_like(self.theta), torch.zeros_like(self.theta)
        self.t = torch.zeros(len(self.theta), 1)     # steps taken, per agent
    @torch.no_grad()
    def step(self, on):
        on = on[:, None]
        parts, norms = [], []
        for g in self.theta.grad.split(
                [self.split, self.theta.shape[1] - self.split], 1):
            norms.append(g.norm(dim=1, keepdim=True))
            parts.append(g * (self.max_norm / (norms[-1] + 1e-6)).clamp(max=1.0))
        g = torch.cat(parts, 1)
        self.t += on
        self.m = torch.where(on, self.b1 * self.m + (1 - self.b1) * g, self.m)
        self.v = torch.where(on, self.b2 * self.v + (1 - self.b2) * g * g, self.v)
        t = self.t.clamp(min=1)
        m_hat, v_hat = self.m / (1 - self.b1 ** t), self.v / (1 - self.b2 ** t)
        self.theta -= torch.where(on, self.lr * m_hat / (v_hat.sqrt() + self.eps), 0.0)
        self.theta.grad = None
        return torch.cat(norms, 1)                    # pre-clip norms: actor, critic

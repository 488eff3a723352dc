import torch
import torch.nn.functional as F

torch.set_num_threads(1)


class Agents:
    """K independent actor-critics. Agent k's weights are row k of one tensor theta.
    Actor: 4 -> 32 -> 32 -> 2 logits.  Critic: 4 -> 32 -> 32 -> 1 value.
    Keeping every agent in one tensor lets a single batched matmul run them all.
    """
    def __init__(self, k, seed, hidden=32):
        dims = {"actor": [4, hidden, hidden, 2], "critic": [4, hidden, hidden, 1]}
        self.layers, n = {}, 0
        for net, d in dims.items():
            self.layers[net] = []
            for d_in, d_out in zip(d[:-1], d[1:]):
                self.layers[net].append((n, d_in, d_out))
                n += (d_in + 1) * d_out          # weights, then biases
        self.n_actor = self.layers["critic"][0][0]
        gen = torch.Generator().manual_seed(seed)
        theta = torch.empty(k, n)
        for start, d_in, d_out in self.layers["actor"] + self.layers["critic"]:
            size = (d_in + 1) * d_out            # uniform, scale 1/sqrt(fan-in)
            theta[:, start:start + size] = (2 * torch.rand(k, size, generator=gen)
                                            - 1) / d_in ** 0.5
        self.theta = theta.requires_grad_()
    def net(self, name, x, rows=slice(None)):
        """Run network `name` of agent k on x[k]: x is (agents, batch, 4)."""
        th = self.theta[rows]
        for i, (start, d_in, d_out) in enumerate(self.layers[name]):
            w = th[:, start:start + d_in * d_out].view(-1, d_in, d_out)
            b = th[:, start + d_in * d_out:start + (d_in + 1) * d_out]
            x = torch.baddbmm(b.unsqueeze(1), x, w)
            if i < len(self.layers[name]) - 1:
                x = torch.relu(x)
        return x


agents = Agents(k=3, seed=0)
print(f"{agents.theta.shape[1]} parameters per agent "
      f"({agents.n_actor} actor, {agents.theta.shape[1] - agents.n_actor} critic)")

with torch.no_grad():
    logits = agents.net("actor", torch.zeros(3, 1, 4))[:, 0]   # 3 agents, 1 state

for k, (left, right) in enumerate(logits.tolist()):
    print(f"agent {k}: logits ({left:+.3f}, {right:+.3f})")

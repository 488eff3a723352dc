import torch

torch.set_num_threads(1)
HIDDEN = 32


def init_policies(seeds, hidden=HIDDEN):
    """One small network 4 -> 32 -> 2 per seed, stacked on a leading axis so a
    batched matrix product runs all of them at once (same init law as nn.Linear)."""
    def layer(gen, n_in, n_out):
        # uniform in +-1/sqrt(fan_in), float64 so numpy can share the memory
        u = torch.rand(n_in + 1, n_out, generator=gen, dtype=torch.float64)
        u = (2 * u - 1) / math.sqrt(n_in)
        return u[:n_in], u[n_in:]
    per_seed = []
    for seed in seeds:
        gen = torch.Generator().manual_seed(seed)
        per_seed.append([*layer(gen, 4, hidden), *layer(gen, hidden, 2)])
    return [torch.stack(p).requires_grad_() for p in zip(*per_seed)]


def policy_logits(params, states):
    """states (P, N, 4): N states for each of P policies -> logits (P, N, 2)."""
    w1, b1, w2, b2 = params
    return torch.baddbmm(b2, torch.relu(torch.baddbmm(b1, states, w1)), w2)

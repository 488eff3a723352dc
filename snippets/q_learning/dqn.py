import torch

torch.set_num_threads(1)

class QNets(torch.nn.Module):
    """k independent MLPs (16 -> hidden -> 4), one per run, stored as stacked
    weights so that every run trains in the same batched matrix product."""
    def __init__(self, k, hidden=32):
        super().__init__()
        self.w1 = torch.nn.Parameter(torch.randn(k, N_S, hidden) / N_S**0.5)
        self.b1 = torch.nn.Parameter(torch.zeros(k, 1, hidden))
        self.w2 = torch.nn.Parameter(torch.randn(k, hidden, N_A) / hidden**0.5)
        self.b2 = torch.nn.Parameter(torch.zeros(k, 1, N_A))
    def forward(self, s):                           # s: (k, batch) square numbers
        x = torch.nn.functional.one_hot(s, N_S).float()
        return torch.relu(x @ self.w1 + self.b1) @ self.w2 + self.b2

def train_dqn(buffer, sync, lr, updates=800, act=5, batch=32, seed=0):
    """Per update: `act` epsilon-greedy moves on each run's grid, then one
    gradient step on a minibatch. Per run i: replay from the last buffer[i]
    transitions, refresh the frozen target every sync[i] updates, step size lr[i].
    Returns the network's Q-table (k, 16, 4) before every update."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    k, run, n = len(buffer), np.arange(len(buffer)), updates * act
    net = QNets(k)
    turn = rng.choice([0, 1, 3], p=[0.8, 0.1, 0.1], size=(n, k))
    coin, random_action = rng.random((n, k)), rng.integers(N_A, size=(n, k))
    S, A, S2 = (np.zeros((n, k), dtype=int) for _ in range(3))   # replay memory
    s, t, tables = np.full(k, START), 0, []
    everywhere = torch.arange(N_S).repeat(k, 1)
    step_size = torch.tensor(lr, dtype=torch.float32)[:, None, None]
    for u in range(updates):
        with torch.no_grad():
            tables.append(net(everywhere).numpy())  # Q for all 16 squares
        if u == 0:
            frozen = tables[0].copy()
        # Target network: a frozen copy, refreshed every sync[i] updates. With
        # only 16 inputs, a frozen network is exactly its table of outputs.
        due = u % sync == 0
        frozen[due] = tables[-1][due]
        eps = max(0.05, 1 - u / (0.5 * updates))
        for _ in range(act):
            a = epsilon_greedy(tables[-1][run, s], eps, coin[t], random_action[t])
            s2 = MOVE[s, (a + turn[t]) % 4]
            S[t], A[t], S2[t] = s, a, s2
            s, t = np.where(TERMINAL[s2], START, s2), t + 1
        lo = np.maximum(0, t - buffer)[:, None]      # replay the last buffer[i]
        # i is a (time, run) index pair: each run samples `batch` of its own moves
        i = lo + (rng.random((k, batch)) * (t - lo)).astype(int), run[:, None]
        future = np.where(TERMINAL[S2[i]], 0.0, frozen[run[:, None], S2[i]].max(-1))
        y = torch.as_tensor(R_BASE[S[i], S2[i]] + GAMMA * future, dtype=torch.float32)
        q_sa = net(torch.as_tensor(S[i])).gather(-1, torch.as_tensor(A[i])[..., None])
        loss = (q_sa[..., 0] - y) ** 2
        loss.mean(dim=1).sum().backward()           # runs stay independent
        with torch.no_grad():                       # a plain gradient step
            for p in net.parameters():
                p -= step_size * p.grad
                p.grad = None
    return np.array(tables)

VARIANTS = {"replay + target": (4000, 25), "no target network": (4000, 1),
            "no replay": (32, 25), "neither": (32, 1)}
SEEDS, LRS = 10, (0.3, 1.0)                         # a gentle and a bold step size
setups = [(v, lr) for lr in LRS for v in VARIANTS for _ in range(SEEDS)]
buffer = np.array([VARIANTS[v][0] for v, _ in setups])
sync = np.array([VARIANTS[v][1] for v, _ in setups])
q_dqn = train_dqn(buffer, sync, lr=np.array([lr for _, lr in setups]))
v_dqn = policy_value(q_dqn[-1].argmax(-1))[:, START]
v_table = policy_value(greedy[7])[:, START]         # the table after 4000 steps


def interval(v, draws=10_000, seed=0):
    """A 95% bootstrap interval for the mean of the runs' values v."""
    means = np.random.default_rng(seed).choice(v, (draws, len(v))).mean(1)
    return np.percentile(means, [2.5, 97.5])


v_best = v_dqn[:SEEDS]                               # replay + target, step 0.3
ci_dqn, ci_table = interval(v_best), interval(v_table)
print("after 4000 moves, greedy policy worth V(S): mean [95% interval of the mean]")
print(f"  DQN     {v_best.mean():.3f} [{ci_dqn[0]:.3f}, {ci_dqn[1]:.3f}]"
      f" (replay + target, step 0.3, {SEEDS} runs)")
print(f"  table   {v_table.mean():.3f} [{ci_table[0]:.3f}, {ci_table[1]:.3f}]"
      f" ({len(v_table)} runs)")
print(f"  DQN's worst run {v_best.min():.3f}; the other {SEEDS - 1} average "
      f"{np.sort(v_best)[1:].mean():.3f}")
print(f"  optimum {V_star[START]:.3f}")

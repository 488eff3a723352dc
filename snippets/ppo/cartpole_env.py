class CartPoles:
    """A batch of cart-poles (Barto, Sutton and Anderson, 1983), stepped together.
    State (..., 4): cart position, cart velocity, pole angle, angular velocity.
    Action 1 pushes right, 0 pushes left; +1 reward per step the pole stays up.
    """
    gravity, m_cart, m_pole, half_len, force, dt = 9.8, 1.0, 0.1, 0.5, 10.0, 0.02
    max_steps = 200                  # an episode that lasts 200 steps is cut off
    def __init__(self, shape, rng):
        self.shape, self.rng = tuple(shape), rng
    def reset(self):
        self.s = self.rng.uniform(-0.05, 0.05, (*self.shape, 4))
        return self.s
    def step(self, action):
        x, x_dot, th, th_dot = np.moveaxis(self.s, -1, 0)
        push = self.force * (2.0 * action - 1.0)
        cos, sin = np.cos(th), np.sin(th)
        m_total = self.m_cart + self.m_pole
        tmp = (push + self.m_pole * self.half_len * th_dot**2 * sin) / m_total
        th_acc = (self.gravity * sin - cos * tmp) / (
            self.half_len * (4 / 3 - self.m_pole * cos**2 / m_total))
        x_acc = tmp - self.m_pole * self.half_len * th_acc * cos / m_total
        # explicit Euler, like the classic benchmark
        self.s = np.stack([x + self.dt * x_dot, x_dot + self.dt * x_acc,
                           th + self.dt * th_dot, th_dot + self.dt * th_acc], -1)
        fell = (np.abs(self.s[..., 0]) > 2.4) | (np.abs(self.s[..., 2]) > 0.2095)
        return self.s, fell


def episode_lengths(policy, n=2000, seed=0):
    """Run n episodes at once with policy(state, rng) -> actions; return lengths."""
    rng = np.random.default_rng(seed)
    env = CartPoles((n,), rng)
    s, alive, length = env.reset(), np.ones(n, bool), np.zeros(n)
    for _ in range(env.max_steps):
        s, fell = env.step(policy(s, rng))
        length += alive
        alive &= ~fell
    return length


baseline_lengths = {}
for name, policy in (
        ("always push right", lambda s, rng: np.ones(len(s))),
        ("coin flip", lambda s, rng: rng.integers(0, 2, len(s))),
        ("push towards the lean", lambda s, rng: (s[:, 2] > 0).astype(float))):
    baseline_lengths[name] = episode_lengths(policy).mean()
    print(f"{name:22s} mean episode length {baseline_lengths[name]:6.1f}")

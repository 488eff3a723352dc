class StepMeter(Adam):
    """The race's Adam plus a switch and a log. Rows marked `joint` first cut their
    whole gradient to one norm of 0.5, the reference's global clip. Every step logs,
    for the actor: its gradient norm before any clip, after the clips, and the length
    of the step Adam took."""
    def __init__(self, agents, lr, joint):
        super().__init__(agents, lr)
        self.joint, self.log = torch.tensor(joint)[:, None], []
    @torch.no_grad()
    def step(self, on):
        g, a = self.theta.grad, self.split
        raw = g[:, :a].norm(dim=1)
        cut = (self.max_norm / (g.norm(dim=1, keepdim=True) + 1e-6)).clamp(max=1.0)
        self.theta.grad = torch.where(self.joint, g * cut, g)
        fed = self.theta.grad[:, :a].norm(dim=1).clamp(max=self.max_norm)
        before = self.theta[:, :a].clone()
        norms = super().step(on)
        moved = (self.theta[:, :a] - before).norm(dim=1)
        self.log.append(torch.where(on, torch.stack([raw, fed, moved]), torch.nan))
        return norms


KNOBS = {"PPO (as raced)": VARIANTS["PPO"],
         "PPO, one global clip": VARIANTS["PPO"],
         "PPO, raw advantages": VARIANTS["PPO"][:4] + (False,),
         "REINFORCE (as raced)": VARIANTS["REINFORCE"],
         "REINFORCE, raw returns": VARIANTS["REINFORCE"][:4] + (False,)}
joint = [name.endswith("global clip") for name in KNOBS for _ in range(4)]
meters = []
def metered(agents, lr):
    meters.append(StepMeter(agents, lr, joint))
    return meters[-1]


trial, _ = train(KNOBS, seed=1, optimiser=metered)
steps = torch.stack(meters[0].log).numpy().reshape(-1, 3, len(KNOBS), 4)
knob = {}
print(f"{'actor, median per step':23s}{'grad':>8s}{'clipped':>9s}{'step':>8s}"
      f"   score, last 5 rounds")
for j, name in enumerate(KNOBS):
    knob[name] = dict(zip(("grad", "fed", "step"), np.nanmedian(steps[:, :, j], (0, 2))),
                      score=trial[-5:, j].mean(0))
    k = knob[name]
    print(f"{name:23s}{k['grad']:8.3f}{k['fed']:9.4f}{k['step']:8.4f}   "
          f"{k['score'].mean():5.1f} (" + " ".join(f"{x:3.0f}" for x in k["score"]) + ")")

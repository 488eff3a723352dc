# Exercise 1: check the hand-written gradient of ppo_passes against autograd
def ppo_objective_torch(z, actions, adv, p_old, eps=0.2):
    rho = torch.softmax(z, 0)[actions] / p_old
    return torch.min(rho * adv, rho.clamp(1 - eps, 1 + eps) * adv).mean()


z_test = np.array([0.4, -0.3, 0.2])            # a policy some passes away from uniform
p_test = softmax(z_test)
rho_t = p_test[actions] / (1 / 3)
live = ~(((adv > 0) & (rho_t > 1.2)) | ((adv < 0) & (rho_t < 0.8)))
w = live * adv * rho_t
by_hand = (np.bincount(actions, w, 3) - w.sum() * p_test) / len(actions)
zt = torch.tensor(z_test, requires_grad=True)
ppo_objective_torch(zt, torch.from_numpy(actions), torch.from_numpy(adv),
                    torch.full((16,), 1 / 3, dtype=torch.float64)).backward()

print("by hand :", np.round(by_hand, 5))
print("autograd:", np.round(zt.grad.numpy(), 5))
print(f"samples frozen by the clip: {(~live).sum()} of {len(live)}")

def objective_grad(p_start, r, beta):
    """Gradient of E_pi[r] - beta*KL(pi || p_ref) w.r.t. the logits, at pi = p_start."""
    theta = torch.log(torch.tensor(p_start)).requires_grad_(True)
    log_pi = torch.log_softmax(theta, 0)
    log_ref = torch.log(torch.tensor([0.5, 0.3, 0.2]))
    pi = log_pi.exp()
    obj = pi @ torch.tensor(r) - beta * (pi * (log_pi - log_ref)).sum()
    obj.backward()
    return theta.grad.numpy()


r3 = np.array([0.0, 1.0, 2.0])
for label, p in [("p_ref", np.array([0.5, 0.3, 0.2])), ("pi*  ", p_star)]:
    g = np.round(objective_grad(p, r3, 1.0), 4) + 0.0  # + 0.0 turns -0.0 into 0.0
    print(f"gradient at {label}:", fmt(g, 4))

theta = np.array([0.5, -0.2, 0.1])
delta = np.array([0.03, -0.02, 0.01])
p, q = softmax(theta), softmax(theta + delta)
F = np.diag(p) - np.outer(p, p)             # Fisher of a softmax, at the OLD logits
print(f"old probabilities p       = {np.round(p, 3)}")
print(f"KL(old || new) exact      = {kl(p, q):.3e}")
print(f"1/2 delta^T F delta       = {0.5 * delta @ F @ delta:.3e}")
print(f"KL(new || old), for scale = {kl(q, p):.3e}")

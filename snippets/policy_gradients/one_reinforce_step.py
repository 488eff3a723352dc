alpha, a, reward = 0.5, 2, 1.0  # pulled C, it paid 1
step = alpha * reward * grad_log_softmax(z, a)
print("grad log pi(C):", grad_log_softmax(z, a).round(3))
print("new logits:    ", (z + step).round(3))
print("new policy:    ", softmax(z + step).round(3))

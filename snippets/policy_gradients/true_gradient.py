win = np.array([0.2, 0.5, 0.8])  # chance that arm A, B, C pays 1
z = np.zeros(3)
pi = softmax(z)
# E[R grad log pi] written as the sum over arms it is
true_grad = sum(pi[a] * win[a] * grad_log_softmax(z, a) for a in range(3))
print("J at uniform logits:", round(float(pi @ win), 3))
print("true gradient:      ", true_grad.round(3))

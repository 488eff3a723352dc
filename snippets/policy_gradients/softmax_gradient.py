import numpy as np


def softmax(z):
    e = np.exp(z - z.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def grad_log_softmax(z, a):
    """d log pi(a) / d z_k = 1[k = a] - pi(k), for every logit k at once."""
    return np.eye(z.shape[-1])[a] - softmax(z)


# check the formula against finite differences at some random logits
z = np.random.default_rng(0).normal(size=3)
h = 1e-6
numeric = [(np.log(softmax(z + h * e)[2]) - np.log(softmax(z - h * e)[2])) / (2 * h)
           for e in np.eye(3)]

print("formula:          ", grad_log_softmax(z, 2).round(6))
print("finite difference:", np.round(numeric, 6))

import numpy as np

rng = np.random.default_rng(0)
n = 3000
# each pair: two answers, described by (is it correct?, length in hundreds of tokens)
correct = (rng.random((n, 2)) < 0.6).astype(float)
length = rng.uniform(0.5, 4.0, (n, 2))
first_longer = length[:, 0] > length[:, 1]
likes_length = rng.random(n) < 0.75  # equally right: the longer wins 3 times in 4
by_length = np.where(likes_length, first_longer, ~first_longer)
first_wins = np.where(correct[:, 0] != correct[:, 1], correct[:, 0] > 0, by_length)
x = np.stack([correct, length], axis=2)  # (pair, answer, feature)
x_win = np.where(first_wins[:, None], x[:, 0], x[:, 1])
x_lose = np.where(first_wins[:, None], x[:, 1], x[:, 0])


def fit_bradley_terry(d, lr=2.0, l2=1e-3, tol=1e-8, max_steps=100_000):
    """Linear reward r = x @ w, fitted by gradient descent on the Bradley-Terry
    loss -log sigmoid(d @ w) + l2/2 |w|^2; each row of d is winner features minus
    loser features. Stops once the gradient's norm is below tol (max_steps is a
    safeguard); returns the weights and that final norm."""
    w = np.zeros(d.shape[1])
    for _ in range(max_steps):
        p_agree = 1 / (1 + np.exp(-(d @ w)))
        grad = -((1 - p_agree)[:, None] * d).mean(0) + l2 * w
        if np.linalg.norm(grad) < tol:
            break
        w = w - lr * grad
    return w, np.linalg.norm(grad)


w_rm, grad_rm = fit_bradley_terry(x_win - x_lose)
agree = np.mean((x_win - x_lose) @ w_rm > 0)
print(f"learned weights: correct {w_rm[0]:+.3f}, per 100 tokens {w_rm[1]:+.3f}")
print(f"agrees with the raters on {agree:.1%} of {n} pairs")
# no rater prefers a wrong answer to a right one, so the loss keeps falling as the
# correctness weight grows: its size is set by the penalty l2, not by the raters
exchange = {l2: fit_bradley_terry(x_win - x_lose, l2=l2) for l2 in (1e-2, 1e-4)}
exchange[1e-3] = w_rm, grad_rm
for l2, (w, g) in sorted(exchange.items(), reverse=True):
    print(f"l2 = {l2:g}: correct {w[0]:+.3f}, length {w[1]:+.3f}, "
          f"ratio {w[0] / w[1]:.1f}, |gradient| {g:.1e}")

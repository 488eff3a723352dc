import numpy as np

rng = np.random.default_rng(0)
T, g = 2000, 0.99
# 500 episodes of rewards anywhere in [-1, 1], one episode per row
r = rng.uniform(-1, 1, size=(500, T))
G0 = r @ g ** np.arange(T)
print(f"bound 1/(1-g)          : {1 / (1 - g):.2f}")
print(f"largest |G_0| of 500   : {np.abs(G0).max():.2f}")
print(f"always +1 for {T} steps: {discounted_return([1.0] * T, g):.2f}")
H = int(round(1 / (1 - g)))
cut = np.abs(r[:, :H] @ g ** np.arange(H) - G0).max()
print(f"largest error if we stop summing after {H} steps: {cut:.2f}")

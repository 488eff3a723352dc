import numpy as np
import matplotlib.pyplot as plt

# a phone shrinks each figure to its screen width: draw small, write large
plt.rcParams["font.size"] = 11

k = np.arange(0, 201)
fig, ax = plt.subplots(figsize=(6, 3.6), layout="constrained")
for g in [0.5, 0.9, 0.95, 0.99]:
    line, = ax.plot(k, g**k, lw=1.6, label=f"$\\gamma$ = {g}")
    # dotted marker at the effective horizon 1/(1 - gamma)
    _ = ax.axvline(1 / (1 - g), color=line.get_color(), ls=":", lw=1)

_ = ax.scatter([100], [0.99**100], color="black", zorder=3, s=18)
_ = ax.annotate(f"$0.99^{{100}}$ = {0.99**100:.3f}", (100, 0.99**100),
                xytext=(112, 0.55), arrowprops=dict(arrowstyle="->", lw=0.8))
_ = ax.set_xlabel("steps into the future, k")
_ = ax.set_ylabel("weight $\\gamma^k$ on $r_{t+k+1}$")
_ = ax.set_title("Weight of a future reward (dotted: $1/(1-\\gamma)$)")
_ = ax.legend()
plt.show()

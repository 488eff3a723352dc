import matplotlib.pyplot as plt

shown = 400  # the first darts only: enough to see the shape
fig, ax = plt.subplots(figsize=(4, 4))
near = darts[:shown][inside[:shown]]
far = darts[:shown][~inside[:shown]]
_ = ax.scatter(near[:, 0], near[:, 1], s=6, marker="o", label="inside")
_ = ax.scatter(far[:, 0], far[:, 1], s=10, marker="x", label="outside")
angle = np.linspace(0, np.pi / 2, 100)
_ = ax.plot(np.cos(angle), np.sin(angle), color="black", linewidth=1)
_ = ax.set(xlim=(0, 1), ylim=(0, 1), xlabel="x", ylabel="y", aspect="equal")
_ = ax.legend(loc="upper right", framealpha=1)
print(f"{len(near)} of the first {shown} darts are inside")
plt.show()

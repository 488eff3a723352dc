import matplotlib.pyplot as plt

fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3.5))
steps = np.arange(501)
for k, name in enumerate("ABC"):
    _ = left.plot(steps, pis[:, :, k].mean(1), label=f"arm {name} (mean)")

lo, hi = np.percentile(pis[:, :, 2], [10, 90], axis=1)
_ = left.fill_between(steps, lo, hi, alpha=0.2, color="C2", label="C, 10-90 %")
_ = left.set(xlabel="pull", ylabel="probability", title="policy over 1,000 runs")
_ = left.legend(fontsize=9)
# three single runs: the 5th, 50th and 95th percentile of pi(C) at pull 100
order = np.argsort(pis[100, :, 2])
for q, run in zip((5, 50, 95), order[[50, 500, 950]]):
    _ = right.plot(steps, pis[:, run, 2], lw=0.8, label=f"{q}th percentile at 100")

_ = right.set(xlabel="pull", ylabel="pi(C)", title="three single runs")
_ = right.legend(fontsize=9)
plt.tight_layout()
plt.show()

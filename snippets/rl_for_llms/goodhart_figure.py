import matplotlib.pyplot as plt

betas = np.logspace(2, -1.3, 60)
curves = np.array([[p @ rm_score, p @ true_util, kl(p, p_base)]
                   for p in (kl_optimum(p_base, rm_score, b)[0] for b in betas)])
fig, ax = plt.subplots(figsize=(7, 3.5))
_ = ax.plot(curves[:, 2], curves[:, 0] - curves[0, 0], label="reward model (gain)")
_ = ax.plot(curves[:, 2], curves[:, 1] - curves[0, 1], label="true utility (gain)")
_ = ax.axhline(0, color="grey", lw=0.8)
_ = ax.set(xlabel=r"$\mathrm{KL}(\pi^*\,\Vert\,\pi_{\mathrm{base}})$  (smaller $\beta$ to the right)",
           ylabel="change from the base model", title="Optimising a proxy: Goodhart")
_ = ax.legend()
fig.tight_layout()
plt.show()

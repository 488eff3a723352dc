# gradient of J at theta = 0: sum_s d(s) sum_a dpi(a)/dtheta A(s,a)
# the softmax Jacobian d pi / d theta; for a softmax it is also the Fisher matrix
fisher0 = np.diag(pi0) - np.outer(pi0, pi0)
grad_J = fisher0 @ (d0 @ A0)
u = grad_J / np.linalg.norm(grad_J)           # unit step direction

ts = np.linspace(0, 3, 61)
true_gain, surrogate, kl_line = [], [], []
for t in ts:
    V, _, _, pi = evaluate(t * u)
    true_gain.append(V[0] - V0[0])
    surrogate.append(d0 @ A0 @ pi)            # old visits, old advantages, new pi
    kl_line.append(kl(pi0, pi))

true_gain, surrogate, kl_line = map(np.array, (true_gain, surrogate, kl_line))
quad = 0.5 * ts**2 * (u @ fisher0 @ u)

print(f"direction u = {np.round(u, 3)}")
# uFu is 1/3 here, so at t = 0.75 the last column is 0.09375 exactly: five decimals
# print it the same on every CPU (four would round a tie either way)
print("   t   surrogate   true gain     KL    1/2 t^2 uFu")
for t in (0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0):
    i = int(round(t * 20))
    print(f"{t:4.2f}  {surrogate[i]:10.3f}  {true_gain[i]:10.3f}  {kl_line[i]:7.4f}"
          f"  {quad[i]:10.5f}")

t_best = ts[true_gain.argmax()]
t_trust = ts[kl_line <= 0.05].max()
t_bad = ts[(true_gain < 0) & (ts > 0)].min()
print(f"true gain peaks at t = {t_best:.2f}; turns negative by t = {t_bad:.2f}")
print(f"trust region KL <= 0.05 stops at t = {t_trust:.2f}, "
      f"true gain there {true_gain[ts == t_trust][0]:.3f}")

# -- drawing the figure --
def plot_surrogate_vs_true():
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(7.5, 3.3))
    ax1.plot(ts, surrogate, color="C4", label="surrogate (old data)")
    ax1.plot(ts, true_gain, color="C0", label=r"true $J(\mathrm{new}) - J(\mathrm{old})$")
    ax1.axhline(0, color="gray", lw=0.8)
    ax1.axvspan(0, t_trust, color="C2", alpha=0.12, label=r"$\mathrm{KL} \leq 0.05$")
    ax1.set_xlabel(r"step size $t$ along the policy gradient")
    ax1.set_ylabel("improvement")
    ax1.legend(fontsize=9)
    ax2.plot(ts, kl_line, color="C3", label=r"exact $\mathrm{KL}(\mathrm{old}\,\Vert\,\mathrm{new})$")
    ax2.plot(ts, quad, "--", color="C3", label=r"Fisher: $\frac{1}{2}\,t^2\,u^\top F u$")
    ax2.axhline(0.05, color="gray", ls=":", lw=1)
    ax2.set_xlabel(r"step size $t$")
    ax2.set_ylabel("KL")
    ax2.legend(fontsize=9)
    fig.suptitle("Two-state problem: the surrogate keeps promising, the truth turns")
    plt.tight_layout()
    plt.show()


plot_surrogate_vs_true()

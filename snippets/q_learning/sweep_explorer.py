greedy_by_sweep = np.array([backup(V).argmax(axis=1) for V in sweeps])
optimal_arrows = (greedy_by_sweep == pi_star)[:, DECIDE].sum(axis=1)
sweep_errors = np.abs(sweeps - V_star).max(axis=1)
shown_sweeps = np.arange(25)  # by sweep 24 no value moves in the second decimal


def sweep_frame(sweep=6):
    V = sweeps[sweep]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(8, 3.8),
                                   gridspec_kw={"width_ratios": [1, 1.3]})
    _ = draw_board(ax1, V, greedy_by_sweep[sweep], f"V after sweep {sweep}")
    _ = ax2.plot(shown_sweeps, sweeps[shown_sweeps, START], "o-", ms=3,
                 label="V_k(S), the start")
    _ = ax2.axhline(V_star[START], color="grey", ls="--", lw=1, label="V*(S)")
    _ = ax2.plot([sweep], [V[START]], "ko", ms=8)
    _ = ax2.set(xlim=(-0.5, 24.5), ylim=(-0.25, 0.6), xlabel="sweep k",
                title=f"{optimal_arrows[sweep]} of {DECIDE.sum()} arrows optimal")
    _ = ax2.legend(loc="lower right")
    fig.subplots_adjust(left=0.07, right=0.98, bottom=0.14, top=0.9, wspace=0.3)
    print(f"sweep {sweep}: V(start) {V[START]:+.3f} (V* {V_star[START]:.3f}),"
          f" max error {sweep_errors[sweep]:.2g},"
          f" {optimal_arrows[sweep]}/{DECIDE.sum()} arrows optimal")
    plt.show()


sweep_frame()

init = np.repeat([0.0, 1.0], 10)                    # runs 0-9 zeros, 10-19 optimistic
with_mask, _, _ = run_q_learning(20, 10_000, seed=2, init=init, mask=True)
no_mask, _, _ = run_q_learning(20, 10_000, seed=2, init=init, mask=False)
print(f"exact: Q*(3, down into the hole) = {Q_star[3, 2]:+.3f}, "
      f"V*(S) = {V_star[START]:.3f}")
print("init  mask    Q(3, v)   max Q(S)   exact V(S) of its greedy policy")
for i0, group in ((0.0, init == 0), (1.0, init == 1)):
    for mask, Qx in ((True, with_mask), (False, no_mask)):
        print(f"{i0:4.0f}  {mask!s:5s}  {Qx[group, 3, 2].mean():+7.3f}  "
              f"{Qx[group, START].max(-1).mean():+9.3f}  "
              f"{policy_value(Qx[group].argmax(-1))[:, START].mean():+11.3f}")

same = np.array_equal(with_mask[init == 0], no_mask[init == 0])
print("zero init: the two Q-tables are identical to the last bit:", same)

# What the unmasked target converges to from init 1: every end square is worth 1.
V_bug = np.where(DECIDE, 0.0, 1.0)
for _ in range(1000):
    V_bug = np.where(DECIDE, backup(V_bug).max(axis=1), 1.0)

pi_bug = backup(V_bug).argmax(axis=1)
flips = np.flatnonzero(DECIDE & (pi_bug != pi_star))
print("optimum of the buggy target differs from pi* on squares", flips.tolist(),
      [f"{ARROWS[pi_star[s]]} -> {ARROWS[pi_bug[s]]}" for s in flips])
print(f"true V(S) of that optimum vs pi*: {policy_value(pi_bug)[START]:.4f} vs "
      f"{V_star[START]:.4f}")

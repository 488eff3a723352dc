def ticket_sweep(rm, betas=(4, 1, 0.5, 0.2, 0.1, 0.05, 0.02)):
    print(f"{'beta':>5} {'E[RM]':>6} {'E[true]':>7} {'KL':>5}   most likely answer")
    rows = []
    for b in betas:
        p, _ = kl_optimum(p_sft, rm, b)
        rows.append((b, p @ rm, p @ ticket_true, kl(p, p_sft)))
        print(f"{b:5g} {rows[-1][1]:+6.2f} {rows[-1][2]:+7.2f} {rows[-1][3]:5.2f}"
              f"   {ticket[p.argmax()]}")
    return np.array(rows)


print(f"SFT: E[true] {p_sft @ ticket_true:+.2f}")
rows_fast = ticket_sweep(rm_fast)

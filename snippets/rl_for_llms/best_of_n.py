def best_of_n(p, score, n):
    """Exact law of the reply that scores highest among n draws from p; a tie
    between equal scores goes to one of them at random, in proportion to p."""
    q = np.zeros_like(p)
    for level in np.unique(score):
        tied = score == level
        below = p[score < level].sum()
        q[tied] = ((below + p[tied].sum()) ** n - below**n) * p[tied] / p[tied].sum()
    return q


print(f"{'n':>4} {'fast RM: E[true]':>17} {'expert RM: E[true]':>19} {'KL':>5}"
      f" {'bound':>6}")
bon = {}
for n in (1, 4, 16, 64, 256):
    q_fast, q_exp = best_of_n(p_sft, rm_fast, n), best_of_n(p_sft, rm_exp, n)
    # Beirami et al. (2024): KL(best-of-n || p) <= log n - (n - 1) / n
    bound = np.log(n) - (n - 1) / n
    bon[n] = (q_fast @ ticket_true, q_exp @ ticket_true, kl(q_fast, p_sft), bound)
    print(f"{n:4d} {bon[n][0]:+17.2f} {bon[n][1]:+19.2f} {bon[n][2]:5.2f}"
          f" {bound:6.2f}")

print(f"KL within the bound at every n: {all(v[2] <= v[3] + 1e-12 for v in bon.values())}")
hack = [best_of_n(p_sft, rm_fast, n)[4] for n in (4, 16, 256)]
print("fast RM, P(short friendly JSON, WRONG) at n = 4, 16, 256:",
      " ".join(f"{h:.2f}" for h in hack))

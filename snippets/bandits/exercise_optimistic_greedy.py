def optimistic_greedy(prior_signups, prior_visits):
    def choose(t, n, s):
        return (s + prior_signups) / (n + prior_visits)  # no dice at all
    return choose


trial = [epsilon_greedy(0.0), optimistic_greedy(1, 1), optimistic_greedy(1, 10)]
opt, opt_visits = simulate(trial, RATES, 2_000, seed=8)
for i, label in enumerate(["plain greedy", "prior 1/1", "prior 1/10"]):
    wrong_o = (opt_visits[-1, i].argmax(axis=1) != 2).mean()
    print(f"{label:12s}: lost {opt[-1, i].mean():5.1f}, wrong page {wrong_o:5.1%}")

def pilot(per_page):
    """Show the pages in turn to per_page visitors each, then only the winner."""
    turn = np.eye(K)  # turn[k] scores page k above the others
    def choose(t, n, s):
        if t < K * per_page:
            return turn[t % K]  # broadcasts to every run
        if t == K * per_page:
            # the pilot's measured rates, frozen for good; kept on the function
            # itself so that later calls still see them
            choose.verdict = s / n
        return choose.verdict
    return choose


regret, visits = simulate([pilot(50), pilot(300)], RATES, 2_000)
wrong = (visits[at(2_000)].argmax(axis=2) != 2).mean(axis=1)
for m, w, r in zip((50, 300), wrong, regret[at(2_000)].mean(axis=1)):
    print(f"pilot of {m:3d} per page: wrong page {w:.1%}, sign-ups lost {r:.1f}")

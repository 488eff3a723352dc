"""Chapter 1 (setup): exact values and the findings the prose states, on the record."""
import re

import pytest

from helpers import recorded

from helpers.recorded import fresh

rec = fresh("setup")  # this machine's run (tests/recorded.py)


def numbers(line):
    return recorded.numbers(line, decimals_only=True)


def rows(snippet, prefix):
    """Lines of a snippet's output that start with `prefix`, stripped."""
    out = [ln.strip() for ln in rec.output(snippet).splitlines()]
    return [ln for ln in out if ln.startswith(prefix)]


# ---- the shop -----------------------------------------------------------------


def shop_table():
    table = {}
    for ln in rec.output("checkout_policies.py").splitlines()[1:]:
        name, first, ret, exact = re.match(r"(.+?)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$", ln).groups()
        table[name.strip()] = (float(first), float(ret), float(exact))
    return table


def test_shop_exact_values():
    t = shop_table()
    assert t["always C (pushy)"][2] == 0.221  # 0.155 / 0.7
    assert t["B on mobile, A on desktop"][2] == 0.275  # 0.11 / 0.4
    assert t["always A"][2] == 0.188
    assert t["uniform random"][2] == 0.220


def test_pushy_page_wins_first_visit_but_loses_the_episode():
    t = shop_table()
    pushy, aware = t["always C (pushy)"], t["B on mobile, A on desktop"]
    assert pushy[0] == max(v[0] for v in t.values())
    assert aware[1] == max(v[1] for v in t.values())
    assert pushy[1] < aware[1]
    # "loses about a fifth of the purchases"
    assert 0.15 < 1 - pushy[2] / aware[2] < 0.25


def test_shop_simulation_close_to_exact():
    for first, ret, exact in shop_table().values():
        assert abs(ret - exact) <= 0.005


def test_one_episode_has_a_purchase_and_several_visits():
    out = rec.output("checkout_one_episode.py")
    steps = [ln for ln in out.splitlines() if ln.startswith("t=")]
    assert len(steps) >= 3
    total = sum(int(ln.rsplit("reward=", 1)[1]) for ln in steps)
    assert f"return of this episode: {total}" in out
    assert total >= 1


def test_best_deterministic_shop_policy():
    out = rec.output("exercise_best_shop_policy.py").splitlines()
    assert out[0].startswith("mobile -> page B, desktop -> page A: value 0.2750")
    assert out[1].startswith("mobile -> page B, desktop -> page C")
    assert "worst: mobile -> A, desktop -> B" in out[-1]
    assert rec.value("ranked[0][0] | .4f") == "0.2750"


# ---- the corridor -------------------------------------------------------------


def corridor_sim():
    table = {}
    for ln in rec.output("corridor_simulate.py").splitlines()[1:]:
        p, share, *visits = numbers(ln)
        table[p] = (share, visits)
    return table


def test_gamblers_ruin_exact_values():
    out = rec.output("corridor_exact.py")
    assert re.search(r"0\.3\s+81/2482\s+0\.0326", out)
    assert re.search(r"0\.5\s+1/2\s+0\.5000", out)
    assert re.search(r"0\.7\s+2401/2482\s+0\.9674", out)
    assert "0.1294" in out and "0.9706" in out


def test_corridor_simulation_matches_exact():
    exact = {0.3: 81 / 2482, 0.5: 0.5, 0.7: 2401 / 2482}
    sim = corridor_sim()
    for p, (share, _) in sim.items():
        se = (exact[p] * (1 - exact[p]) / 10_000) ** 0.5
        assert abs(share - exact[p]) < 4 * se
    assert sim[0.3][0] < 0.05 < 0.9 < sim[0.7][0]


def test_left_leaning_policy_rarely_visits_the_right_half():
    visits = corridor_sim()[0.3][1]  # squares 1..7
    assert sum(visits[:3]) > 3 * sum(visits[4:])
    assert visits[6] < 0.2
    assert float(rec.value("visits_per_episode[0.3][1:4].sum() | .2f")) > 3 * float(
        rec.value("visits_per_episode[0.3][5:8].sum() | .2f")
    )


def test_expected_visits_exact_and_close_to_simulation():
    out = rec.output("corridor_expected_visits.py")
    assert "p(right)=0.5  exact visits   1.00  2.00  3.00  4.00  3.00  2.00  1.00" in out
    sim = corridor_sim()
    for ln in out.splitlines():
        p, *exact = numbers(ln)
        assert max(abs(a - b) for a, b in zip(exact, sim[p][1])) < 0.1  # "under a tenth"


def test_markov_check_no_dependence_on_history():
    freqs = [numbers(ln)[0] for ln in rows("markov_check.py", "at square 4")]
    assert len(freqs) == 2
    assert all(abs(f - 0.7) < 0.02 for f in freqs)


def test_longer_corridor_needs_less_lean():
    leans = [numbers(ln)[0] for ln in rec.output("exercise_corridor_lean.py").splitlines()]
    assert leans == [0.634, 0.569, 0.535]
    assert leans == sorted(leans, reverse=True)


# ---- the gridworld ------------------------------------------------------------


def value_grid():
    grid = {}
    out = rec.output("bellman_solve.py").splitlines()[:3]
    for r, ln in enumerate(out):
        for c, cell in enumerate(ln.split()):
            grid[(r, c)] = None if cell in {"wall", "goal", "pit"} else float(cell)
    return grid


def test_gridworld_model():
    out = rec.output("gridworld_build.py")
    assert "11 states (2 terminal), 4 actions, gamma = 0.9" in out
    assert "rows of P sum to 1: True" in out
    assert "P((1, 0) | (2, 0), up) = 0.8" in out


def test_bellman_solution_and_residual():
    out = rec.output("bellman_solve.py")
    assert "V(start) = -0.4033" in out
    # the bound, not round-off digits that differ between CPUs
    assert out.strip().splitlines()[-1] == "max |V - (R_pi + gamma P_pi V)| < 1e-14: True"


def test_value_map_findings():
    g = value_grid()
    free = {k: v for k, v in g.items() if v is not None}
    assert [k for k, v in free.items() if v > 0] == [(0, 2)]  # the only positive cell
    assert min(free, key=free.get) == (2, 3)  # the worst cell
    assert g[(0, 0)] > g[(1, 0)] > g[(2, 0)]  # the left column falls towards start
    assert g[(1, 2)] < g[(0, 2)]


def test_monte_carlo_interval_contains_exact():
    out = rec.output("monte_carlo_check.py")
    assert "contains exact: True" in out
    low, high = numbers(rows("monte_carlo_check.py", "95% interval")[0])
    assert low <= -0.4033 <= high
    assert high - low < 0.01


def test_every_state_coverage():
    out = rec.output("exercise_mc_every_state.py")
    assert "OUTSIDE" not in out
    assert out.strip().endswith("9 of 9 intervals contain the exact value")
    assert rec.value("hits") == "9"
    assert rec.value("int((~TERMINAL).sum())") == "9"  # the note: the 9 non-terminal cells


@pytest.mark.parametrize("name", ["corridor_figure.py", "value_heatmap.py"])
def test_figure_snippets_print_nothing(name):
    assert rec.output(name).strip() == ""


def test_intervals_widest_next_to_goal_and_pit():
    widths = {}
    for ln in rows("exercise_mc_every_state.py", "("):
        cell = ln[: ln.index(")") + 1]
        widths[cell] = numbers(ln)[-1]
    assert len(widths) == 9
    widest = sorted(widths, key=widths.get)[-2:]
    assert set(widest) == {"(0, 2)", "(1, 2)"}


def test_observation_versus_state_on_cart_pole():
    out = rec.output("observation_vs_state.py")
    # "The four numbers of the observation are the physics"
    assert "the physics inside holds the same four numbers: True" in out
    # "the observation does not say how many have passed"
    assert "step 100 of the 500-step time limit" in out
    assert rec.value("env.spec.max_episode_steps") == "500"
    # "the same position and angle ... after the same push they are ... apart"
    assert "what a camera still frame sees, (position, angle):" in out
    seen = [ln.split(": seen ")[1].split(";")[0]
            for ln in out.splitlines() if ": seen (" in ln]
    assert len(seen) == 2 and seen[0] == seen[1]
    assert float(rec.value("after_push[0.5][0] - after_push[-0.5][0] | .3f")) > 0.01

"""Exact values and stated findings of the "Return and discount" chapter, read from its record."""
import re

import pytest


from helpers.recorded import fresh

rec = fresh("return_discount")  # this machine's run (tests/recorded.py)
ROWS, COLS = 3, 6


def lines(name):
    return rec.output(name).strip("\n").split("\n")


def table(name, skip=1, sep="|"):
    """Rows of a printed table as lists of stripped cells, header(s) skipped."""
    out = []
    for line in lines(name)[skip:]:
        if sep in line:
            out.append([c.strip() for c in line.split(sep)])
    return out


def grid(name, first=0):
    """The arrow grid printed by show_policy: {(row, col): arrow or 'P'/'G'}."""
    arrows = {}
    for r, line in enumerate(lines(name)[first:first + ROWS]):
        tokens = line.split()
        assert len(tokens) == COLS, line
        for c, tok in enumerate(tokens):
            arrows[(r, c)] = tok[0]
    return arrows


def outcome(name):
    """(P(pit), P(goal), mean steps) from the 'from S:' line."""
    m = re.search(r"from S: pit ([\d.]+), goal ([\d.]+), mean steps ([\d.]+)", rec.output(name))
    assert m, rec.output(name)
    return tuple(float(x) for x in m.groups())


def aiming(name):
    m = re.search(r"squares aiming at the pit: \[(.*)\]", rec.output(name))
    assert m
    return re.findall(r"\((\d),(\d)\)", m.group(1))


# ---------------------------------------------------------------- returns

def test_running_example_returns_exact():
    out = lines("discounted_return.py")
    assert out == ["G_0 = 0.81", "G_1 = 0.9", "G_2 = 1"]


def test_recursion_matches_direct_sum():
    out = rec.output("return_recursion.py")
    assert "recursion: [0.81, 0.9, 1.0]" in out
    assert "direct sum: [0.81, 0.9, 1.0]" in out
    diff = float(re.search(r"largest difference: (\S+)", out).group(1))
    assert diff < 1e-12


def test_exchange_rate_table_and_crossover():
    rows = {r[0]: r for r in table("exchange_rate.py")}
    assert set(rows) == {"0.000", "0.500", "0.631", "0.900", "0.990"}
    assert rows["0.000"][3] == rows["0.500"][3] == "now"
    assert rows["0.631"][3] == "either"
    assert rows["0.900"][3] == rows["0.990"][3] == "later"
    later = [float(rows[g][2]) for g in ["0.000", "0.500", "0.631", "0.900", "0.990"]]
    assert later == sorted(later) and later[2] == 1.0
    # prose: 10 later is "barely a third" at 0.5 and "almost six times" at 0.9
    assert 0.3 < later[1] < 1 / 3 and 5.5 < later[3] < 6
    assert "crossover: gamma = 0.1**(1/5) = 0.631" in rec.output("exchange_rate.py")
    assert rec.value("crossover | .3f") == "0.631"


def test_far_reward_and_half_lives():
    out = rec.output("far_reward_weight.py")
    assert "0.99**100 = 0.366" in out
    assert rec.value("far | .3f") == "0.366"
    halves = [float(x) for x in re.findall(r"counts half after\s+([\d.]+) steps", out)]
    assert halves == sorted(halves) and len(halves) == 3
    assert halves[0] == 1.0 and 6 < halves[1] < 7 and 65 < halves[2] < 75


def test_horizon_and_bound_table():
    rows = table("horizon_table.py")
    assert [r[0] for r in rows] == ["0.500", "0.900", "0.950", "0.990", "0.999"]
    for g, horizon, bound, at_h, share in rows:
        assert float(horizon) == pytest.approx(1 / (1 - float(g)), rel=1e-3)
        assert bound == horizon  # R_max = 1
        assert float(at_h) + float(share) == pytest.approx(1, abs=1e-3)
    at = [float(r[3]) for r in rows]
    assert at == sorted(at) and at[3] == 0.366 and at[-1] == 0.368  # -> 1/e
    shares = [float(r[4]) for r in rows]
    assert all(0.63 <= s <= 0.67 for s in shares[1:])  # "roughly two thirds"


def test_return_bound_holds_and_is_loose_for_noise():
    out = rec.output("return_bound_check.py")
    bound = float(re.search(r"bound 1/\(1-g\)\s+: ([\d.]+)", out).group(1))
    largest = float(re.search(r"largest \|G_0\| of 500\s+: ([\d.]+)", out).group(1))
    ones = float(re.search(r"always \+1 for 2000 steps: ([\d.]+)", out).group(1))
    cut = float(re.search(r"after 100 steps: ([\d.]+)", out).group(1))
    assert bound == 100.0 and ones == 100.0
    assert largest < 0.25 * bound
    assert 0 < cut < largest
    assert rec.value("cut | .2f") == f"{cut:.2f}"
    # the worst case of the cut-off tail, gamma^H * R_max / (1 - gamma), dwarfs the sample's
    assert rec.value("g ** H / (1 - g) | .1f") == "36.6" and cut < 36.6 / 5


def test_reward_to_go_backward_pass():
    out = lines("reward_to_go.py")
    assert out[0] == "[0.81 0.9  1.  ]"
    assert out[1] == "[-1.25 -0.5   1.    4.   10.  ]"  # first step negative
    check = rec.output("reward_to_go_check.py")
    for label in ["direct sums", "matrix form"]:
        assert f"backward pass vs {label}, gap < 1e-12 : True" in check
    assert "direct sums add 500500 terms; the pass adds 1000" in check


def test_reward_to_go_batch_respects_done():
    out = rec.output("reward_to_go_batch.py")
    nums = [float(x) for x in re.findall(r"-?\d+\.\d*", out)]
    assert nums[:6] == [0.81, 0.9, 1.0, 0.81, 0.9, 1.0]
    second = nums[6:12]
    assert second == sorted(second, reverse=True) and second[0] < 10


# ---------------------------------------------------------------- the ledge

def test_ledge_model():
    out = rec.output("pit_gridworld.py")
    assert "every row of P sums to one: True" in out
    assert "S then ↑: lands on (1,0) 0.8, (2,0)S 0.1, (2,1)P 0.1" in out
    assert "S then →: lands on (1,0) 0.1, (2,0)S 0.1, (2,1)P 0.8" in out


def test_baseline_takes_the_long_safe_route():
    g = grid("value_iteration.py")
    assert g[(2, 0)] == "↑"  # S climbs away from the pit
    assert all(g[(1, c)] == "↑" for c in range(1, 5))  # never walks along the edge
    assert all(g[(0, c)] == "→" for c in range(5)) and g[(0, 5)] == g[(1, 5)] == "↓"
    assert [g[(2, c)] for c in range(1, 6)] == ["P", "P", "P", "P", "G"]
    assert aiming("policy_outcomes.py") == []
    pit, goal, steps = outcome("policy_outcomes.py")
    assert pit == 0.111 and goal == 0.889
    assert pit == round(0.1 / 0.9, 3)  # all of it is the slip at S, retried after bumps


def test_short_sighted_agent_stays_cautious():
    g = grid("short_sighted_policy.py")
    assert all(g[(1, c)] == "↑" for c in (1, 2, 3))  # still steps away from the edge
    assert g[(2, 0)] == "←"  # S waits against the wall
    assert g[(1, 4)] == "→" and g[(1, 0)] == "→"  # the other two changes in the prose
    base = grid("value_iteration.py")
    changed = sorted(k for k in g if g[k] != base[k])
    assert changed == [(1, 0), (1, 4), (2, 0)]  # "three squares changed"
    assert aiming("short_sighted_policy.py") == []
    pit_s, goal_s, steps_s = outcome("short_sighted_policy.py")
    pit_b, _, steps_b = outcome("policy_outcomes.py")
    assert pit_s < pit_b  # more careful ...
    assert steps_s > 1.5 * steps_b  # ... and slower


def test_expensive_step_makes_the_pit_optimal():
    g = grid("expensive_step_policy.py")
    assert g[(2, 0)] == "→"  # S walks into the pit
    assert g[(1, 1)] == g[(1, 2)] == "↓"
    assert g[(0, 0)] == g[(0, 1)] == g[(1, 0)] == "↓"  # top-left walks down to them
    assert g[(1, 3)] == g[(1, 4)] == "→" and g[(1, 5)] == "↓"  # near the goal: walk on
    assert sorted(aiming("expensive_step_policy.py")) == [("1", "1"), ("1", "2"), ("2", "0")]
    pit, goal, steps = outcome("expensive_step_policy.py")
    assert pit == 1.0 and goal == 0.0 and steps < 2
    assert float(rec.value("V_cost[start] | .2f")) < -1


def test_policy_figures_were_drawn():
    for s in rec.snippets:
        if s.snippet.endswith(("policy_arrows_plot.py", "discount_weights_plot.py")):
            assert len(s.figures) == 1
    names = {s.snippet.split("/")[-1] for s in rec.snippets}
    assert {"policy_arrows_plot.py", "discount_weights_plot.py"} <= names


def test_step_cost_sweep_regimes():
    rows = table("step_cost_sweep.py")
    sweep = {float(r[0]): (r[1], r[2], int(r[3]), float(r[4]), float(r[5])) for r in rows}
    assert sweep[0.0][0] == "←" and sweep[0.0][3] == 0.0  # free steps: wait, never fall
    for c in (-0.04, -0.1):
        assert sweep[c][:3] == ("↑", "↑", 0)  # safe detour over row 0
        assert round(1 / 9, 3) <= sweep[c][3] < 0.15  # "close to the 1/9 of the first move"
        assert rec.value(f"sweep[{c}][3] | .3f") == f"{sweep[c][3]:.3f}"
    assert sweep[-0.04][3] == round(1 / 9, 3)
    assert sweep[-0.2][:3] == ("↑", "→", 0)  # shortcut along the edge, no dive
    assert 0.3 < sweep[-0.2][3] < 0.45
    assert rec.value("sweep[-0.2][3] | .2f") == f"{sweep[-0.2][3]:.2f}"
    for c in (-0.25, -0.3, -0.5, -1.0):
        assert sweep[c][0] == "→" and sweep[c][2] >= 1  # S dives from -0.25 on
        assert -1.5 < sweep[c][4] < -1  # "a little below -1"
    costs = sorted(sweep, reverse=True)
    aims = [sweep[c][2] for c in costs]
    pits = [sweep[c][3] for c in costs]
    assert aims == sorted(aims) and pits == sorted(pits)


# ---------------------------------------------------------------- exercises

def test_exercise_crossover():
    out = rec.output("exercise_crossover.py")
    assert "indifferent at gamma = 0.891" in out
    assert "check: 5.0 5.0" in out
    assert "must exceed 2.732" in out


def test_exercise_living_reward_hides_from_goal():
    out = lines("exercise_living_reward.py")
    values = re.findall(r"[↑→↓←]([+-][\d.]+)", "\n".join(out[:3]))
    assert len(values) == 13 and set(values) == {"+5.00"}
    assert "ends the episode: 0.0" in out[-1]


def test_exercise_gamma_threshold():
    out = rec.output("exercise_gamma_threshold.py")
    first = float(re.search(r"moves up from gamma = ([\d.]+)", out).group(1))
    assert 0.5 < first < 0.99  # waits at 0.5, moves at 0.99
    assert "does S wait for every gamma below that? True" in out
    assert "does S move up for every gamma from there on? True" in out
    assert "summed over 100 gammas: 0" in out


def test_exercise_truncated_rollout():
    out = rec.output("exercise_truncated_rollout.py")
    assert "bootstrap V=10 : [[10. 10. 10. 10. 10. 10.]]" in out
    assert rec.value("reward_to_go_batch(cut, no_end, 0.9)[0, 0] | .2f") == "4.69"
    # zero is an estimate too: every start's error reaches step 0 shrunk by 0.9**6, so
    # an estimate off by more than the true value (10) does worse than zero
    errors = {v: float(rec.value(f"start_errors[{v}] | +.3f")) for v in ("0.0", "7.0", "25.0")}
    for v, err in errors.items():
        assert abs(err - 0.9**6 * (float(v) - 10)) < 5e-4
    assert abs(errors["7.0"]) < abs(errors["0.0"]) < abs(errors["25.0"])


def test_delayed_reward_figure_crossover_and_default_frame():
    # 1 now against 10 after five steps: indifferent where 10 * g**5 = 1
    g_star = 10 ** (-1 / 5)
    assert rec.value("delay_crossover | .3f") == f"{g_star:.3f}" == "0.631"
    assert rec.output("delayed_reward_explorer.py").strip() == (
        f"gamma = 0.90: 1 now is worth 1.000, 10 after 5 steps {10 * 0.9**5:.3f}:"
        " wait for the 10")
    # the control's grid (0 to 0.99 step 0.01, so 0.99 itself is a frame) flips the
    # choice exactly once, between 0.63 and 0.64, either side of the crossover
    grid = [i / 100 for i in range(100)]
    flips = [g for a, g in zip(grid, grid[1:]) if (10 * a**5 > 1) != (10 * g**5 > 1)]
    assert flips == [0.64]
    assert rec.value("0.2 ** (1 / 5) | .3f") == "0.725"   # worth twice the point

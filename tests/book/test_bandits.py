"""Chapter 3 (bandits): exact values and the findings the prose states, on the record."""
import re

import pytest


from helpers.recorded import fresh

rec = fresh("bandits")  # this machine's run (tests/recorded.py)
HORIZONS = (2_000, 20_000)
PILOTS = ("pilot, 50 per page", "pilot, 300 per page")
BANDITS = ("eps-greedy 0.1", "eps-greedy 0.01", "UCB c = 2", "UCB c = 0.18", "Thompson")


def numbers(text):
    return [float(x) for x in re.findall(r"[-+]?\d+(?:\.\d+)?", text.replace(",", ""))]


def comparison():
    """{name: {horizon: (mean regret, sd, wrong share)}} from the comparison table."""
    lines = rec.output("compare_strategies.py").splitlines()
    assert "2,000 visitors" in lines[0] and "20,000 visitors" in lines[0]
    table = {}
    pattern = (r"(.+?)\s+([\d.]+) ±\s+([\d.]+)\s+([\d.]+)%"
               r"\s+([\d.]+) ±\s+([\d.]+)\s+([\d.]+)%$")
    for ln in lines[1:]:
        m = re.match(pattern, ln)
        assert m, ln
        v = [float(x) for x in m.groups()[1:]]
        table[m.group(1).strip()] = {2_000: (v[0], v[1], v[2] / 100),
                                     20_000: (v[3], v[4], v[5] / 100)}
    return table


def slopes():
    """{name: (early loss rate, late loss rate, late / early)}."""
    out = {}
    for ln in rec.output("regret_slopes.py").splitlines()[1:]:
        name, rest = ln[:21].strip(), ln[21:]
        out[name] = tuple(numbers(rest))
    return out


@pytest.fixture(scope="module")
def table():
    return comparison()


# ---- exact values ---------------------------------------------------------------


def test_expected_reward_exact():
    out = rec.output("expected_reward.py")
    assert "J(uniform) = 0.5" in out
    assert "J(always C) = 0.8" in out
    assert "regret per pull = 0.3" in out
    assert rec.value('expected_reward(policies["uniform"]) | .1f') == "0.5"
    assert rec.value('expected_reward(policies["always C"]) | .1f') == "0.8"


def test_signup_pages_exact():
    out = rec.output("signup_pages.py")
    assert "A 0.05, B 0.03, C 0.00" in out
    assert "standard error A 0.031, B 0.036, C 0.042" in out  # sqrt(p(1-p)/50)
    assert "standard error A 0.013, B 0.015, C 0.017" in out  # sqrt(p(1-p)/300)


def test_ucb_constant_and_bonus_exact():
    out = rec.output("ucb.py")
    assert "c = 0.18" in out  # 2 * 0.1 * 0.9
    assert "= 0.174" in out  # sqrt(2 ln 2000 / 500)
    assert "= 0.052" in out  # sqrt(0.18 ln 2000 / 500)
    assert rec.value("C_TUNED | .2f") == "0.18"


def test_epsilon_floor_exact():
    out = rec.output("epsilon_greedy.py")
    assert "0.00267 per visitor, 48.0 over 18,000" in out  # 0.1 * 0.08 / 3


def test_table_has_all_strategies(table):
    assert set(table) == set(PILOTS) | set(BANDITS)


# ---- findings the prose states -----------------------------------------------------


def test_pilot_error_is_permanent_and_regret_linear(table):
    s = slopes()
    for name in PILOTS:
        # the share of wrong runs is decided by the pilot and never changes
        assert table[name][2_000][2] == table[name][20_000][2]
        # loss per visitor after the pilot is constant: late rate equals early rate
        early, late, ratio = s[name]
        assert abs(late - early) <= 0.02 and abs(ratio - 1) < 0.01
    small = table["pilot, 50 per page"]
    assert small[20_000][0] / small[2_000][0] > 8  # ten times the visitors, ~ten times the loss
    assert small[20_000][0] == max(t[20_000][0] for t in table.values())  # worst at 20,000
    # ...but only in this draw: the exact expected loss is within noise of UCB c = 2's
    exact = rec.output("pilot_exact.py")
    assert exact.startswith("exact, for 20,000 visitors:\n")
    assert "pilot of  50 per page: P(wrong page) 36.2%, expected loss 261.7" in exact
    assert "pilot of 300 per page: P(wrong page) 9.8%" in exact
    exact_50 = float(rec.value("exact_loss[50] | .1f"))
    se = float(rec.value('spread["pilot, 50 per page", 20_000] / 20 | .1f'))
    z = float(rec.value('(lost["pilot, 50 per page", 20_000] - exact_loss[50]) / '
                        '(spread["pilot, 50 per page", 20_000] / 20) | .1f'))
    assert 1 < z < 2 and abs(exact_50 - table["UCB c = 2"][20_000][0]) < 2 * se
    assert float(rec.value("exact_wrong[300] | .1%").rstrip("%")) > \
        float(rec.value("wrong[1] | .1%").rstrip("%"))        # the simulated share was low
    # the bigger pilot is wrong less often but still loses more than Thompson
    assert table["pilot, 300 per page"][20_000][2] < small[20_000][2]
    assert table["pilot, 300 per page"][20_000][0] > 2 * table["Thompson"][20_000][0]


def test_small_epsilon_locks_on_early(table):
    e01, e1 = table["eps-greedy 0.01"], table["eps-greedy 0.1"]
    assert e01[2_000][0] > e1[2_000][0]
    assert e01[2_000][2] == max(t[2_000][2] for t in table.values())  # wrong most often
    assert e01[20_000][2] > 0.1  # still stuck on a wrong page in many runs at 20,000
    assert e1[20_000][2] < 0.02  # eps = 0.1 escapes its early mistakes
    lines = rec.output("epsilon_lock_on.py").splitlines()
    assert "wrong" in lines[0] and "kept if wrong" in lines[0]
    lock = {ln[:26].strip(): numbers(ln[26:]) for ln in lines[1:]}
    assert set(lock) == {"eps-greedy 0.1", "eps-greedy 0.01", "Thompson"}
    _, kept01, survive01 = lock["eps-greedy 0.01"]
    wrong_ts, _, survive_ts = lock["Thompson"]
    assert kept01 >= 80 and survive01 >= 60  # early favourite kept, even a wrong one
    assert wrong_ts >= 25  # Thompson's early favourite is often wrong too...
    assert survive_ts <= 10  # ...but it drops a wrong early favourite
    assert all(row[0] >= 25 for row in lock.values())  # at 100 visitors all guess
    assert rec.value('early_wrong["Thompson"] | .0%') == f"{wrong_ts:.0f}%"


def test_epsilon_01_late_rate_is_the_exploration_floor():
    floor = 1_000 * 0.1 * (0.05 + 0.03 + 0) / 3  # per 1,000 visitors, perfect estimates
    early, late, _ = slopes()["eps-greedy 0.1"]
    assert abs(late - floor) < 0.15  # straight line: pays the floor and nothing more
    assert early > 2 * floor  # ...after an early phase of real mistakes
    assert rec.value('1_000 * 0.1 * GAPS.mean() | .2f') == f"{floor:.2f}"
    assert rec.value('late[NAMES.index("eps-greedy 0.1")] | .2f') == f"{late:.2f}"


def test_ucb_constant_must_match_reward_scale(table):
    textbook, tuned = table["UCB c = 2"], table["UCB c = 0.18"]
    for h in HORIZONS:
        assert tuned[h][0] < textbook[h][0]
    assert textbook[20_000][0] > 3 * tuned[20_000][0]
    assert textbook[20_000][2] <= 0.01  # not wrong, just over-cautious
    assert textbook[20_000][0] > table["eps-greedy 0.1"][20_000][0]
    # "nearly as much as the worst pilot"
    assert 0.8 * table["pilot, 50 per page"][20_000][0] < textbook[20_000][0]
    s = slopes()
    assert s["UCB c = 2"][1] > 5 * s["UCB c = 0.18"][1]  # still exploring late


def test_thompson_needs_no_tuning_and_bends(table):
    ts = table["Thompson"]
    for h in HORIZONS:
        assert ts[h][0] == min(t[h][0] for t in table.values())  # lowest regret
    assert ts[20_000][0] / ts[2_000][0] < 3  # ten times the visitors, < 3x the loss
    assert slopes()["Thompson"][2] < 0.15  # late loss rate a small share of early
    assert ts[20_000][2] == 0.0


def test_thompson_probability_matching():
    shares = numbers(" ".join(ln.split("chance")[1] for ln in
                              rec.output("thompson_sampling.py").splitlines()))
    assert abs(sum(shares) - 1) < 0.002
    assert shares[2] > shares[1] > shares[0]
    later = numbers(rec.output("thompson_beliefs.py").split(":", 1)[1])
    assert abs(sum(later) - 1) < 0.002
    assert later[1] < shares[1] / 1.5  # more evidence, less exploration of B


def test_discount_helps_when_rates_drift():
    plain, faded = [numbers(ln.split(":", 1)[1])
                    for ln in rec.output("drifting_rates.py").splitlines()]
    assert faded[1] < 0.7 * plain[1]  # lost after the swap
    assert faded[2] < plain[2]  # last 1,000 visitors
    assert faded[0] > plain[0]  # the price: more loss before the swap


def test_exercises():
    pilot = [numbers(ln) for ln in rec.output("exercise_pilot_size.py").splitlines()[1:]]
    wrong = [row[1] for row in pilot]
    loss = [row[2] for row in pilot]
    assert wrong == sorted(wrong, reverse=True)  # bigger pilots are wrong less often
    assert min(loss) < loss[0] and min(loss) < loss[-1]  # U-shaped total loss
    assert min(loss) > comparison()["Thompson"][20_000][0]
    sweep = [numbers(ln) for ln in rec.output("exercise_ucb_sweep.py").splitlines()]
    lost = [row[1] for row in sweep]
    assert lost[0] > lost[1] > lost[2] > lost[3] < lost[4]  # falls, then rises again
    assert sweep[4][2] > sweep[2][2]  # too small a constant locks on
    greedy = [numbers(ln.split(":")[1]) for ln in
              rec.output("exercise_optimistic_greedy.py").splitlines()]
    assert greedy[1][0] < greedy[0][0] and greedy[1][1] < greedy[0][1]


def test_bound_values_match_outputs(table):
    assert rec.value('lost["Thompson", 20_000] | .1f') == f"{table['Thompson'][20_000][0]:.1f}"
    assert rec.value('lost["pilot, 50 per page", 20_000] | .1f') == \
        f"{table['pilot, 50 per page'][20_000][0]:.1f}"
    assert rec.value('wrong["eps-greedy 0.01", 2_000] | .1%') == \
        f"{table['eps-greedy 0.01'][2_000][2]:.1%}"


def prob_best(signups, shown, grid=200_001):
    """P(each page's rate is the highest) under Beta(1 + s, 1 + n - s) beliefs, by
    integrating on a grid: independent of the chapter's Monte Carlo."""
    import math

    import numpy as np
    x = np.linspace(0, 1, grid)[1:-1]
    dens = []
    for s, n in zip(signups, shown):
        a, b = 1 + s, 1 + n - s
        log_norm = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
        dens.append(np.exp(log_norm + (a - 1) * np.log(x) + (b - 1) * np.log1p(-x)))
    dx = x[1] - x[0]
    cdfs = [np.cumsum(d) * dx for d in dens]
    return [float(np.sum(d * np.prod([c for j, c in enumerate(cdfs) if j != i], 0)) * dx)
            for i, d in enumerate(dens)]


def test_thompson_figure_one_run_frame_by_frame():
    out = rec.output("thompson_explorer.py").strip()
    m = re.fullmatch(r"at 400: A (\d+)/(\d+), B (\d+)/(\d+), C (\d+)/(\d+);"
                     r" next sees A ([\d.]+), B ([\d.]+), C ([\d.]+)", out)
    assert m, out
    signed = [int(m.group(i)) for i in (1, 3, 5)]
    shown = [int(m.group(i)) for i in (2, 4, 6)]
    assert sum(shown) == 400 and all(0 <= s <= n for s, n in zip(signed, shown))
    # the prose: B led after 400 visitors, C took over and ends far ahead
    assert shown[1] > shown[2] and rec.value("counts[400][0][1] | .0f") == str(shown[1])
    last = [int(rec.value(f"counts[-1][0][{i}] | .0f")) for i in range(3)]
    assert sum(last) == 2000 and last[2] > 0.7 * 2000
    chance = [float(m.group(i)) for i in (7, 8, 9)]
    for got, exact in zip(chance, prob_best(signed, shown)):
        assert abs(got - exact) < 0.0006  # integrated, not drawn: exact to 3 decimals
    assert float(rec.value("chance_best(counts[-1][1], counts[-1][0])[2] | .3f")) > 0.9


def test_thompson_figure_alt_describes_the_run():
    cold = float(rec.value("counts[np.argmax(counts[:, 0, 2] >= 40)][1][2] | .0f"))
    assert cold <= 2, "Alt of the Thompson explorer: 'In this run page C started cold'"
    b_rate = float(rec.value("counts[400][1][1] / counts[400][0][1] | .3f"))
    assert 0.05 <= b_rate <= 0.075, \
        "Alt of the Thompson explorer: 'B, whose measured rate stayed near its true 0.07'"
    led = int(rec.value("counts[400][0][1] | .0f")), int(rec.value("counts[400][0][2] | .0f"))
    assert led[0] > led[1], "Alt of the Thompson explorer: B 'led' after 400 visitors"
    after = float(rec.value("(counts[-1][0][2] - counts[400][0][2]) / 1600 | .0%").rstrip("%"))
    last = float(rec.value("(counts[-1][0][2] - counts[1000][0][2]) / 1000 | .0%").rstrip("%"))
    assert 75 < after <= last, \
        "Alt of the Thompson explorer: 'Then C's belief moved past B's, and C took'"


def test_thompson_stopping_rule_and_report():
    out = rec.output("thompson_stopping.py")
    rows = [ln.split() for ln in out.splitlines()[1:8]]
    assert [int(r[0]) for r in rows] == [100, 200, 400, 800, 1200, 1600, 2000]
    p_best = [[float(x) for x in r[1:4]] for r in rows]
    assert all(abs(sum(p) - 1) < 0.002 for p in p_best)  # printed to 3 decimals
    kept = [r[4] for r in rows]
    loss = [float(r[5]) for r in rows]
    # "After 200 visitors the favourite is page B"; "C at every checkpoint but one"
    assert kept[1] == "B" and kept.count("C") == len(kept) - 1
    # "By visitor ... the expected loss of keeping C has fallen to ...": the first
    # checkpoint under the limit of 1 per 1,000, and the loss is far lower than early
    stop_at = int(rec.value("stop_at"))
    first_under = next(int(r[0]) for r, x in zip(rows, loss) if x < 1)
    assert stop_at == first_under and kept[[int(r[0]) for r in rows].index(stop_at)] == "C"
    assert loss[1] > 5 * loss[-1]
    # the report: the ruled-out pages' intervals are wide, C's is the narrowest
    widths = [numbers(ln.split("[")[1])[1] - numbers(ln.split("[")[1])[0]
              for ln in out.splitlines() if ln.strip().startswith("page ")]
    assert len(widths) == 3 and widths[2] < min(widths[:2])

"""Chapter 4 (Q-learning): exact values and the findings the prose states, on the record."""
import re

from helpers.recorded import first_line, fresh, numbers

rec = fresh("q_learning")  # this machine's run (tests/recorded.py)


def line(snippet, start):
    return first_line(rec, snippet, start)


def value(body):
    return float(rec.value(body).rstrip("%"))


# --- exact values ------------------------------------------------------------------

def test_gridworld_counts():
    out = rec.output("gridworld.py")
    assert "13 squares to decide in, 52 Q-values to learn" in out
    assert "every row of P sums to 1: True" in out


def test_value_iteration_start_value_is_0481():
    out = rec.output("value_iteration.py")
    assert "value of the start square: 0.481" in out
    assert rec.value("V_star[START] | .3f") == "0.481"
    # the value table and the policy the prose reads out
    assert " 0.481  0.402  0.453  0.231" in out
    rows = [ln.split() for ln in out.splitlines() if set(ln.split()) <= set("^>v<#HG")
            and ln.strip()]
    assert rows[0] == ["v", "<", "v", "<"]          # start goes down, corner goes left
    assert rows[3] == [">", ">", ">", "G"]


def test_q_star_and_near_tie_on_square_8():
    out = rec.output("q_star_gaps.py")
    assert "V* = max_a Q*: True" in out
    assert "smallest gap between the two best actions: 0.0103 on square 8" in out
    assert value("Q_star[8, 1] | .3f") > value("Q_star[8, 2] | .3f")


def test_error_shrinks_by_at_most_gamma_per_sweep():
    out = rec.output("contraction.py")
    ratios = numbers(line("contraction.py", "ratio").split(":", 1)[1])
    assert len(ratios) == 6 and all(0 < r <= 0.95 for r in ratios)
    assert value("ratios[:-1].max() | .3f") <= 0.95
    assert "largest ratio over all" in out


def test_td_update_by_hand():
    out = rec.output("td_update_by_hand.py")
    assert "TD error +1.000, Q[14, >] = +0.1000" in out
    # -0.04 + 0.95 * 0.1 = 0.055: the goal's news moved one square back
    assert "TD error +0.055, Q[13, >] = +0.0055" in out


def test_policy_evaluation_matches_value_iteration():
    assert "policy_value(pi*) at the start = 0.4815" in rec.output("exact_policy_value.py")


# --- seeded findings ---------------------------------------------------------------

def test_run_0_close_to_optimum_and_visits_uneven():
    est = value("Q[0, START].max() | .3f")
    assert abs(est - 0.481) < 0.05
    start, corner = value("visits[0, START]"), value("visits[0, 3]")
    assert start > 10 * corner                      # "a factor of ..." in the prose


def test_twenty_runs_rarely_exact_but_close():
    exact = value("exact.sum()")
    worst_loss = value("1 - scores.min() / V_star[START] | .1%")
    assert exact < 10                               # most runs differ somewhere
    assert worst_loss < 6                           # ...and lose only a few per cent
    assert value("scores.mean() | .4f") > 0.46
    rows = rec.output("exact_policy_value.py").splitlines()[-4:]
    per_square = [int(x) if x.isdigit() else 0 for ln in rows for x in ln.split()]
    # disagreements concentrate on square 8 (near tie) and square 3 (rare corner)
    top_two = sorted(range(16), key=lambda s: -per_square[s])[:2]
    assert set(top_two) == {3, 8}
    on_3_and_8 = value("wrong[:, [3, 8]].sum()")
    assert on_3_and_8 == per_square[3] + per_square[8]
    assert value("wrong.sum()") == sum(per_square)
    assert on_3_and_8 > 0.5 * sum(per_square)       # most wrong arrows, not all


def test_learning_curve_fast_then_plateau():
    assert value("mid[1] | .3f") > 5 * value("mid[3] | .3f")      # big drop by 2000
    assert 0 < value("mid[-1] | .4f") < 0.03                       # small plateau
    # "the same number": the plateau is the price of the near tie on square 8
    assert rec.value("tie_cost | .4f") == rec.value("mid[-1] | .4f")
    assert line("learning_curve.py", "pi* with the runner-up").endswith(
        rec.value("tie_cost | .4f"))


def test_sarsa_learns_eps_greedy_value_q_learning_greedy_value():
    q_est, q_true = value("est_greedy[~is_sarsa].mean() | .3f"), value(
        "true_greedy[~is_sarsa].mean() | .3f")
    s_est, s_true = value("est_soft[is_sarsa].mean() | .3f"), value(
        "true_soft[is_sarsa].mean() | .3f")
    assert abs(q_est - q_true) < 0.03 and abs(s_est - s_true) < 0.03
    assert s_est < q_est - 0.08
    top = line("sarsa_vs_q.py", "action most runs pick").split(":")[1]
    q_row, s_row = (part.split() for part in top.split("|"))
    assert q_row[3] == "<" and s_row[3] == "^"      # SARSA's majority vote: "up"


def test_eps_greedy_optimum_is_pi_star_so_the_vote_is_noise():
    out = rec.output("eps_soft_optimum.py")
    assert "best eps-greedy policy = pi* on every square: True" in out
    assert value("Q_soft[3, 3] | +.3f") > 0.05 > abs(value("Q_soft[3, 0] | +.4f"))
    vote = value("policy_value(eps_soft(vote_sarsa))[START] | .4f")
    assert vote < value("policy_value(eps_soft(pi_star))[START] | .4f")
    costs = {int(m.group(1)): (float(m.group(2)), int(m.group(3))) for m in re.finditer(
        r"square (\d+): vote ., pi\* ., costs ([\d.]+), visits\s+(\d+)", out)}
    assert sorted(costs) == [2, 3, 8, 9]
    median = numbers(line("eps_soft_optimum.py", "and the median"))[-1]
    assert all(costs[s][1] < median / 5 for s in (2, 3))      # rarely visited
    assert all(costs[s][0] < 0.01 for s in (8, 9))             # near ties
    assert value("np.median(visits_m[is_sarsa][:, 3]) | .0f") == costs[3][1]


def test_cliff_walk_separates_greedy_and_eps_greedy_optima():
    out = rec.output("cliff_walking.py").splitlines()
    assert out[0].startswith("pi*: 13 moves") and out[5].startswith("best eps-greedy: 17")
    assert out[3].strip() == "oooooooooooo"                  # pi* walks the cliff edge
    assert out[6].strip() == "oooooooooooo"                  # the eps optimum, top row
    greedy_soft = value("policy_value(eps_soft(greedy_c), R_c, P_c, GAMMA, LIVE_C)[S_C] | .2f")
    safe_soft = value("policy_value(eps_soft(soft_c), R_c, P_c, GAMMA, LIVE_C)[S_C] | .2f")
    assert safe_soft > greedy_soft + 10
    greedy_v, safe_v = numbers(out[0])[1], numbers(out[5])[1]
    assert greedy_v > safe_v                                   # acting greedily, pi* wins
    # Sutton and Barto's rule (a fall returns to the start) keeps both routes
    assert out[10] == ("if a fall sends the agent back to the start: pi* 13 moves,"
                       " best eps-greedy 17")


def test_terminal_mask_invisible_at_zero_large_when_optimistic():
    out = rec.output("terminal_mask.py")
    assert "identical to the last bit: True" in out
    rows = [numbers(ln) for ln in out.splitlines() if re.match(r"\s+[01]\s+(True|False)", ln)]
    assert rows[0] == rows[1]                       # zero init: mask makes no difference
    assert rows[3][1] > 0 > rows[2][1]              # optimistic, no mask: the hole "pays"
    assert value("no_mask[init == 1, START].max(-1).mean() | .3f") > 2 * 0.481
    assert rows[3][3] > 0.95 * 0.481                # ...while the greedy policy survives
    flip = line("terminal_mask.py", "optimum of the buggy target")
    assert flip.endswith("squares [1] ['< -> >']")
    assert line("terminal_mask.py", "true V(S) of that optimum").endswith("0.4784 vs 0.4815")
    buggy = value("policy_value(no_mask[init == 1].argmax(-1))[:, START].mean() | .3f")
    masked = value("policy_value(with_mask[init == 1].argmax(-1))[:, START].mean() | .3f")
    assert buggy == rows[3][3] and masked == rows[2][3] and abs(buggy - masked) < 0.01


def test_bonus_loop_and_potential_fix():
    assert value("V_b[START] | .3f") > 2 * 0.481    # the proxy more than doubles
    assert value("policy_value(pi_b)[START] | .3f") < 0
    assert value("reach_goal(pi_b) | .2f") < 0.2
    hack = rec.output("reward_hacking.py").splitlines()
    assert hack[3].split()[1:3] == [">", "<"]      # squares 9 and 10 point at each other
    out = rec.output("potential_shaping.py")
    assert "same optimal policy as the true reward: True" in out
    assert "V_shaped = V* - phi: True" in out
    bonus = value("policy_value(pols[10:20])[:, START].mean() | .3f")
    fixed = value("policy_value(pols[20:30])[:, START].mean() | .3f")
    plain = value("policy_value(pols[:10])[:, START].mean() | .3f")
    assert bonus < 0 < plain and abs(fixed - plain) < 0.03
    assert value("(visits_h[10:20, 10] / STEPS).mean() | .2f") > 2 * value(
        "(visits_h[:10, 10] / STEPS).mean() | .2f")


def test_dqn_vs_table_and_stabilisers():
    # "That gap is one run": the table's mean lies inside DQN's interval, and without
    # its worst run DQN is level with the table
    dqn, table = value("v_dqn[:SEEDS].mean() | .3f"), value("v_table.mean() | .3f")
    low, high = value("ci_dqn[0] | .3f"), value("ci_dqn[1] | .3f")
    assert dqn < table and low < table < high
    assert value("v_best.min() | .3f") < 0
    assert abs(value("np.sort(v_best)[1:].mean() | .3f") - table) < 0.02
    rows = {}
    for ln in rec.output("dqn_ablation.py").splitlines()[1:]:
        m = re.match(r"\s*([\d.]+)\s+(.+?)\s+([-\d.]+)\s+([-\d.]+)\s+(\d+) / 10", ln)
        assert m, ln
        rows[float(m.group(1)), m.group(2)] = (float(m.group(3)), int(m.group(5)))
    assert all(rows[0.3, v][1] == 0 for v in ("replay + target", "no target network",
                                               "no replay", "neither"))
    gentle = [rows[0.3, v][0] for v in ("replay + target", "no target network",
                                        "no replay", "neither")]
    assert rows[0.3, "neither"][0] == max(gentle)   # "even comes out on top"
    assert rows[1.0, "replay + target"][1] == 0
    assert rows[1.0, "no replay"][1] == 0
    assert rows[1.0, "neither"][1] >= 3
    assert rows[1.0, "neither"][0] < rows[1.0, "replay + target"][0]
    assert rows[1.0, "no replay"][0] < rows[1.0, "replay + target"][0]
    assert value('summary[1.0, "neither"][2]') == rows[1.0, "neither"][1]


def test_frozen_lake():
    out = rec.output("frozen_lake.py")
    assert out.splitlines()[:4] == ["SFFF", "FHFH", "FFFH", "HFFG"]
    optimum = value("success(pi_fl) | .3f")
    learned = value("success(pi_learned) | .3f")
    assert 0.7 < optimum < 0.8
    assert learned > 0.9 * optimum
    won = value("np.mean(wins[-500:]) | .3f")
    assert won < learned                                     # exploring episodes win less
    explorer = value("success(explorer) | .3f")
    assert explorer < learned and abs(explorer - won) < 0.05  # ...and 5 % explains it
    assert value("np.diff(ends[-501:]).mean() | .0f") >= 20   # long episodes
    out = rec.output("frozen_lake_outcomes.py")
    assert "limit     100: goal 0.740, hole 0.159, time out 0.100" in out
    assert "limit 100,000: goal 0.824, hole 0.176, time out 0.000" in out
    assert "goal chance is 14/17 (off by below 1e-12: True)" in out
    assert "best chance of ever reaching G over all policies: 0.8235" in out
    # "Watching the clock helps only a little"
    clock = value("W_clock[0] | .3f")
    assert optimum < clock < optimum + 0.01
    assert value("outcomes(pi_fl, 100)[1] | .1%") == 15.9
    assert value("outcomes(pi_fl, 100)[2] | .1%") == 10.0


def test_wrong_arrows_mostly_on_tie_and_corner():
    assert value("wrong[:, [3, 8]].sum()") == 22 and value("wrong.sum()") == 33
    assert value("wrong.sum() - wrong[:, [3, 8]].sum()") == 11


def test_exercises():
    cost = rec.output("exercise_step_cost.py").splitlines()
    assert cost[-1].endswith("top row v > v v, square 6 v")  # -0.4: corner dives in
    assert "top row v < v <" in cost[0]
    potential = rec.output("exercise_any_potential.py")
    assert potential.count("policy unchanged: True") == 3
    assert potential.count("V_shaped = V* - phi: True") == 3


def test_sweep_figure_news_travels_one_move_per_sweep():
    # Independent value iteration on the same grid, sweep by sweep: the start square
    # pays only step costs (-0.04 per move, discounted) until the goal, six moves
    # away, reaches it on sweep 6.
    import numpy as np
    cells = "".join(["S...", ".#.H", "....", "...G"])
    gamma, slip = 0.95, ((0, 0.8), (1, 0.1), (3, 0.1))
    moves = [(-1, 0), (0, 1), (1, 0), (0, -1)]

    def land(s, a):
        r, c = s // 4 + moves[a][0], s % 4 + moves[a][1]
        ok = 0 <= r < 4 and 0 <= c < 4 and cells[4 * r + c] != "#"
        return 4 * r + c if ok else s

    arrive = np.array([{"G": 1.0, "H": -1.0}.get(ch, -0.04) for ch in cells])
    decide = np.array([ch in "S." for ch in cells])
    V, start_values = np.zeros(16), [0.0]
    for _ in range(24):
        Q = np.array([[sum(p * (arrive[land(s, (a + t) % 4)]
                                + gamma * V[land(s, (a + t) % 4)]) for t, p in slip)
                       for a in range(4)] for s in range(16)])
        V = np.where(decide, Q.max(axis=1), 0.0)
        start_values.append(V[0])
    first_positive = next(k for k, v in enumerate(start_values) if v > 0)
    assert first_positive == 6
    assert rec.value("int(np.argmax(sweeps[:, START] > 0))") == "6"
    assert rec.value("sweeps[:, START].min() | .3f") == f"{min(start_values):.3f}"
    assert rec.output("sweep_explorer.py").strip().startswith(
        f"sweep 6: V(start) {start_values[6]:+.3f} (V* 0.481)")
    # the arrows are all optimal while the values are still visibly off
    assert rec.value("int(np.argmax(optimal_arrows == DECIDE.sum()))") == "10"
    # the alt text: the frame prints V* one sweep before the value is within 5e-4 of it
    printed = next(k for k, v in enumerate(start_values) if f"{v:.3f}" == "0.481")
    assert rec.value('next(k for k, v in enumerate(sweeps[:, START]) if f"{v:.3f}" == '
                     'f"{V_star[START]:.3f}")') == str(printed) == "16"
    assert rec.value("int(np.argmax(np.abs(sweeps[:, START] - V_star[START]) < 5e-4))") == "17"
    assert float(rec.value("sweep_errors[np.argmax(optimal_arrows == DECIDE.sum())]"
                           " | .3f")) > 0.01


# --- the maximisation bias and double Q-learning -----------------------------------

def test_max_of_unbiased_estimates_is_biased_upwards():
    out = rec.output("max_bias.py")
    # E[max of 10 standard normals] = 1.5388, so -0.1 + 1.5388 (exact)
    assert "E[max of 10 one-draw estimates] = +1.4388 exact" in out
    sampled = numbers(line("max_bias.py", "E[max").split("exact,", 1)[1])[0]
    assert abs(sampled - 1.4388) < 0.02
    rated = numbers(line("max_bias.py", "chosen by one set"))[-1]
    assert abs(rated + 0.1) < 0.02                  # an independent rating is unbiased


def _left_shares(method):
    """The four block means of one method's row of double_q.py's table."""
    return numbers(line("double_q.py", method + " "))[0::2]  # the spreads sit between


def test_double_q_avoids_the_maximisation_bias():
    q, dq = _left_shares("Q-learning"), _left_shares("double Q-learning")
    assert len(q) == len(dq) == 4
    # "went left ... of the time ... against the optimal 5%": Q-learning, episodes
    # 11-50, far above 5 %; double Q-learning below it in every block
    assert q[1] > 0.8
    assert all(d < x for d, x in zip(dq, q))
    # "Double Q-learning's last 100 episodes are at ..., close to the optimum"
    tail_q = value('left_share["Q-learning"][:, -100:].mean() | .3f')
    tail_dq = value('left_share["double Q-learning"][:, -100:].mean() | .3f')
    assert 0.04 < tail_dq < 0.09 and tail_q > 1.5 * tail_dq
    # "above the 0 that 'right' is worth"; double Q's is "about level with 'right'"
    assert value('q_left_mean["Q-learning"][49] | +.3f') > 0.05
    assert abs(value('q_left_mean["double Q-learning"][49] | +.3f')) < 0.02


def test_double_q_figure_claims():
    # Alt: "both starting at one half" (tied tables choose at random), Q-learning
    # "climbs to" its peak, double Q-learning "never rises above" its own, which
    # lies in the first episodes; "the spread between groups, a hundredth or less"
    assert value('peak["Q-learning"][0] | .3f') > 0.9
    assert value('peak["double Q-learning"][0] | .3f') < 0.55
    for method in ("Q-learning", "double Q-learning"):
        first = numbers(line("double_q_figure.py", method + ": episode 1").split(",")[0])
        assert abs(first[-1] - 0.5) < 0.03
    peak_dq = line("double_q_figure.py", "double Q-learning: episode 1")
    assert numbers(peak_dq.split("(episode", 1)[1])[0] <= 10
    spreads = [numbers(line("double_q.py", m + " "))[1::2]
               for m in ("Q-learning", "double Q-learning")]
    assert all(len(s) == 4 and max(s) <= 0.01 for s in spreads)

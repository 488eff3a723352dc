"""The policy-gradients chapter: exact values and the findings its prose states."""
import re

import pytest


from helpers.recorded import fresh

rec = fresh("policy_gradients")  # this machine's run (tests/recorded.py)


def numbers(text):
    return [float(x) for x in re.findall(r"[-+]?\d+\.?\d*(?:e[-+]?\d+)?", text)]


def test_log_softmax_gradient_matches_finite_differences():
    out = rec.output("softmax_gradient.py").splitlines()
    formula, numeric = out[0].split(":")[1], out[1].split(":")[1]
    assert numbers(formula) == pytest.approx(numbers(numeric), abs=1e-5)
    assert sum(numbers(formula)) == pytest.approx(0, abs=1e-5)


def test_true_gradient_at_uniform_logits():
    out = rec.output("true_gradient.py")
    assert "J at uniform logits: 0.5" in out
    line = next(l for l in out.splitlines() if l.startswith("true gradient"))
    assert numbers(line.split(":")[1]) == [-0.1, 0.0, 0.1]


def test_one_reinforce_step_exact():
    out = rec.output("one_reinforce_step.py")
    assert "[0.274 0.274 0.452]" in out
    assert "[-0.167 -0.167  0.333]" in out
    assert rec.value("softmax(z + step)[2] | .3f") == "0.452"
    assert rec.value("softmax(z + step)[0] | .3f") == "0.274"


def test_reinforce_finds_arm_c_in_500_pulls():
    median = float(rec.value("np.median(final_c) | .3f"))
    share = float(rec.value("np.mean(final_c > 0.9) | .1%").rstrip("%")) / 100
    assert median > 0.9 and share > 0.8
    start = float(rec.value("(pis[0] @ win).mean() | .3f"))
    end = float(rec.value("(pis[-1] @ win).mean() | .3f"))
    assert start == 0.5 and 0.75 < end <= 0.8  # close to, never above, always-C
    b100 = float(rec.value("pis[100, :, 1].mean() | .2f"))
    a100 = float(rec.value("pis[100, :, 0].mean() | .2f"))
    assert a100 < b100 < 1 / 3, "Alt of the 500-pull figure: 'B falls slowly and A fastest'"


def test_baseline_variance_exact():
    out = rec.output("baseline_variance_exact.py")
    assert "b =  0.0: mean +0.50, variance 30.25" in out
    assert "b = 11.0: mean +0.50, variance 0.00" in out


def test_offset_rewards_lock_in_without_baseline_only():
    locked_raw = float(rec.value("locked[False] | .1%").rstrip("%"))
    locked_base = float(rec.value("locked[True] | .1%").rstrip("%"))
    found_base = float(rec.value("found[True] | .1%").rstrip("%"))
    assert locked_raw > 25  # a large share of runs commits to a wrong arm
    assert locked_base < 1  # with the baseline almost none does
    assert found_base > 90


def test_own_cartpole_matches_gymnasium():
    out = rec.output("cartpole_check.py")
    assert "ours fell then too: True" in out
    assert "agree to within 1e-6 at every step: True" in out


def test_reward_to_go_example():
    assert "[1.75 1.5  1.   0.   0.  ]" in rec.output("reward_to_go.py")


def study_rows():
    rows = []
    for line in rec.output("cartpole_study.py").splitlines():
        parts = line.split()
        if parts and parts[0] in ("True", "False"):
            rows.append((parts[0] == "True", int(parts[1]), *map(float, parts[2:5])))
    return rows


def test_cartpole_study_has_three_plus_seeds_each():
    rows = study_rows()
    assert sum(1 for r in rows if r[0]) >= 3 and sum(1 for r in rows if not r[0]) >= 3


def test_all_runs_learn_something():
    for _, _, first, best, _ in study_rows():
        assert best > 5 * first


def test_seed_sensitivity_without_baseline():
    last = [r[4] for r in study_rows() if not r[0]]
    assert max(last) - min(last) > 250  # same code, widely different endings


def test_baseline_better_and_more_consistent():
    raw = [r[4] for r in study_rows() if not r[0]]
    base = [r[4] for r in study_rows() if r[0]]
    assert sum(base) / len(base) > sum(raw) / len(raw) + 50
    assert max(base) - min(base) < max(raw) - min(raw)
    assert min(base) > 400
    # paired seeds (same initial weights): none ends worse with the baseline
    assert all(b >= r for r, b in zip(raw, base))


def test_a_run_learns_then_collapses():
    out = rec.output("cartpole_study.py")
    assert "collapsed runs: [(False, " in out
    peak = float(rec.value("peak[collapsed[0]] | .0f"))
    last = float(rec.value("last[collapsed[0]] | .0f"))
    assert peak > 300 and last < peak / 2


def variance_table():
    rows = {}
    for line in rec.output("variance_table.py").splitlines()[1:]:
        name, values = line[:20].strip(), numbers(line[20:])
        rows[name] = values  # variance, |mean grad|, ratio
    return rows


def test_variance_is_not_signal():
    t = variance_table()
    raw, const = t["raw reward-to-go"], t["minus a constant b"]
    own_mean, critic = t["minus episode mean"], t["minus critic V(s_t)"]
    std = t["standardised"]
    # a constant baseline: less variance, similar signal, clearly better ratio
    assert const[0] < 0.6 * raw[0] and const[2] > 1.3 * raw[2]
    # the crude critic does about as well as the constant
    assert critic[2] > 1.3 * raw[2] and abs(critic[2] - const[2]) < 0.1 * const[2]
    # the episode's own mean removes signal with the noise: ratio no better
    assert own_mean[0] < raw[0] and own_mean[1] < 0.6 * raw[1]
    assert own_mean[2] < 1.1 * raw[2]
    # standardising: variance down by more than a thousand (the self-test says so),
    # ratio barely moves
    assert raw[0] / std[0] > 1000 and std[2] < 1.3 * raw[2]
    assert std[2] < const[2]
    # standardised over batches of 8 episodes: the batch mean is nearly a constant
    # baseline, so the ratio sits beside the constant's, well above the raw one
    batch = t["standardised per 8"]
    assert abs(batch[2] - const[2]) < 0.1 * const[2] and batch[2] > 1.3 * raw[2]


def test_gae_limits():
    out = rec.output("gae.py")
    assert "lambda 0 equals the TD errors:         True" in out
    assert "lambda 1 equals G_t - V(s_t) (Monte Carlo): True" in out
    first = next(l for l in out.splitlines() if l.startswith("lambda 0.00"))
    assert numbers(first.split("=", 1)[1])[0] == pytest.approx(1.455)


def test_exercise_optimal_baseline():
    out = rec.output("exercise_optimal_baseline.py")
    assert "best b on the grid 5.50" in out and "= 5.50" in out
    assert float(rec.value("total_variance(0) | .1f")) > 100 * float(
        rec.value("total_variance(5.5) | .3f"))


def test_exercise_lambda_return_agrees():
    lines = rec.output("exercise_lambda_return.py").splitlines()
    assert numbers(lines[0].split(":")[1]) == numbers(lines[1].split(":")[1])


# --- continuous actions: a Gaussian policy ------------------------------------------

def _after(snippet, start):
    """Numbers on the first line of `snippet`'s output that starts with `start`,
    after that prefix."""
    for ln in rec.output(snippet).splitlines():
        if ln.startswith(start):
            return numbers(ln[len(start):])
    raise AssertionError(f"{snippet}: no line starts with {start!r}")


def test_gaussian_score_matches_finite_differences():
    formula = _after("gaussian_score.py", "score by formula:")
    numeric = _after("gaussian_score.py", "score by differences:")
    assert len(formula) == 2 and formula == pytest.approx(numeric, abs=1e-5)
    # log N(mu | mu, 0.1^2) = -log 0.1 - log(2 pi) / 2 = +1.384 (exact): above zero
    assert "log pi(mu), sigma = 0.1: +1.384" in rec.output("gaussian_score.py")


def test_gaussian_gradient_exact_and_sampled():
    assert "J = -5 exactly" in rec.output("gaussian_task.py")   # -(0 - 2)^2 - 1
    assert _after("gaussian_task.py", "exact gradient (mu, log sigma):") == [4, -2]
    est = _after("gaussian_bandit.py", "REINFORCE estimate from 100,000 draws:")
    mc, err = est[:2], est[2:]
    # "lies within two standard errors of the exact gradient in both coordinates"
    assert abs(mc[0] - 4) < 2 * err[0] and abs(mc[1] + 2) < 2 * err[1]


def test_gaussian_reinforce_learns_the_optimum():
    mean_mu = float(rec.value("mu_final.mean() | .3f"))
    assert abs(mean_mu - 2) < 0.05                  # "against the exact optimum 2"
    sigma = float(rec.value("np.median(sigma_final) | .3f"))
    assert sigma < 0.2                              # "has shrunk from 1 to ..."
    # "the spread of the means between learners is ... at step 51 and grows ..."
    early = float(rec.value("trace_g[50, 0].std() | .3f"))
    late = float(rec.value("mu_final.std() | .3f"))
    assert late > 1.5 * early
    # "The last line says why": the noise floor of the mu-estimate grows as 1 / sigma
    floor = _after("gaussian_reinforce.py", "noise floor of one draw's mu-estimate:")
    assert floor[0] == 0.5 and floor[2] > 4 * floor[0]

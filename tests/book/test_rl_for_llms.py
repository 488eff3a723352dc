"""Chapter 7 (RL for language models): exact values and stated findings, on the record."""
import re

from helpers import recorded

from helpers.recorded import fresh

rec = fresh("rl_for_llms")  # this machine's run (tests/recorded.py)


def numbers(text):
    return recorded.numbers(text, decimals_only=True)


def line(snippet, prefix):
    return recorded.first_line(rec, snippet, prefix)


def table(snippet, first_col="beta"):
    """Rows of a sweep table: numbers of every line after the header."""
    out = rec.output(snippet).splitlines()
    start = next(i for i, ln in enumerate(out) if ln.split()[:1] == [first_col])
    rows = []
    for ln in out[start + 1:]:
        nums = re.findall(r"[-+]?\d*\.?\d+", ln)
        if len(nums) < 4 or not re.match(r"\s*\d", ln):
            break
        rows.append([float(x) for x in nums[:4]])
    return rows


# ---- token MDP ------------------------------------------------------------------


def test_token_mdp_reward_only_at_the_end():
    out = rec.output("token_mdp.py")
    rewards = re.findall(r"r=(\d)", out)
    assert rewards == ["0"] * 5 + ["1"]
    assert "-4.428" in out


# ---- Bradley-Terry reward model -------------------------------------------------


def test_reward_model_learns_correctness_and_length_bias():
    w_c, w_len = numbers(line("bradley_terry_reward_model.py", "learned weights"))
    assert w_c > 0 and w_len > 0          # it pays for length, as the raters did
    assert w_c > 3 * w_len                # but correctness matters far more
    agree = float(re.search(r"([\d.]+)%", line("bradley_terry_reward_model.py",
                                               "agrees")).group(1))
    assert 75 < agree < 100
    # "close to the ceiling": every pair with one correct answer (about half), and the
    # rest at best 3 times in 4, gives about 87%
    assert abs(agree - 87) < 2.5
    rows = [numbers(ln.split(":", 1)[1]) for ln in
            rec.output("bradley_terry_reward_model.py").splitlines() if ln.startswith("l2 =")]
    # per row: correct, length, ratio, final gradient norm; l2 = 0.01, 0.001, 0.0001
    assert all(r[3] <= 1e-8 for r in rows), "each fit stops on a flat gradient"
    ratios, lengths, correct = [r[2] for r in rows], [r[1] for r in rows], [r[0] for r in rows]
    assert ratios == sorted(ratios) and ratios[-1] > 1.4 * ratios[0], \
        "prose: 'the ratio of the weights from ... as `l2` shrinks'"
    assert lengths == sorted(lengths) and abs(lengths[-1] / lengths[0] - 4 / 3) < 0.05, \
        "prose: 'the length weight moves as well ... by a third'"
    assert correct[-1] > 2 * correct[0]


# ---- closed-form optimum (exact) ------------------------------------------------


def test_kl_optimum_exact():
    out = rec.output("kl_optimum.py")
    assert "[0.179 0.292 0.529]" in out
    assert "E[r] 1.350" in out and "KL 0.323" in out and "objective 1.027" in out
    assert "beta*log Z 1.027" in out and "Z = 2.7933" in out
    assert "[1.027 1.027 1.027]" in out


def test_goodhart_sweep_proxy_climbs_true_peaks_then_collapses():
    rows = table("goodhart_beta_sweep.py")
    betas = [r[0] for r in rows]
    rm = [r[1] for r in rows]
    true = [r[2] for r in rows]
    assert betas == sorted(betas, reverse=True)
    assert all(a < b for a, b in zip(rm, rm[1:]))          # proxy rises as beta falls
    peak = true.index(max(true))
    assert 0 < peak < len(true) - 1                          # interior peak
    assert true[-1] < true[0] and true[-1] < max(true) - 1, \
        "Goodhart figure's Alt: 'Following the proxy further makes the real outcome worse'"
    assert rec.value("max(sweep, key=lambda b: sweep[b][1])") == "3"


def leash_optimum(beta):
    """pi* over the leash figure's five replies, computed here without the chapter."""
    import numpy as np
    r, ref = np.array([0.0, 0.5, 1.0, 2.0, 3.0]), np.array([0.4, 0.3, 0.2, 0.1, 0.0])
    w = ref * np.exp((r - r.max()) / beta)
    p = w / w.sum()
    m = p > 0
    return p, p @ r, float(np.sum(p[m] * np.log(p[m] / ref[m])))


def test_kl_leash_figure_default_frame_and_both_ends():
    p, mean_r, div = leash_optimum(1.0)
    shares = ", ".join(f"{q:.2f}" for q in p)
    assert rec.output("kl_leash_explorer.py").strip() == (
        f"beta = 1: pi* = ({shares}), E[r] = {mean_r:.3f}, KL = {div:.3f}")
    # a loose leash ends on the best reply the reference can write (reward 2, ref 0.1):
    # E[r] = 2 and KL = log 10; the reply worth 3 that the reference never writes stays 0
    assert rec.value("kl_stats(0.01)[1] | .3f") == "2.000"
    assert rec.value("kl_stats(0.01)[2] | .3f") == "2.303"
    assert leash_optimum(0.01)[0][4] == 0
    assert rec.value("kl_stats(10)[2] | .3f") == f"{leash_optimum(10)[2]:.3f}"
    assert float(rec.value("kl_stats(10)[2] | .3f")) < 0.01   # tight: nearly pi_ref
    ends = [leash_optimum(b) for b in (10, 2, 0.2, 0.01)]
    for i in (1, 2):                                           # E[r], then the KL
        share = (ends[2][i] - ends[1][i]) / (ends[3][i] - ends[0][i])
        assert share > 0.85, \
            "leash explorer's Alt: 'almost all of the change happens between beta 2 and 0.2'"


# ---- per-token KL (exact) -------------------------------------------------------


def test_per_token_kl_reward_exact():
    out = rec.output("token_level_kl.py")
    assert "sum over the response 0.775" in out
    assert "whole sequence 0.775" in out


def test_sequence_kl_is_sum_of_token_kls_exact():
    out = rec.output("token_level_kl.py")
    assert "sum of per-token KLs      0.3713" in out
    assert "KL over whole sequences   0.3713" in out
    assert "0.0823" in out and "0.3681" in out and "0.1046" in out


# ---- DPO ------------------------------------------------------------------------


def test_dpo_matches_closed_form():
    gap = numbers(line("dpo_vs_closed_form.py", "largest gap"))[0]
    assert gap < 0.02
    assert rec.value("dpo_gap | .3f") == f"{gap:.3f}"


# ---- the support ticket ---------------------------------------------------------


def e_true(snippet, prefix):
    return float(re.search(r"E\[true\] ([-+]\d+\.\d+)",
                           line(snippet, prefix)).group(1))


def test_per_token_advantages_worked_example_exact():
    out = rec.output("token_advantages.py")
    rows = [numbers(ln.split("'")[-1]) for ln in out.splitlines()[1:6]]
    assert len(rows) == 5
    # columns: log ratio, KL charge, r_t, to go, V(s_t), delta_t, A_t
    assert rows[3][:3] == [0.9163, -0.0458, -0.0458]    # log(0.5 / 0.2), beta 0.05
    assert rows[4][2] == 0.9973                          # 1.0 - 0.05 * log(0.95 / 0.9)
    assert [r[3] for r in rows] == [0.9284, 0.9312, 0.9515, 0.9515, 0.9973]
    assert [r[6] for r in rows] == [0.3284, 0.3112, 0.2515, 0.2015, 0.0973]
    # "The first token's advantage ... is the largest"
    assert max(r[6] for r in rows) == rows[0][6]
    # GAE's recursion and reward-to-go minus V agree on every token
    assert "A_t = (rewards from t to the end) - V(s_t) on every token: True" in out


def test_sft_improves_on_base():
    assert e_true("ticket_base_and_sft.py", "SFT") > e_true("ticket_base_and_sft.py", "base") + 0.5


def test_fast_reward_model_prefers_the_hack():
    out = rec.output("ticket_reward_model.py").splitlines()
    assert "short friendly JSON, WRONG" in out[1]   # its top-rated reply
    top_true, best_true = numbers(out[1])[1], max(numbers(ln)[1] for ln in out[1:])
    assert top_true < best_true - 2


def test_fast_sweep_is_reward_hacking():
    rows = table("ticket_rlhf_sweep.py")
    sft = e_true("ticket_rlhf_sweep.py", "SFT")
    rm = [r[1] for r in rows]
    true = [r[2] for r in rows]
    assert all(a <= b for a, b in zip(rm, rm[1:])) and rm[-1] > rm[0]
    assert 0 < true.index(max(true)) < len(true) - 1
    assert true[-1] < sft - 1                   # loose leash: worse than SFT
    assert "WRONG" in rec.output("ticket_rlhf_sweep.py").splitlines()[-1]
    assert rec.value("rows_fast[rows_fast[:, 2].argmax(), 0] | g") == "0.5"


def test_sampled_rlhf_reaches_the_optimum():
    ln = line("ticket_policy_gradient.py", "KL(pg || sft)")
    kl_pg, kl_exact, gap = numbers(ln)
    assert abs(kl_pg - kl_exact) < 0.05 and gap < 0.02


def test_dpo_on_ticket_copies_the_bias_but_stays_near_rlhf():
    sft_hack, dpo_hack = numbers(line("ticket_dpo.py", "the hack answer"))
    assert dpo_hack > 2 * sft_hack
    assert abs(e_true("ticket_dpo.py", "DPO") - e_true("ticket_policy_gradient.py",
                                                        "sampled")) < 0.2


def test_expert_labels_every_row_beats_sft():
    rows = table("ticket_expert_labels.py")
    sft = e_true("ticket_base_and_sft.py", "SFT")
    assert all(r[2] > sft for r in rows)
    w = numbers(line("ticket_expert_labels.py", "expert RM weights"))
    assert w[0] == max(w)                       # being right carries the most weight


# ---- group advantages (exact) ---------------------------------------------------


def test_group_advantages_exact():
    out = rec.output("group_advantages.py")
    assert "GRPO, population std (+1.73, -0.58, -0.58, -0.58)" in out
    assert "GRPO, sample std     (+1.50, -0.50, -0.50, -0.50)" in out
    assert "RLOO                 (+1.000, -0.333, -0.333, -0.333)" in out
    assert out.count("(+0.00, +0.00, +0.00, +0.00)") == 2
    assert "(+0.000, +0.000, +0.000, +0.000)" in out


def test_group_advantage_figure_one_correct_of_four():
    # the default frame, computed by hand: mean 1/4, population std sqrt(3)/4,
    # sample std 1/2, RLOO baseline 0 for the correct reply and 1/3 for the others
    import math
    pop = math.sqrt(3) / 4
    expected = {"r - mean (Dr. GRPO)": (0.75, -0.25), "RLOO": (1.0, -1 / 3),
                "GRPO, sample std": (0.75 / (0.5 + 1e-4), -0.25 / (0.5 + 1e-4)),
                "GRPO, population std": (0.75 / (pop + 1e-4), -0.25 / (pop + 1e-4))}
    # the frame prints reply 1's advantage under each estimator, in the legend's order
    out = rec.output("group_advantage_explorer.py").strip()
    assert out.startswith("reply 1: ")
    assert numbers(out) == [round(good, 2) for good, _ in expected.values()]
    # graded rewards that differ little still get GRPO advantages near a real success
    assert float(rec.value('grpo_adv(group_presets["graded"], ddof=1)[0] | .2f')) > 1.0
    assert rec.value('group_advantages(group_presets["graded"])'
                     '["r - mean (Dr. GRPO)"][0] | .2f') == "0.35"


def test_grpo_accuracy_rises_and_unanimous_groups_grow():
    acc = numbers(line("grpo_addition.py", "accuracy"))
    assert acc[0] < 0.5 < 0.9 < acc[-1]
    first, last = numbers(line("grpo_addition.py", "unanimous"))
    assert first < 0.2 and last > 0.6


# ---- reward hacking -------------------------------------------------------------


def test_bigram_collapses_without_kl_and_keeps_variety_with_it():
    ref = numbers(line("bigram_reward_hacking.py", "reference"))
    free = numbers(line("bigram_reward_hacking.py", "beta = 0.0"))[1:]
    leash = numbers(line("bigram_reward_hacking.py", "beta = 1.0"))[1:]
    assert free[0] > 0.95 and free[1] < 0.1        # all 'great', no variety
    assert ref[0] < leash[0] < 0.6                 # more 'great', not only 'great'
    assert leash[1] > 0.9


def test_length_hacking_true_quality_falls_without_leash():
    free = numbers(line("length_reward_hacking.py", "beta 0.0"))
    leash = numbers(line("length_reward_hacking.py", "beta 0.3"))
    # numbers: beta, start, best, end, reward-model score at the end
    start, best, end = free[1], free[2], free[3]
    assert best > start and end < start            # improves, then falls below the start
    assert leash[3] > best - 0.15                  # the leash holds near the peak
    assert free[4] > leash[4]                      # the proxy is higher without it
    best_step = int(re.search(r"step (\d+)", line("length_reward_hacking.py",
                                                   "beta 0.0")).group(1))
    assert best_step < 150                         # the best checkpoint is an early one


# ---- exercises ------------------------------------------------------------------


def test_exercises():
    assert "RLOO (+1.00, -1.00)  GRPO sample std (+0.71, -0.71)" in rec.output(
        "exercise_rloo_identity.py")
    rows = [numbers(ln) for ln in rec.output("exercise_dr_grpo.py").splitlines()]
    assert rows[0][-1] < 0.5 < rows[1][-1]         # std division up-weights the hard one
    out = rec.output("exercise_optimum_stationary.py")
    assert "gradient at pi*  : (+0.0000, +0.0000, +0.0000)" in out


def test_goodhart_ends_below_the_base_model():
    assert float(rec.value("sweep[0.1][1] | .3f")) < float(rec.value("p_base @ true_util | .3f"))
    assert float(rec.value("sweep[0.1][0] | .2f")) > float(rec.value("sweep[100][0] | .2f"))


def test_fast_reward_model_agrees_most_of_the_time():
    agree = int(rec.value("agree_fast | .0%").rstrip("%"))
    assert 50 < agree < 100


def test_gradient_at_reference_pushes_towards_the_best_response():
    g = numbers(line("exercise_optimum_stationary.py", "gradient at p_ref"))
    assert g[2] == max(g) > 0 > g[0]


# ---- choosing a training signal: best of n ---------------------------------------


def test_best_of_n_is_a_leash_that_hacks_a_blind_reward_model():
    rows = table("best_of_n.py", first_col="n")
    n, fast, expert, kl_ = ([r[i] for r in rows] for i in range(4))
    sft = e_true("ticket_base_and_sft.py", "SFT")
    assert n == [1, 4, 16, 64, 256]
    assert fast[0] == expert[0] == sft and kl_[0] == 0    # best of one is the SFT model
    peak = max(r[2] for r in table("ticket_rlhf_sweep.py"))
    assert abs(fast[1] - peak) < 0.05                      # "level with the best leash"
    assert fast[-1] < sft - 1                              # large n: below SFT
    assert all(a <= b for a, b in zip(expert, expert[1:]))  # honest RM: more only helps
    assert all(a < b for a, b in zip(kl_, kl_[1:]))
    assert "KL within the bound at every n: True" in rec.output("best_of_n.py")
    hack = numbers(line("best_of_n.py", "fast RM, P("))
    assert hack == sorted(hack) and hack[-1] > 0.99
    loosest_kl = table("ticket_rlhf_sweep.py")[-1][3]
    assert abs(kl_[-1] - loosest_kl) < 0.05                # "much the same path"

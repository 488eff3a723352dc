"""Chapter 6 (PPO): exact values and the findings the prose states, on the record."""
import re

from helpers.recorded import fresh, numbers, shown

rec = fresh("ppo")  # this machine's run (tests/helpers/recorded.py)


def val(body):
    return float(rec.value(body).rstrip("%"))


# ---- exact values -------------------------------------------------------------

def test_four_clip_cases():
    rows = rec.output("clip_cases.py").splitlines()[1:]
    mins = [numbers(r)[-1] for r in rows]
    assert mins == [3.3, 2.4, -0.8, -1.5]
    # the min is never above the raw term: the pessimistic bound
    for r in rows:
        rho, adv, raw, capped, low = numbers(r)
        assert low == min(raw, capped) and low <= raw


def test_slope_table_zero_only_on_the_favoured_side():
    rows = [numbers(r) for r in rec.output("clip_slopes.py").splitlines()[2:]]
    for rho, raw_pos, clip_pos, raw_neg, clip_neg in rows:
        assert raw_pos == 1.0 and raw_neg == -1.0
        assert clip_pos == (0.0 if rho > 1.2 else 1.0)
        assert abs(clip_neg) == (0.0 if rho < 0.8 else 1.0)


def test_kl_estimator_exact_values():
    out = rec.output("kl_estimators.py")
    assert "k3 = 0.3069" in out and "k1 = -0.6931" in out


def test_kl_estimators_unbiased_and_k3_nonnegative():
    rows = rec.output("kl_estimators.py").splitlines()[3:]
    for r in rows:
        exact, m1, s1, m3, s3, min_k1 = numbers(r)
        assert abs(m1 - exact) < 0.02 * max(exact, 0.5)
        assert abs(m3 - exact) < 0.02 * max(exact, 0.5)
        assert min_k1 < 0          # single k1 values can be negative, k3 never
    close = numbers(rows[0])
    assert close[4] < close[2] / 4   # near policies: k3 far less noisy than k1


def test_fisher_numbers():
    out = rec.output("fisher_check.py")
    assert "exact      = 1.918e-04" in out
    assert "F delta       = 1.927e-04" in out
    assert "old probabilities p       = [0.461 0.229 0.309]" in out  # the table row


def test_kl_leash():
    out = rec.output("kl_leash.py")
    assert "R' = 0.931" in out and "R' = 1.069" in out
    fee, kl = numbers(out.splitlines()[-1])
    assert fee == kl


# ---- the surrogate and the truth (exact curves) -------------------------------

def test_surrogate_vs_true():
    out = rec.output("surrogate_vs_true.py")
    rows = [numbers(r) for r in out.splitlines() if re.match(r"\d\.\d\d\s", r)]
    table = {r[0]: r[1:] for r in rows}
    assert table[0.25][:2] == [0.464, 0.380]
    sur = [r[1] for r in rows]
    assert sur == sorted(sur)                       # the surrogate keeps climbing
    assert table[3.0][1] < 0 < table[0.75][1]       # the truth turns negative
    assert val("t_best | .2f") < val("t_bad | .2f")
    # the trust region stops near the best step and keeps most of the gain
    assert val("true_gain[ts == t_trust][0] | .3f") > 0.9 * val("true_gain.max() | .3f")
    # the Fisher quadratic tracks the KL closely for small steps
    kl, quad = table[0.25][2:]
    assert abs(kl - quad) / kl < 0.05


# ---- seeded findings -----------------------------------------------------------

def test_clip_brakes_batch_reuse():
    assert val('runs["unclipped"][1][-1].max() | .2f') > 2.0
    assert val('runs["clipped"][1][-1].max() | .2f') < 1.5
    assert val('runs["unclipped"][0][2] | .3f') > val('runs["clipped"][0][2] | .3f') + 0.3


def test_clip_does_not_bound_kl():
    rows = [numbers(r) for r in rec.output("clip_vs_kl.py").splitlines()[1:]]
    outside = [r[1] for r in rows]
    ratios = [r[2] for r in rows]
    kl_clip, kl_raw = [r[3] for r in rows], [r[4] for r in rows]
    assert outside[0] > 10 and max(outside) > 40    # ratios leave the band
    assert max(ratios) > 1.4
    # same shuffles in both runs: the clipped one drifts less from epoch 1 on
    assert all(c < r for c, r in zip(kl_clip, kl_raw))
    assert kl_clip[-1] < kl_raw[-1] / 10            # far less than without clip
    # rises and falls between epochs, no ceiling it settles at
    assert max(kl_clip) > 1.5 * min(kl_clip)
    steps = [b - a for a, b in zip(kl_clip, kl_clip[1:])]
    assert min(steps) < 0 < max(steps)
    assert rec.value("max(outside_by_epoch) | .0%") == f"{max(outside):.0f}%"


def test_cartpole_baselines():
    out = rec.output("cartpole_env.py")
    lengths = [numbers(r)[-1] for r in out.splitlines()]
    assert lengths == sorted(lengths) and lengths[0] < 15 and lengths[-1] < 60


def comparison(record=rec):
    table = {}
    for r in record.output("train_compare.py").splitlines()[2:6]:
        name, rest = r[:15].strip(), numbers(r[15:])
        table[name] = dict(mean=rest[0], std=rest[1], seeds=rest[2:6], fall=rest[6])
    return table


def test_ppo_beats_baselines_on_cartpole():
    t = comparison()
    assert set(t) == {"REINFORCE", "actor-critic", "PPO", "PPO, no brakes"}
    ppo = t["PPO"]
    assert min(ppo["seeds"]) > 175
    for other in ("REINFORCE", "actor-critic", "PPO, no brakes"):
        assert ppo["mean"] > t[other]["mean"]
        assert ppo["std"] < t[other]["std"]
    t = comparison(shown("ppo"))  # the page's run: on portable kernels 115.5 < 117.2
    assert t["PPO, no brakes"]["mean"] > t["actor-critic"]["mean"] > t["REINFORCE"]["mean"], \
        "PPO prose: 'in this run ahead of the single-epoch methods on average'"


def test_learning_curve_alt_describes_the_run():
    """The Alt describes the figure on the page, so the record it was drawn from."""
    page = shown("ppo")
    lead_early = int(page.value("int((lengths.mean(2).argmax(1) == 3).sum())"))
    before = int(page.value("int(np.flatnonzero(lengths.mean(2).argmax(1) != 2)[-1]) + 1"))
    ppo_from = int(page.value("int(np.flatnonzero(lengths.mean(2).argmax(1) != 2)[-1]) + 2"))
    assert ppo_from == before + 1 <= 25, \
        "Alt of the learning curves: 'From round ... on PPO has the highest mean'"
    assert 2 * lead_early >= before, \
        "Alt of the learning curves: 'PPO without brakes rises earliest but unevenly'"
    t = comparison(page)
    assert t["REINFORCE"]["mean"] < t["actor-critic"]["mean"] < t["PPO"]["mean"], \
        "Alt of the learning curves: 'actor-critic and REINFORCE climb more slowly, " \
        "REINFORCE lowest'"


def test_no_brakes_collapses():
    t = comparison()
    out = rec.output("train_compare.py")
    assert "worst collapse: PPO, no brakes" in out
    # the deepest fall of all runs (on portable kernels it is 187 against 108, not 2x)
    assert t["PPO, no brakes"]["fall"] > max(t[n]["fall"] for n in t if n != "PPO, no brakes")
    assert val('collapse["after"] | .0f') < 2 * val(
        'baseline_lengths["always push right"] | .1f')
    assert t["PPO, no brakes"]["std"] > 3 * t["PPO"]["std"]


def test_diagnostics_support_the_details():
    lines = rec.output("ppo_diagnostics.py").splitlines()
    assert all(not re.search(r"\w_\w", ln) for ln in lines)   # readable labels
    d = {ln.rsplit(None, 1)[0]: float(ln.rsplit(None, 1)[1]) for ln in lines}
    stop = d["share of agent-rounds stopped early by KL"]
    assert 0 < stop < 0.5                                      # a safety valve
    fired, rounds = int(val("(taken < steps_per_round).sum()")), int(val("taken.size"))
    assert abs(fired / rounds - stop) < 1e-3 and val('stats["early_stop_share"] | .1%') == \
        round(100 * fired / rounds, 1)
    assert d["median approximate KL (k3) per step, nats"] < 0.02
    critic = d["median grad norm before clipping, critic"]
    actor = d["median grad norm before clipping, actor"]
    assert critic > 20 * actor                                 # why clipped apart
    assert d["share of steps with critic norm cut to 0.5"] > 0.9
    assert d["share of steps with actor norm cut to 0.5"] < 0.1
    assert d["std of REINFORCE's return-to-go, last round"] > \
        5 * d["std of raw GAE advantages, last round"]        # scales differ: normalise
    clipfrac = d["clip fraction: ratios outside [0.8, 1.2]"]
    frozen = d["frozen: past the band in A's direction"]
    assert 0.0 < frozen < clipfrac < 0.2                       # only one side is frozen
    assert val('stats["frozen"] | .1%') == round(100 * frozen, 1)
    first = d["policy entropy (nats), first round"]
    last = d["policy entropy (nats), last round"]
    assert 0.3 < last < first <= 0.6932


def test_kl_definition_example():
    out = rec.output("kl_basics.py").splitlines()
    assert out[0] == "KL(p_a || p_b) = 0.0253 nats   KL(p_b || p_a) = 0.0258"
    assert out[1] == "KL(p_a || p_a) = 0.0000"                 # zero only for equal
    nats, bits, reverse = numbers(out[2])[-3:]
    assert (nats, bits, reverse) == (0.5108, 0.737, 0.3681)    # asymmetric
    assert abs(nats / 0.693147 - bits) < 1e-3                  # 1 bit = ln 2 nats


def test_exercises():
    out = rec.output("exercise_clip_gradient.py").splitlines()
    assert numbers(out[0]) == numbers(out[1])
    assert val('gains["natural"] | .4f') > val('gains["plain"] | .4f')


def test_clipped_reuse_reaches_band_edge_early():
    first = rec.value('int(np.argmax(runs["clipped"][1].max(1) > 1.2)) + 1')
    assert int(first) <= 10
    assert rec.value("(actions == 2).sum()") == "6"
    assert "arm C: pulled  6, won 6" in rec.output("reuse_one_batch.py")
    # the ratio printed is the one at the start of pass 50, as the prose reads it
    for name in ("clipped", "unclipped"):
        assert (f"{name:9s}: largest ratio at the start of pass 50: "
                + rec.value(f'runs["{name}"][1][-1].max() | .2f')) in rec.output("reuse_one_batch.py")


def step_sizes(record=rec):
    """{variant: (actor grad before clip, after clip, actor step, mean score, seeds)}."""
    rows = {}
    for r in record.output("step_sizes.py").splitlines()[1:]:
        name, rest = r[:23].strip(), numbers(r[23:])
        rows[name] = dict(grad=rest[0], fed=rest[1], step=rest[2], score=rest[3],
                          seeds=rest[4:8])
    return rows


def test_adam_step_hardly_depends_on_gradient_scale():
    k = step_sizes()
    assert len(k) == 5
    ppo, joint, raw = k["PPO (as raced)"], k["PPO, one global clip"], k["PPO, raw advantages"]
    # one global clip: Adam gets a far smaller actor gradient, the step hardly shrinks
    assert ppo["fed"] > 20 * joint["fed"], \
        "PPO 'three more details': 'Adam received actor gradients ... times smaller'"
    assert 1 <= ppo["step"] / joint["step"] < 1.5, \
        "PPO 'three more details': 'It does not cut the actor's *step* by anything like that'"
    # the page's run (on portable kernels the scores differ by 7.9 with a spread of 5)
    page = step_sizes(shown("ppo"))
    a, b = page["PPO (as raced)"], page["PPO, one global clip"]
    spread = max(max(v["seeds"]) - min(v["seeds"]) for v in (a, b))
    assert abs(a["score"] - b["score"]) < spread, \
        "PPO 'three more details': 'differ by less than the seeds of one variant do'"
    # raw advantages: a larger gradient, about the same step, and no loss for PPO
    assert raw["grad"] > 3 * ppo["grad"], \
        "PPO 'three more details': 'without normalisation the PPO actor's gradient was'"
    assert 0.67 < raw["step"] / ppo["step"] < 1.5, \
        "PPO 'three more details': 'yet its median step was'"
    a_raw = page["PPO, raw advantages"]
    assert a_raw["score"] > a["score"] - max(a["seeds"]) + min(a["seeds"]), \
        "PPO 'three more details': 'PPO ... did not need it in this run'"
    # REINFORCE: the mean subtraction is its only baseline
    assert k["REINFORCE, raw returns"]["score"] < k["REINFORCE (as raced)"]["score"], \
        "PPO 'three more details': 'on raw returns REINFORCE scored'"


KNOBS = ["as raced", "clip 0.1", "clip 0.3", "2 epochs", "8 epochs", "2 minibatches",
         "8 minibatches"]


def knob_sweep(record=rec):
    """{setting: mean, std, four seeds' scores, steps taken and planned per round}."""
    rows = {}
    for r in record.output("knob_sweep.py").splitlines()[2:]:
        name, rest = r[:14].strip(), numbers(r[14:])
        rows[name] = dict(mean=rest[0], std=rest[1], seeds=rest[2:6], steps=rest[6],
                          planned=rest[7])
    return rows


def test_knob_sweep_findings():
    """What must hold on any CPU: the sweep's shape and the KL stop's part in it."""
    k = knob_sweep()
    assert list(k) == KNOBS
    assert [k[n]["planned"] for n in KNOBS] == [16, 16, 16, 8, 32, 8, 32]
    assert all(row["steps"] <= row["planned"] for row in k.values())
    assert k["8 epochs"]["steps"] < 32 and k["8 minibatches"]["steps"] < 32, \
        "PPO knobs: 'The KL stop took back part of the extra steps'"
    assert k["clip 0.1"]["steps"] >= k["clip 0.3"]["steps"], \
        "PPO knobs: 'the clip and the KL stop pulling on the same rope'"
    halved = k["2 epochs"]["mean"] + k["2 minibatches"]["mean"]
    doubled = k["8 epochs"]["mean"] + k["8 minibatches"]["mean"]
    assert halved < doubled, "PPO knobs: 'Halving the count slowed learning'"
    assert max(len(ln) for ln in rec.output("knob_sweep.py").splitlines()) <= 77


def test_knob_sweep_describes_the_run():
    """The section's sentences about this run, on the record the page shows."""
    page = knob_sweep(shown("ppo"))
    raced = page["as raced"]
    assert max(page["clip 0.1"]["seeds"]) < min(raced["seeds"]), \
        "PPO knobs: 'At 0.1, every seed stayed below every seed of the raced setting'"
    assert page["clip 0.1"]["steps"] == 16 > page["clip 0.3"]["steps"], \
        "PPO knobs: 'with the clip at 0.1 the stop never fired ... at 0.3 it ended rounds'"
    for down in ("clip 0.1", "2 epochs", "2 minibatches"):
        assert page[down]["mean"] < raced["mean"], \
            f"PPO knobs: 'every knob turned down slowed the start' ({down})"
    assert max(page["2 epochs"]["seeds"]) > min(raced["seeds"]), \
        "PPO knobs: 'one 2-epoch seed ... beat the weakest raced one'"
    for up in ("clip 0.3", "8 epochs", "8 minibatches"):
        assert page[up]["mean"] >= raced["mean"], \
            f"PPO knobs: 'every knob turned up raised the mean or left it level' ({up})"
        assert min(page[up]["seeds"]) < max(raced["seeds"]), \
            f"PPO knobs: 'four seeds cannot rank' ({up}: the seeds overlap)"
        assert page[up]["steps"] / page[up]["planned"] < raced["steps"] / 16, \
            f"PPO knobs: 'The KL stop cut more steps from each knob turned up' ({up})"

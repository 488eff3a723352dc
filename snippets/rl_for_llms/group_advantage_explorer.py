import matplotlib.pyplot as plt

group_presets = {"one correct of four": [1, 0, 0, 0], "two of four": [1, 1, 0, 0],
                 "all equal": [1, 1, 1, 1], "graded": [0.9, 0.6, 0.5, 0.2]}


def group_advantages(rewards):
    """Advantage of each response under each estimator, for one group."""
    r = np.asarray(rewards, float)
    return {"r - mean (Dr. GRPO)": r - r.mean(), "RLOO": rloo_adv(r),
            "GRPO, sample std": grpo_adv(r, ddof=1),
            "GRPO, population std": grpo_adv(r, ddof=0)}


def group_frame(preset="one correct of four"):
    rewards = group_presets[preset]
    adv = group_advantages(rewards)
    fig, ax = plt.subplots(figsize=(8, 3.8))
    x = np.arange(len(rewards))
    for i, ((name, a), hatch) in enumerate(zip(adv.items(), ["", "//", "..", "xx"])):
        _ = ax.bar(x + (i - 1.5) * 0.2, a, 0.2, label=name, color=f"C{i}", hatch=hatch)
    _ = ax.axhline(0, color="grey", lw=0.8)
    _ = ax.set(xticks=x, xticklabels=[f"reply {i + 1}\nr = {v:g}"
                                      for i, v in enumerate(rewards)],
               ylim=(-1.6, 2.6), ylabel="advantage", title=f"rewards: {preset}")
    _ = ax.legend(loc="upper right", ncol=2, fontsize=10)
    fig.subplots_adjust(left=0.1, right=0.98, bottom=0.18, top=0.9)
    first = [f"{a[0]:+.2f}" for a in adv.values()]  # reply 1, in the legend's order
    print("reply 1: Dr. GRPO {}, RLOO {}, GRPO sample std {}, population {}"
          .format(*first))
    plt.show()


group_frame()

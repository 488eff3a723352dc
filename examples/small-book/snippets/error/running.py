import matplotlib.pyplot as plt

THROWS = 20_000


def running(seed=0):
    gen = np.random.default_rng(seed)
    hits = ((gen.random((THROWS, 2)) ** 2).sum(axis=1) <= 1).cumsum()
    marks = np.unique(np.geomspace(10, THROWS, 60).astype(int))
    est = 4 * hits[marks - 1] / marks
    spread = 2 * np.sqrt(np.pi * (4 - np.pi) / marks)  # two standard errors
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.fill_between(marks, np.pi - spread, np.pi + spread, alpha=0.25,
                    label="two standard errors")
    ax.plot(marks, est, label="running estimate")
    ax.axhline(np.pi, color="black", linewidth=1, linestyle=":")
    # Fixed limits: every seed's frame shares the axes.
    ax.set(xscale="log", xlim=(10, THROWS), ylim=(2.2, 4.0),
           xlabel="darts thrown", ylabel="estimate of pi")
    ax.legend(loc="lower right")
    print(f"seed {seed}: after {THROWS:,} darts the estimate is {est[-1]:.4f}")
    plt.show()


running()

# one Thompson run of 2,000 visitors, kept visitor by visitor so a frame only slices it
run_len = 2000
visitor_dice = np.random.default_rng(3)
choose_page = thompson(seed=103)
n_run, s_run = np.zeros(K), np.zeros(K)
counts = np.zeros((run_len + 1, 2, K))  # after t visitors: (shown, signed up) per page
for t in range(run_len):
    page_now = choose_page(t, n_run, s_run).argmax()
    n_run[page_now] += 1
    s_run[page_now] += visitor_dice.random() < RATES[page_now]
    counts[t + 1] = n_run, s_run

rate_grid = np.linspace(0.001, 0.25, 250)


def chance_best(signups, shown, grid=20_000):
    """The chance that each page has the highest rate under its Beta belief: the share
    Thompson sampling gives it, by integration on a fine grid rather than by draws."""
    x = (np.arange(grid) + 0.5) / grid
    dens = np.array([beta_pdf(x, 1 + k, 1 + m - k) for k, m in zip(signups, shown)])
    dens /= grid
    below = np.cumsum(dens, axis=1) - dens / 2          # P(rate < x), per page
    return np.array([(dens[i] * np.prod(np.delete(below, i, 0), 0)).sum()
                     for i in range(len(shown))])


def thompson_frame(visitors=400):
    shown, signed = counts[visitors]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 3.6))
    for p, m, k, rate in zip("ABC", shown, signed, RATES):
        line, = ax1.plot(rate_grid, beta_pdf(rate_grid, 1 + k, 1 + m - k),
                         label=f"{p}: {k:.0f}/{m:.0f}")
        _ = ax1.axvline(rate, color=line.get_color(), ls=line.get_linestyle(), lw=0.8)
    _ = ax1.set(xlim=(0, 0.25), ylim=(0, 55), xlabel="sign-up rate (thin: true rate)",
                ylabel="belief (density)", title=f"after {visitors} visitors")
    _ = ax1.legend(loc="upper right")
    every10 = np.arange(0, run_len + 1, 10)
    for p, i in zip("ABC", range(K)):
        _ = ax2.plot(every10, counts[every10, 0, i], label=f"page {p}")
    _ = ax2.axvline(visitors, color="grey", lw=0.8)
    _ = ax2.set(xlim=(0, run_len), ylim=(0, run_len), xlabel="visitors so far",
                ylabel="visitors shown each page", title="where visitors went")
    _ = ax2.legend(loc="upper left")
    fig.subplots_adjust(left=0.08, right=0.98, bottom=0.16, top=0.9, wspace=0.28)
    chance = chance_best(signed, shown)
    tally = ", ".join(f"{p} {k:.0f}/{m:.0f}" for p, k, m in zip("ABC", signed, shown))
    odds = ", ".join(f"{p} {q:.3f}" for p, q in zip("ABC", chance))
    # A frame says what it shows in one line that fits the page (max_output_width);
    # the slider says that `visitors` counts visitors so far.
    print(f"at {visitors}: {tally}; next sees {odds}")
    plt.show()


thompson_frame()

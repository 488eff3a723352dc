import numpy as np
import matplotlib.pyplot as plt

gammas = np.linspace(0, 1, 201)
delay_crossover = 0.1 ** (1 / 5)  # 1 now and 10 after five steps are worth the same


def delayed_reward_frame(gamma=0.9):
    now_value = discounted_return(now, gamma)
    later_value = discounted_return(later, gamma)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 3.6))
    k = np.arange(len(later))
    weights = gamma ** k
    _ = ax1.bar(k - 0.2, weights * np.pad(now, (0, len(later) - len(now))), 0.4,
                label="1 now", color="C0")
    _ = ax1.bar(k + 0.2, weights * np.array(later), 0.4, label="10 later",
                color="C1", hatch="//")
    _ = ax1.plot(k, 10 * weights, "k:", lw=1, label=r"$10\,\gamma^k$")
    _ = ax1.set(xticks=k, xlabel="steps after the first reward slot, k",
                ylabel="discounted reward", ylim=(0, 13),
                title=rf"$\gamma$ = {gamma:.2f}")
    _ = ax1.legend(loc="upper center", ncol=3, fontsize=9)  # above the bars
    _ = ax2.plot(gammas, np.ones_like(gammas), label="1 now")
    _ = ax2.plot(gammas, 10 * gammas**5, label="10 after 5 steps")
    _ = ax2.axvline(delay_crossover, color="grey", lw=0.8, ls=":")
    _ = ax2.annotate(f"crossover {delay_crossover:.3f}", (delay_crossover, 5),
                     xytext=(0.1, 5.5), arrowprops=dict(arrowstyle="->", lw=0.8))
    _ = ax2.plot([gamma, gamma], [now_value, later_value], "ko", ms=7)
    _ = ax2.set(xlim=(0, 1), ylim=(0, 10.5), xlabel=r"discount $\gamma$", ylabel="value today",
                title="value of each option")
    _ = ax2.legend(loc="upper left")
    fig.subplots_adjust(left=0.08, right=0.98, bottom=0.16, top=0.9, wspace=0.25)
    pick = "take the 1 now" if now_value > later_value else "wait for the 10"
    # A frame says what it shows in one line that fits the page (max_output_width):
    # the crossover, the same in every frame, is marked in the figure instead.
    print(f"gamma = {gamma:.2f}: 1 now is worth {now_value:.3f}, 10 after 5 steps"
          f" {later_value:.3f}: {pick}")
    plt.show()


delayed_reward_frame()

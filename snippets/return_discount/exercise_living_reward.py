P_live, R_live = ledge_model(step_reward=+0.05)
pi_live, V_live = value_iteration(P_live, R_live, gamma=0.99)
show_policy(pi_live, V_live)
print(f"staying alive forever is worth 0.05 / (1 - 0.99) = {0.05 / 0.01:.1f}")
live = np.flatnonzero(~terminal)
ends = P_live[live, pi_live[live]][:, terminal].sum(1)  # chance each move ends it
print(f"largest chance that a square's chosen move ends the episode: {ends.max():.1f}")

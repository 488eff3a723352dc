# Sutton and Barto's cliff walk (Example 6.6): 4 rows of 12, start and goal at the
# ends of the bottom row, the ten squares between them a cliff (-100, episode over).
W = 12
CLIFF = np.zeros(4 * W, dtype=bool)
CLIFF[3 * W + 1:4 * W - 1] = True
S_C, G_C = 3 * W, 4 * W - 1
LIVE_C = ~CLIFF & (np.arange(4 * W) != G_C)

def step_c(s, a):
    """Deterministic move on the cliff grid; edges block."""
    row, col = s // W + OFFSET[a][0], s % W + OFFSET[a][1]
    return row * W + col if 0 <= row < 4 and 0 <= col < W else s

P_c = np.zeros((4 * W, N_A, 4 * W))                 # no slipping: only exploration
for s in range(4 * W):
    for a in range(N_A):
        P_c[s, a, step_c(s, a)] = 1.0

R_c = np.tile(np.where(CLIFF, -100.0, -1.0), (4 * W, 1))
V_c, _ = value_iteration(R_c, P_c, GAMMA, LIVE_C)
greedy_c = backup(V_c, R_c, P_c, GAMMA).argmax(axis=1)
soft_c, _ = best_eps_greedy(EPS, R_c, P_c, GAMMA, LIVE_C)

def path(pi):
    """The squares a policy walks through from the start, if nothing random happens."""
    s, seen = S_C, [S_C]
    while LIVE_C[s] and len(seen) < 4 * W:
        s = step_c(s, pi[s])
        seen.append(s)
    return seen

for name, pi in (("pi*", greedy_c), ("best eps-greedy", soft_c)):
    rows = np.array(["C" if c else "." for c in CLIFF])
    rows[path(pi)] = "o"
    rows[[S_C, G_C]] = ["S", "G"]
    v_greedy = policy_value(pi, R_c, P_c, GAMMA, LIVE_C)[S_C]
    v_soft = policy_value(eps_soft(pi), R_c, P_c, GAMMA, LIVE_C)[S_C]
    print(f"{name}: {len(path(pi)) - 1} moves; V(start) {v_greedy:+.2f} acting"
          f" greedily, {v_soft:+.2f} with eps = {EPS}")
    print("\n".join("   " + "".join(rows[r * W:(r + 1) * W]) for r in range(4)))

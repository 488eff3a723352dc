# A variant of Sutton and Barto's cliff walk (Example 6.6): 4 rows of 12, start and goal
# at the ends of the bottom row, the ten squares between them a cliff (-100, episode
# over; in their book the cliff sends the agent back to the start: checked at the end).
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
    print(f"{name}: {len(path(pi)) - 1} moves; V(start) {v_greedy:+.2f} if"
          f" greedy, {v_soft:+.2f} with eps = {EPS}")
    print("\n".join("   " + "".join(rows[r * W:(r + 1) * W]) for r in range(4)))

# Sutton and Barto's rule instead: a step into the cliff costs -100 and puts the
# agent back at the start. Such steps land on a copy of the start square (index
# 48), because a reward here depends only on the square a move reaches.
FELL = 4 * W
P_sb = np.zeros((4 * W + 1, N_A, 4 * W + 1))
for s in range(4 * W + 1):
    for a in range(N_A):
        s2 = step_c(S_C if s == FELL else s, a)
        P_sb[s, a, FELL if CLIFF[s2] else s2] = 1.0

R_sb = np.tile(np.append(np.full(4 * W, -1.0), -100.0), (4 * W + 1, 1))
LIVE_SB = np.append(LIVE_C, True)                   # the cliff is never stood on
V_sb, _ = value_iteration(R_sb, P_sb, GAMMA, LIVE_SB)
greedy_sb = backup(V_sb, R_sb, P_sb, GAMMA).argmax(axis=1)
soft_sb, _ = best_eps_greedy(EPS, R_sb, P_sb, GAMMA, LIVE_SB)
print(f"if a fall sends the agent back to the start: pi* "
      f"{len(path(greedy_sb)) - 1} moves, best eps-greedy {len(path(soft_sb)) - 1}")

GAMMA = 0.9
# rows: state s1 (start), s2; columns: forward, wait, back
REWARD = np.array([[1.0, 0.2, 0.0],
                   [-1.0, 0.0, 0.0]])

NEXT = np.array([[1, 0, 0],
                 [1, 1, 0]])


def evaluate(theta):
    """Exact V, advantages A(s,a) and discounted visits d(s) of softmax(theta)."""
    pi = softmax(theta)                      # one policy for both states
    P = np.zeros((2, 2))
    for s in range(2):
        np.add.at(P[s], NEXT[s], pi)         # P[s, s'] under pi
    V = np.linalg.solve(np.eye(2) - GAMMA * P, REWARD @ pi)
    A = REWARD + GAMMA * V[NEXT] - V[:, None]
    d = np.linalg.solve(np.eye(2) - GAMMA * P.T, np.array([1.0, 0.0]))
    return V, A, d, pi


V0, A0, d0, pi0 = evaluate(np.zeros(3))
print(f"uniform policy: J = V(s1) = {V0[0]:.3f}, V(s2) = {V0[1]:.3f}")
print(f"discounted visits d = {np.round(d0, 3)}")
print("advantages      forward    wait    back")
for s in range(2):
    print(f"  s{s + 1}          {A0[s, 0]:+8.3f} {A0[s, 1]:+7.3f} {A0[s, 2]:+7.3f}")

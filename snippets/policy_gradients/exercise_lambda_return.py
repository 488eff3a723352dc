# GAE(lambda) as a weighted average of n-step advantages, checked at lambda = 0.9
gamma, lam, T = 0.99, 0.9, len(rewards)
v_next = np.append(values, 0.0)  # V after the fall is 0
n_step = np.zeros((T, T))  # n_step[t, n - 1]: the n-step advantage from t
for t in range(T):
    for n in range(1, T + 1):
        k = min(n, T - t)  # past the end, the n-step return is the full return
        ret = sum(gamma**i * rewards[t + i] for i in range(k))
        n_step[t, n - 1] = ret + gamma**k * v_next[t + k] - values[t]

weights = (1 - lam) * lam ** np.arange(T)
weights[-1] = lam ** (T - 1)  # the tail of the series, all on the full return
print("weighted n-step:", (n_step @ weights).round(4))
print("gae recursion:  ", gae(rewards, values, 0.0, gamma, lam)[0].round(4))

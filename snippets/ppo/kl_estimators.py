def k1(rho):
    return -np.log(rho)


def k3(rho):
    return (rho - 1) - np.log(rho)   # >= 0 because log x <= x - 1


print(f"rho = 2:   k1 = {k1(2.0):+.4f}   k3 = {k3(2.0):.4f}")
print(f"rho = 0.5: k1 = {k1(0.5):+.4f}   k3 = {k3(0.5):.4f}")

# unbiasedness: actions drawn from the OLD policy of the 10-action problem
sample = np.random.default_rng(4).choice(n_actions, 200_000, p=p_old)
est = {}
print("policy      exact KL   k1 mean (std)     k3 mean (std)   min k1")
for name, zz in (("clipped", z_clip), ("unclipped", z_raw)):
    rho_s = softmax(zz)[sample] / p_old[sample]
    est[name] = (kl(p_old, softmax(zz)), k1(rho_s), k3(rho_s))
    exact, e1, e3 = est[name]
    print(f"{name:10s} {exact:9.4f}  {e1.mean():7.4f} ({e1.std():.3f})"
          f"  {e3.mean():7.4f} ({e3.std():.3f})  {e1.min():+.3f}")

print(" gamma | horizon 1/(1-g) | bound, |r|<=1 | weight at horizon | share inside")
for g in [0.5, 0.9, 0.95, 0.99, 0.999]:
    horizon = 1 / (1 - g)
    bound = 1.0 * horizon  # R_max / (1 - gamma) with R_max = 1
    at_h = g**horizon  # tends to 1/e = 0.368 as gamma -> 1
    print(f" {g:5.3f} | {horizon:15.0f} | {bound:13.0f} | {at_h:17.3f} "
          f"| {1 - at_h:.3f}")

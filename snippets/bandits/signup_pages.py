import numpy as np

RATES = np.array([0.05, 0.07, 0.10])  # true sign-up rates of pages A, B, C
K = len(RATES)
PAGES = np.arange(K)
GAPS = RATES.max() - RATES  # sign-ups lost per visitor sent to each page
print("sign-ups lost per visitor:",
      ", ".join(f"{p} {g:.2f}" for p, g in zip("ABC", GAPS)))
for m in (50, 300):
    se = np.sqrt(RATES * (1 - RATES) / m)  # standard error of a measured rate
    print(f"{m:3d} visitors per page: standard error",
          ", ".join(f"{p} {e:.3f}" for p, e in zip("ABC", se)))

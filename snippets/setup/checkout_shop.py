import numpy as np

DEVICES = ["mobile", "desktop"]  # what the shop can see: the state
PAGES = ["A", "B", "C"]  # what the shop can do: the actions
# chance that a visitor buys, by device (row) and checkout page shown (column)
BUY = np.array([[0.05, 0.12, 0.15],
                [0.10, 0.08, 0.16]])
# chance that the visitor comes back another day after seeing each page;
# C is a pushy one-click page: it sells well today and puts people off
COME_BACK = np.array([0.6, 0.6, 0.3])
P_MOBILE = 0.5  # each visit is on a phone half of the time

print("buy rate    page A  page B  page C")
for d, name in enumerate(DEVICES):
    print(f"{name:10s}" + "".join(f"{x:8.2f}" for x in BUY[d]))

print(f"{'comes back':10s}" + "".join(f"{x:8.2f}" for x in COME_BACK))

import torch

# grid points avoid the kinks at 0.8 and 1.2, where the slope is undefined
rhos = [0.6, 0.7, 0.9, 1.0, 1.1, 1.3, 1.5]


def slope(rho, adv, clipped):
    r = torch.tensor(rho, requires_grad=True)
    term = r * adv
    if clipped:
        term = torch.min(term, r.clamp(0.8, 1.2) * adv)
    term.backward()
    return r.grad.item()


print("          A = +1            A = -1")
print(" rho   raw  clipped     raw  clipped")
for rho in rhos:
    cells = [slope(rho, adv, c) for adv in (1.0, -1.0) for c in (False, True)]
    print(f"{rho:4.1f}  {cells[0]:+4.1f}  {cells[1]:+6.1f}    "
          f"{cells[2]:+4.1f}  {cells[3]:+6.1f}")

HORIZON, SWAP = 5_000, 2_000
drifting = np.tile(RATES, (HORIZON, 1))
drifting[SWAP:] = RATES[::-1]  # at visitor 2,000 pages A and C trade places
drift_loss = {}
for discount in (1.0, 0.999):
    r, _ = simulate([thompson(seed=4)], drifting, HORIZON, runs=200, discount=discount)
    before, after = r[at(SWAP), 0].mean(), (r[-1, 0] - r[at(SWAP), 0]).mean()
    last = (r[-1, 0] - r[at(HORIZON - 1_000), 0]).mean()
    drift_loss[discount] = before, after, last
    # Unpadded, "visitors" left to the prose: the line fits the page (max_output_width).
    print(f"discount {discount}: lost {before:.1f} before the swap, "
          f"{after:.1f} after; {last:.1f} in the last 1,000")

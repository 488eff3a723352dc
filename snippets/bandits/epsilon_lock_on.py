first = visits[at(100)].argmax(axis=2)  # favourite page after 100 visitors
later = visits[at(2_000)].argmax(axis=2)  # favourite page after 2,000 visitors
early_wrong, kept, survives = {}, {}, {}
print(f"{'favourite at visitor 100:':26s}{'wrong':>7s}{'kept at 2,000':>15s}"
      f"{'kept if wrong':>15s}")
for name in ("eps-greedy 0.1", "eps-greedy 0.01", "Thompson"):
    i = NAMES.index(name)
    wrong_first = first[i] != 2
    early_wrong[name] = wrong_first.mean()
    kept[name] = (first[i] == later[i]).mean()
    survives[name] = (later[i][wrong_first] == first[i][wrong_first]).mean()
    print(f"{name:26s}{early_wrong[name]:7.0%}{kept[name]:15.0%}{survives[name]:15.0%}")

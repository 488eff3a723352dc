first = visits[at(100)].argmax(axis=2)  # favourite page after 100 visitors
later = visits[at(2_000)].argmax(axis=2)  # favourite page after 2,000 visitors
kept, survives = {}, {}
for name in ("eps-greedy 0.1", "eps-greedy 0.01", "Thompson"):
    i = NAMES.index(name)
    kept[name] = (first[i] == later[i]).mean()
    wrong_first = first[i] != 2
    survives[name] = (later[i][wrong_first] == first[i][wrong_first]).mean()
    print(f"{name:16s} keeps its visitor-100 favourite in {kept[name]:.0%} of runs; "
          f"a wrong early favourite survives in {survives[name]:.0%}")

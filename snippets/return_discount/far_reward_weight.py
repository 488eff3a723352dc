import math

far = 0.99**100
print(f"0.99**100 = {far:.3f}")
for g in [0.5, 0.9, 0.99]:
    half = math.log(0.5) / math.log(g)  # steps until a reward counts half
    print(f"gamma {g}: a reward counts half after {half:5.1f} steps")

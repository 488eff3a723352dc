def returns_backwards(rewards, gamma):
    """All G_t at once, from the last step back: G_t = r_{t+1} + gamma * G_{t+1}."""
    out, g = [], 0.0  # after the final reward nothing follows, so G_T = 0
    for r in reversed(rewards):
        g = r + gamma * g
        out.append(g)
    return out[::-1]

G_rec = returns_backwards(rewards, gamma)
print("recursion:", [round(g, 10) for g in G_rec])
print("direct sum:", [round(g, 10) for g in G])
print("largest difference:", max(abs(a - b) for a, b in zip(G_rec, G)))

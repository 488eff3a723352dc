import numpy as np

prompt = "Card declined twice, launch is tomorrow."
response = ["Sorry!", "Retry", "with", "3-D", "Secure.", "<eos>"]
# what a language model would say about each next token, given everything before it
token_prob = np.array([0.30, 0.20, 0.65, 0.40, 0.85, 0.90])
score = 1.0  # one number for the whole answer, from a reward model or a checker
state = prompt
for t, (token, p) in enumerate(zip(response, token_prob)):
    r = score if token == "<eos>" else 0.0
    print(f"t={t}  s_t=...{state[-22:]:>22}  a_t={token:8} pi={p:.2f}  r={r:.0f}")
    state = state + " " + token

print(f"log pi(y|x) = sum of token log-probs = {np.log(token_prob).sum():.3f}")
print(f"pi(y|x)     = product of token probs = {token_prob.prod():.5f}")

pi_short, V_short = value_iteration(P, R, gamma=0.5)  # same model, step -0.04
show_policy(pi_short, V_short)
pit_short, goal_short, steps_short = outcomes(P, pi_short)
print(f"from S: pit {pit_short:.3f}, goal {goal_short:.3f}, "
      f"mean steps {steps_short:.1f}")
print("squares aiming at the pit:", aims_at_pit(P, pi_short))

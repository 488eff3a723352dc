P_cost, R_cost = ledge_model(step_reward=-0.5)
pi_cost, V_cost = value_iteration(P_cost, R_cost, gamma=0.99)
show_policy(pi_cost, V_cost)
pit_cost, goal_cost, steps_cost = outcomes(P_cost, pi_cost)
print(f"from S: pit {pit_cost:.3f}, goal {goal_cost:.3f}, "
      f"mean steps {steps_cost:.1f}")
print("squares aiming at the pit:", aims_at_pit(P_cost, pi_cost))

import math
import numpy as np

GRAVITY, CART_MASS, POLE_MASS, HALF_LENGTH = 9.8, 1.0, 0.1, 0.5
FORCE, DT, X_LIMIT, ANGLE_LIMIT = 10.0, 0.02, 2.4, 12 * math.pi / 180
TOTAL_MASS = CART_MASS + POLE_MASS


def cartpole_step(state, push_right):
    """Advance a whole batch of cart-poles by DT seconds. state: array (..., 4)
    of (x, x_dot, theta, theta_dot); push_right: bool array of shape state[..., 0]."""
    x, x_dot, theta, theta_dot = (state[..., i] for i in range(4))
    force = np.where(push_right, FORCE, -FORCE)
    cos, sin = np.cos(theta), np.sin(theta)
    # the two coupled equations of motion, solved for the two accelerations
    temp = (force + POLE_MASS * HALF_LENGTH * theta_dot**2 * sin) / TOTAL_MASS
    theta_acc = (GRAVITY * sin - cos * temp) / (
        HALF_LENGTH * (4 / 3 - POLE_MASS * cos**2 / TOTAL_MASS))
    x_acc = temp - POLE_MASS * HALF_LENGTH * theta_acc * cos / TOTAL_MASS
    # explicit Euler: every coordinate moves along its old rate of change
    new = state + DT * np.stack([x_dot, x_acc, theta_dot, theta_acc], -1)
    fallen = (np.abs(new[..., 0]) > X_LIMIT) | (np.abs(new[..., 2]) > ANGLE_LIMIT)
    return new, fallen

"""LQR on an inverted double pendulum on a cart, from Python (issue 13; numpy only).

The same mechanism and controller as examples_c/lqr_double_pendulum.c: a cart (1 kg) on a
prismatic joint along y, driven by a force; two rods (0.5 kg, 0.6 m) upright on revolute
joints about x, not driven. dt 0.01 s.

1. Sim.linearize("minimal") at the upright equilibrium gives A (6 x 6) and B (6 x 3) of
   x_{k+1} - x* = A (x_k - x*) + B u_k, x = (cart, angle 1, angle 2, their rates),
   u = (cart force, torque 1, torque 2); only the cart force is used.
2. The discrete Riccati equation P = Q + A'PA - A'PB (R + B'PB)^-1 B'PA is iterated from
   P = Q until it stops changing; K = (R + B'PB)^-1 B'PA, u = -K (x - x*).
3. Rod 1 is pushed 0.05 rad off vertical and the controlled pendulum runs for 10 s.

Run: python3 lqr_double_pendulum.py [push_rad] [steps] [h]   (h: linearize by central
differences with step h instead). Exits non-zero if a rod tilts more than 0.2 rad or the
final state is not within 1e-3 of the equilibrium.
"""

import sys

import numpy as np

import maxdyn

TILT_BOUND = 0.2
FINAL_BOUND = 1e-3


def rod_inertia(m, length, width=0.05):
    across = m * (length**2 + width**2) / 12
    return np.diag([across, across, m * 2 * width**2 / 12])


def cart_double_pendulum(dt=0.01, length=0.6):
    """The sim at the upright equilibrium and its three joints (cart, rod 1, rod 2)."""
    with maxdyn.Builder() as b:
        cart = b.add_body(1.0, np.eye(3) * 0.1)
        rod1 = b.add_body(0.5, rod_inertia(0.5, length))
        rod2 = b.add_body(0.5, rod_inertia(0.5, length))
        b.set_body_pose(rod1, [0, 0, length / 2], [1, 0, 0, 0])
        b.set_body_pose(rod2, [0, 0, 1.5 * length], [1, 0, 0, 0])
        bottom, top = [0, 0, -length / 2], [0, 0, length / 2]
        joints = (
            b.add_joint(maxdyn.PRISMATIC, maxdyn.WORLD, cart, [0, 0, 0], [0, 0, 0], [0, 1, 0]),
            b.add_joint(maxdyn.REVOLUTE, cart, rod1, [0, 0, 0], bottom, [1, 0, 0]),
            b.add_joint(maxdyn.REVOLUTE, rod1, rod2, top, bottom, [1, 0, 0]),
        )
        model = maxdyn.Model(b)
    return maxdyn.Sim(model, dt), joints


def dare(a, b, q, r, tolerance=1e-10, max_iterations=100000):
    """(P, K, iterations) of the discrete algebraic Riccati equation, by iterating it."""
    p = q.copy()
    for it in range(1, max_iterations + 1):
        k = np.linalg.solve(r + b.T @ p @ b, b.T @ p @ a)
        nxt = q + a.T @ p @ (a - b @ k)
        nxt = 0.5 * (nxt + nxt.T)  # symmetric up to rounding
        change = np.abs(nxt - p).max()
        p = nxt
        if change <= tolerance * np.abs(p).max():
            return p, np.linalg.solve(r + b.T @ p @ b, b.T @ p @ a), it
    raise RuntimeError("the Riccati iteration did not converge")


def state(sim, joints):
    return np.concatenate([[sim.joint_position(j)[0] for j in joints], [sim.joint_velocity(j)[0] for j in joints]])


def run(push=0.05, steps=1000, h=None):
    """Linearize, design, push and control; returns a dict of what was measured."""
    sim, joints = cart_double_pendulum()
    a, b_all = sim.linearize("minimal") if h is None else sim.linearize_differences("minimal", h)
    b = b_all[:, :1]  # the cart force only
    x_eq = state(sim, joints)
    q, r = np.diag([1.0, 100, 100, 1, 1, 1]), np.array([[0.01]])
    _, k, iterations = dare(a, b, q, r)
    sim.set_joint_position(joints[1], [push])
    worst_tilt = worst_cart = 0.0
    for _ in range(steps):
        u = -k @ (state(sim, joints) - x_eq)
        sim.set_joint_input(joints[0], u)
        sim.step()
        x = state(sim, joints)
        worst_tilt = max(worst_tilt, abs(x[1]), abs(x[1] + x[2]))
        worst_cart = max(worst_cart, abs(x[0]))
    result = dict(a=a, b=b_all, gain=k[0], iterations=iterations, worst_tilt=worst_tilt, worst_cart=worst_cart,
                  final_state=x - x_eq, time=sim.time)
    sim.close()
    return result


def main(argv):
    push = float(argv[1]) if len(argv) > 1 else 0.05
    steps = int(argv[2]) if len(argv) > 2 else 1000
    h = float(argv[3]) if len(argv) > 3 else None
    res = run(push, steps, h)
    np.set_printoptions(precision=6)
    print(f"linearized by {'central differences, h = %g' % h if h else 'Sim.linearize'}")
    print(f"Riccati iterations: {res['iterations']}")
    print(f"gain K: {res['gain']}")
    print(f"push: {push} rad, {steps} steps (t = {res['time']:.2f} s)")
    print(f"worst tilt: {res['worst_tilt']:.6e} rad (bound {TILT_BOUND})")
    print(f"worst cart offset: {res['worst_cart']:.6e} m")
    print(f"final state: {res['final_state']}")
    ok = res["worst_tilt"] <= TILT_BOUND and np.abs(res["final_state"]).max() <= FINAL_BOUND
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

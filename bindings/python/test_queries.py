"""Tests of the issue-13 queries from Python (exact state, kinematics, dynamics terms):
run `python3 test_queries.py` with MAXDYN_LIB pointing at libmaxdyn.so (tests/queries_python.rs
runs it in `cargo test`)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import maxdyn  # noqa: E402
from test_maxdyn import double_pendulum, expect_status  # noqa: E402


def test_queries_state_kinematics_dynamics():
    """Issue 13 from Python: restore replays bit for bit (also in a copy); Jacobian and
    dynamics-term shapes; M qdd + b = tau (measured: rounding, asserted 1e-12)."""
    model, (b1, b2), (j1, j2) = double_pendulum()
    sim = maxdyn.Sim(model, 0.01)
    sim.set_joint_position(j1, [0.4])
    sim.set_joint_input(j2, [0.1])
    saved = sim.state()
    twin = sim.copy()
    sim.step(100)
    first = sim.state()
    sim.set_state(saved)
    sim.step(100)
    twin.step(100)
    assert sim.state() == first and twin.state() == first
    jac = sim.point_jacobian(b2, [0, 0, -1], maxdyn.Sim.AXES_WORLD, maxdyn.Sim.COORDS_MINIMAL)
    assert len(jac) == 6 and all(len(r) == 2 for r in jac)
    assert len(sim.point_jacobian(b1, coords=maxdyn.Sim.COORDS_MAXIMAL)[0]) == 12
    m = sim.mass_matrix()
    assert abs(m[0][1] - m[1][0]) < 1e-14
    qd, qdd = [0.3, -0.2], [1.0, 0.5]
    b = sim.bias_forces(qd)
    tau = sim.inverse_dynamics(qd, qdd)
    for i in range(2):
        assert abs(m[i][0] * qdd[0] + m[i][1] * qdd[1] + b[i] - tau[i]) < 1e-12 * max(1.0, abs(tau[i]))
    assert len(sim.minimal_velocities()) == 2
    expect_status(11, ["`n`"], lambda: sim.set_state(saved[1:]))
    twin.close()
    sim.close()


if __name__ == "__main__":
    tests = [f for name, f in sorted(globals().items()) if name.startswith("test_")]
    failed = 0
    for t in tests:
        try:
            t()
            print(f"ok   {t.__name__}")
        except Exception as e:  # report every failure, then exit non-zero
            failed += 1
            print(f"FAIL {t.__name__}: {e!r}")
    print(f"{len(tests) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)

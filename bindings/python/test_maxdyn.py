"""Tests of the Python binding: run `python3 test_maxdyn.py` (or pytest) with MAXDYN_LIB
pointing at libmaxdyn.so (default: the repository's target/release or target/debug)."""

import gc
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import maxdyn  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BOX = [1 / 600, 0, 0, 0, 1 / 600, 0, 0, 0, 1 / 600]  # Box(0.1, 0.1, 0.1, 1)


def double_pendulum():
    """Scenario A2: two 1 kg boxes on 1 m links, revolute about x, starting horizontal."""
    with maxdyn.Builder() as b:
        b1 = b.add_body(1.0, BOX)
        b2 = b.add_body(1.0, BOX)
        j1 = b.add_joint(maxdyn.REVOLUTE, maxdyn.WORLD, b1, [0, 0, 0], [0, 0, 1], [1, 0, 0])
        j2 = b.add_joint(maxdyn.REVOLUTE, b1, b2, [0, 0, 0], [0, 0, 1], [1, 0, 0])
        assert (b.body_count, b.joint_count) == (2, 2)
        model = maxdyn.Model(b)
    return model, (b1, b2), (j1, j2)


def test_double_pendulum_energy_and_violation():
    model, (b1, b2), (j1, j2) = double_pendulum()
    sim = maxdyn.Sim(model, 0.01)
    model.close()  # the sim shares the compiled model
    sim.set_joint_position(j1, [math.pi / 2])
    assert abs(sim.joint_position(j1)[0] - math.pi / 2) < 1e-14
    # horizontal: +pi/2 about x takes b1's centre from (0, 0, -1) to (0, 1, 0)
    x = sim.body_state(b1)[:3]
    assert max(abs(a - e) for a, e in zip(x, [0.0, 1.0, 0.0])) < 1e-14, x
    k0, p0 = sim.energy()
    assert k0 == 0.0 and abs(p0) < 1e-12  # both centres at z = 0, at rest
    worst_e, worst_v = 0.0, 0.0
    for _ in range(1000):
        sim.step()
        k, p = sim.energy()
        worst_e = max(worst_e, abs(k + p - (k0 + p0)))
        worst_v = max(worst_v, sim.constraint_violation())
    print(f"python double pendulum, 10 s at dt 0.01: max |E-E0| = {worst_e:.4g} J, max violation = {worst_v:.3g}")
    assert worst_v < 1e-9, worst_v
    assert worst_e < 0.5, worst_e  # measured 0.378 J (bounded, no drift: variational integrator)
    assert abs(sim.time - 10.0) < 1e-9
    assert sim.joint_velocity(j2)[0] != 0.0


def test_errors_raise_with_the_library_message():
    with maxdyn.Builder() as b:
        try:
            b.add_body(-1.0, BOX)
        except maxdyn.MaxdynError as e:
            assert e.status == 6, e  # MAXDYN_STATUS_INVALID_MASS
            assert "mass" in e.message, e.message
        else:
            raise AssertionError("negative mass accepted")
        body = b.add_body(1.0, BOX)
        try:
            b.add_joint(99, maxdyn.WORLD, body, [0, 0, 0], [0, 0, 1], [1, 0, 0])
        except maxdyn.MaxdynError as e:
            assert e.status == 10, e  # MAXDYN_STATUS_INVALID_ENUM
        else:
            raise AssertionError("joint type 99 accepted")
        try:
            b.add_joint(maxdyn.REVOLUTE, maxdyn.WORLD, body, [0, 0, 0], [0, 0, 1], [0, 0, 0])
        except maxdyn.MaxdynError as e:
            assert e.status == 8 and "axis" in e.message, e  # MAXDYN_STATUS_ZERO_AXIS
        else:
            raise AssertionError("zero axis accepted")
    model, _, (j1, _) = double_pendulum()
    try:
        maxdyn.Sim(model, 0.0)
    except maxdyn.MaxdynError as e:
        assert e.status == 9, e  # MAXDYN_STATUS_INVALID_TIME_STEP
    else:
        raise AssertionError("dt = 0 accepted")
    sim = maxdyn.Sim(model, 0.01)
    try:
        sim.set_joint_position(j1, [0.1, 0.2])
    except maxdyn.MaxdynError as e:
        assert e.status == 11, e  # MAXDYN_STATUS_WRONG_LENGTH
    else:
        raise AssertionError("2 values for a revolute joint accepted")


def test_urdf_double_pendulum():
    if not maxdyn.HAS_URDF:
        raise AssertionError("libmaxdyn lacks maxdyn_builder_from_urdf")
    path = os.path.join(ROOT, "tests", "models", "doublependulum_cd.urdf")
    with maxdyn.Builder.from_urdf(path) as b:
        assert (b.body_count, b.joint_count) == (2, 2)
        model = maxdyn.Model(b)
    sim = maxdyn.Sim(model, 0.01)
    # link1's centre: joint origin (0,1,0) plus Rz(pi/2) Rx(0.4) (0,0,-0.5)
    x = sim.body_state(0)[:3]
    expected = [-0.5 * math.sin(0.4), 1.0, -0.5 * math.cos(0.4)]
    assert max(abs(a - e) for a, e in zip(x, expected)) < 1e-9, (x, expected)
    sim.set_joint_position(0, [1.0])
    sim.step(300)
    assert sim.constraint_violation() < 1e-9
    try:
        maxdyn.Builder.from_urdf(os.path.join(ROOT, "no", "such.urdf"))
    except maxdyn.MaxdynError as e:
        assert e.status == 101 and "cannot read" in e.message, e  # MAXDYN_STATUS_URDF
    else:
        raise AssertionError("missing file accepted")


def test_objects_are_freed():
    gc.collect()
    before = maxdyn.live_objects()
    model, _, _ = double_pendulum()
    sim = maxdyn.Sim(model, 0.01)
    assert maxdyn.live_objects() == before + 2
    del model, sim
    gc.collect()
    assert maxdyn.live_objects() == before


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

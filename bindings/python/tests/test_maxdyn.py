"""Tests of the Python binding: run `python3 test_maxdyn.py` (or pytest) with MAXDYN_LIB
pointing at libmaxdyn.so (default: the repository's target/release or target/debug)."""

import gc
import math
import os
import pathlib
import tempfile
import sys

import numpy as np

try:  # the installed package (pip), else the checkout's
    import maxdyn
except ImportError:
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import maxdyn  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
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
    path = os.path.join(ROOT, "tests", "fixtures", "doublependulum_cd.urdf")
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


CUBE = [1 / 24, 0, 0, 0, 1 / 24, 0, 0, 0, 1 / 24]  # Box(0.5, 0.5, 0.5, 1)
ROD = [1.01 / 12, 0, 0, 0, 1.01 / 12, 0, 0, 0, 0.02 / 12]  # Box(0.1, 0.1, 1, 1)
G = 9.81


def test_box_drop_on_ground_contacts():
    """SCENARIOS A4: Box(0.5,0.5,0.5,1), 8 corner contacts, mu 0.3, dropped from 1 m."""
    with maxdyn.Builder() as b:
        box = b.add_body(1.0, CUBE)
        b.set_body_pose(box, [0, 0, 1.25], [1, 0, 0, 0])
        corners = [[sx, sy, sz] for sx in (-0.25, 0.25) for sy in (-0.25, 0.25) for sz in (-0.25, 0.25)]
        contacts = [b.add_ground_contact(box, p, 0.0, 0.3) for p in corners]
        assert b.contact_count == 8 and b.contact_cone(0) == (maxdyn.CONE_LINEAR, 4)
        b.set_contact_cone(7, maxdyn.CONE_LINEAR, 8)
        assert b.contact_cone(7) == (maxdyn.CONE_LINEAR, 8)
        model = maxdyn.Model(b)
    assert model.contact_count == 8
    sim = maxdyn.Sim(model, 0.01)
    assert sim.contact_tolerance == 1e-8
    assert sim.contact_margin == 0.05
    worst = 0.0
    for _ in range(100):
        sim.step()
        worst = max(worst, max(-sim.contact(c)[0] for c in contacts))
    lowest = min(sim.contact(c)[0] for c in contacts)
    normal = sum(sim.contact(c)[1] for c in contacts)
    speed = math.sqrt(sum(v * v for v in sim.body_state(box)[7:10]))
    stats = sim.step_stats()
    print(f"python box drop: penetration {worst:.2e} m, rest gap {lowest:.2e} m, sum of normal forces {normal:.9f} N, {stats}")
    assert worst <= 1e-4 and abs(lowest) <= 1e-3 and speed < 1e-6
    assert (stats.contacts, stats.active_contacts) == (8, 4)
    assert abs(normal - G) < 1e-6, normal


def rod_pendulum(gravity=True):
    """Box(0.1, 0.1, 1, 1) on a revolute about x at its end (0, 0, 0.5)."""
    b = maxdyn.Builder()
    if not gravity:
        b.set_gravity([0, 0, 0])
    body = b.add_body(1.0, ROD)
    joint = b.add_joint(maxdyn.REVOLUTE, maxdyn.WORLD, body, [0, 0, 0], [0, 0, 0.5], [1, 0, 0])
    return b, body, joint


def test_torsional_spring_period_and_damper_energy():
    """A torsional spring k on the rod without gravity: period 2 pi sqrt(I/k) within 0.5 %,
    energy bounded; with a damper, the dissipation accounts for the lost energy."""
    k, inertia = 2.0, 1.01 / 12 + 0.25  # rod about its end
    b, _, j = rod_pendulum(gravity=False)
    b.set_joint_spring(j, [k], [0.0])
    with b:
        sim = maxdyn.Sim(maxdyn.Model(b), 1e-3)
    sim.set_joint_position(j, [0.1])
    assert abs(sim.spring_energy() - 0.5 * k * 0.01) < 1e-15
    e0 = sum(sim.energy())
    crossings, prev, worst = [], 0.1, 0.0
    for n in range(1, 9000):
        sim.step()
        th = sim.joint_position(j)[0]
        if prev < 0.0 <= th:
            crossings.append((n - 1 + prev / (prev - th)) * 1e-3)
        prev = th
        worst = max(worst, abs(sum(sim.energy()) - e0))
    period = (crossings[-1] - crossings[0]) / (len(crossings) - 1)
    exact = 2 * math.pi * math.sqrt(inertia / k)
    print(f"python torsional spring: period {period:.6f} s vs {exact:.6f} s, max |E-E0| {worst:.2e} J of {e0:.2e} J")
    assert len(crossings) >= 3
    assert abs(period / exact - 1) < 5e-3
    assert worst < 0.01 * e0

    b, _, j = rod_pendulum(gravity=False)
    b.set_joint_spring(j, [k], [0.0])
    b.set_joint_damper(j, [0.3])
    with b:
        sim = maxdyn.Sim(maxdyn.Model(b), 1e-3)
    sim.set_joint_position(j, [0.1])
    e0 = sum(sim.energy())
    sim.step(3000)
    w, d = sim.energy_account()
    e = sum(sim.energy())
    print(f"python damped spring: E0 {e0:.6e} J, E {e:.6e} J, dissipation {d:.6e} J, input work {w}")
    assert w == 0.0 and e < 0.5 * e0
    assert abs(e0 - e - d) < 0.01 * d
    sim.reset_energy_account()
    assert sim.energy_account() == (0.0, 0.0)


def test_pd_loop_without_callback():
    """Read the joint, set its input, step: settles at Kp (t - x) = m g (l/2) sin x."""
    kp, kd, target = 20.0, 3.0, 1.2
    b, _, j = rod_pendulum()
    with b:
        sim = maxdyn.Sim(maxdyn.Model(b), 0.01)
    for _ in range(3000):
        th, om = sim.joint_position(j)[0], sim.joint_velocity(j)[0]
        sim.set_joint_input(j, [kp * (target - th) - kd * om])
        sim.step()
    assert sim.joint_input(j)[0] != 0.0
    pred = target
    for _ in range(50):
        pred -= (kp * (target - pred) - G * 0.5 * math.sin(pred)) / (-kp - G * 0.5 * math.cos(pred))
    th = sim.joint_position(j)[0]
    print(f"python PD loop: settled {th:.10f} rad, predicted {pred:.10f} rad")
    assert target - pred > 0.1
    assert abs(th - pred) < 1e-6
    sim.clear_inputs()
    assert sim.joint_input(j).tolist() == [0.0]


def test_servo_target_tracks_a_ramp():
    """A servo (spring 400, damper 40) whose target ramps at 0.5 rad/s with its rate leads
    the ramp by c W^3 dt^2 / (24 k) (tests/forces/servo.rs); bad targets are refused."""
    k, c, w, dt = 400.0, 40.0, 0.5, 0.01
    b, body, j = rod_pendulum(gravity=False)
    bare = b.add_joint(maxdyn.REVOLUTE, body, b.add_body(1.0, CUBE), [0, 0, -0.5], [0, 0, 0], [1, 0, 0])
    b.set_joint_spring(j, [k], [0.0])
    b.set_joint_damper(j, [c])
    with b:
        sim = maxdyn.Sim(maxdyn.Model(b), dt)
    for _ in range(300):
        sim.set_joint_target(j, [w * (sim.time + dt)], [w])
        sim.step()
    lead, expected = sim.joint_position(j)[0] - w * sim.time, c * w ** 3 * dt ** 2 / (24 * k)
    print(f"python servo on a ramp: leads by {lead:.4e} rad, c W^3 dt^2/(24 k) = {expected:.4e}")
    assert abs(lead / expected - 1) < 1e-6
    p, v = sim.joint_target(j)
    assert isinstance(p, np.ndarray) and abs(p[0] - w * sim.time) < 1e-12 and v.tolist() == [w]
    expect_rejected([
        (lambda: sim.set_joint_target(bare, [0.1]), 12, "joint"),  # INVALID_ARGUMENT: no spring, no damper
        (lambda: sim.set_joint_target(j, [float("nan")]), 5, "position"),  # NON_FINITE
    ])
    try:
        sim.set_joint_target(j, [0.1], [0.0, 0.0])
    except ValueError as e:
        assert "velocity" in str(e)
    else:
        raise AssertionError("accepted a velocity of another length")
    sim.set_joint_target(j, [0.2])  # rate 0 when omitted
    assert [a.tolist() for a in sim.joint_target(j)] == [[0.2], [0.0]]
    # every joint's at once, joint-id order: the bare joint takes zeros only
    sim.set_joint_targets([0.4, 0.0], [0.1, 0.0])
    assert [a.tolist() for a in sim.joint_targets()] == [[0.4, 0.0], [0.1, 0.0]]
    expect_rejected([(lambda: sim.set_joint_targets([0.4, 0.3]), 12, "position")])
    assert sim.joint_target(j)[0].tolist() == [0.4]


def test_springs_wrenches_names_and_loops():
    # a mass on a vertical prismatic joint hanging from a point spring-damper anchored
    # 1 m above: it settles where k (l - l0) = m g, l = 1 - s
    k, c, l0 = 50.0, 5.0, 0.5
    with maxdyn.Builder() as b:
        body = b.add_body(1.0, CUBE)
        j = b.add_joint(maxdyn.PRISMATIC, maxdyn.WORLD, body, [0, 0, 0], [0, 0, 0], [0, 0, 1])
        b.set_body_name(body, "mass")
        b.set_joint_name(j, "slider")
        assert (b.find_body("mass"), b.find_joint("slider")) == (body, j)
        assert b.add_spring(maxdyn.WORLD, [0, 0, 1], body, [0, 0, 0], k, c, l0) == 0
        assert b.spring_count == 1
        model = maxdyn.Model(b)
    sim = maxdyn.Sim(model, 0.01)
    assert abs(sim.spring_energy() - 0.5 * k * (1.0 - l0) ** 2) < 1e-12
    sim.step(1000)
    settled, expected = sim.joint_position(j)[0], 1.0 - l0 - G / k
    print(f"python point spring: settled at s = {settled:.9f} m, k (l - l0) = m g gives {expected:.9f} m")
    assert abs(settled - expected) < 1e-6
    assert sim.energy_account()[1] > 0.0
    # a force at the tip holds a rod level: its moment (m g / 2) l equals m g l / 2
    rb, rod, rj = rod_pendulum()
    with rb:
        level = maxdyn.Sim(maxdyn.Model(rb), 0.01)
    level.set_joint_position(rj, [math.pi / 2])
    level.set_body_wrench(rod, [0, 0, 0.5 * G], point=[0, 0, -0.5])
    level.step(200)
    assert abs(level.joint_position(rj)[0] - math.pi / 2) < 1e-9
    path = os.path.join(ROOT, "tests", "fixtures", "fourbar_cd_loopjoint.urdf")
    with maxdyn.Builder.from_urdf(path) as fb:
        assert fb.find_body("link3") == 2 and fb.find_joint("joint24") == 4
        fm = maxdyn.Model(fb)
        assert fm.loop_count == 1
        rows, rank, redundant, dof = maxdyn.Sim(fm, 0.01).constraint_rank()
        assert redundant == 3 and rows - rank == 3 and dof == 6 * 4 - rank
    assert model.loop_count == 0


def expect_rejected(cases):
    """Each (call, status, argument name): the call raises with that status and names it."""
    for call, status, arg in cases:
        try:
            call()
        except maxdyn.MaxdynError as e:
            assert e.status == status and f"`{arg}`" in e.message, (status, arg, e)
        else:
            raise AssertionError(f"accepted: expected status {status} for `{arg}`")


def test_contact_and_input_errors():
    with maxdyn.Builder() as b:
        box = b.add_body(1.0, CUBE)
        c = b.add_ground_contact(box, [0, 0, -0.25], 0.0, 0.3)
        cases = [
            (lambda: b.add_ground_contact(box, [0, 0, 0], 0.0, -0.1), 12, "friction"),  # INVALID_ARGUMENT
            (lambda: b.add_ground_contact(box, [0, 0, 0], float("nan"), 0.1), 5, "radius"),  # NON_FINITE
            (lambda: b.add_plane_contact(box, [0, 0, 0], 0.0, [0, 0, 0], 0.0, 0.1), 8, "normal"),  # ZERO_AXIS
            (lambda: b.add_ground_contact(3, [0, 0, 0], 0.0, 0.1), 2, "body"),  # UNKNOWN_BODY
            (lambda: b.set_contact_cone(c + 1, maxdyn.CONE_LINEAR, 4), 4, "contact"),  # UNKNOWN_CONTACT
            (lambda: b.set_contact_cone(c, 7, 4), 10, "cone_type"),  # INVALID_ENUM
            (lambda: b.set_contact_cone(c, maxdyn.CONE_LINEAR, 3), 12, "directions"),
            (lambda: b.find_body("nothing"), 2, "name"),
        ]
        expect_rejected(cases)
        assert b.contact_count == 1 and b.contact_cone(c) == (maxdyn.CONE_LINEAR, 4)
    rb, _, j = rod_pendulum()
    with rb:
        sim = maxdyn.Sim(maxdyn.Model(rb), 0.01)
    expect_rejected([
        (lambda: sim.set_joint_input(j, [float("nan")]), 5, "u"),
        (lambda: sim.set_joint_input(j, [1.0, 2.0]), 11, "n"),  # WRONG_LENGTH
        (lambda: sim.contact(0), 4, "contact"),
        (lambda: setattr(sim, "contact_tolerance", 0.0), 12, "tolerance"),
        (lambda: setattr(sim, "contact_margin", -1.0), 12, "margin"),
    ])
    assert sim.joint_input(j).tolist() == [0.0] and sim.contact_tolerance == 1e-8 and sim.contact_margin == 0.05


def test_solver_options_struct_and_step_stats():
    """Every option through one struct: the defaults, a round trip, a bad field rejected
    with the options unchanged; with 2 Newton iterations, no splitting and a cold start the
    resting box's step fails after one Tresca round (tresca_rounds in the stats)."""
    with maxdyn.Builder() as b:
        box = b.add_body(1.0, CUBE)
        b.set_body_pose(box, [0, 0, 0.25], [1, 0, 0, 0])
        for p in ([sx, sy, sz] for sx in (-0.25, 0.25) for sy in (-0.25, 0.25) for sz in (-0.25, 0.25)):
            b.add_ground_contact(box, p, 0.0, 0.3)
        sim = maxdyn.Sim(maxdyn.Model(b), 0.01)
    defaults = maxdyn.SolverOptions()
    assert (defaults.tolerance, defaults.max_iterations, defaults.acceptance, defaults.contact_tolerance,
            defaults.max_splits, defaults.contact_predictor_corrector, defaults.contact_margin,
            defaults.contact_warm_start, defaults.integrator) == (1e-10, 100, 1e-8, 1e-8, 5, 1, 0.05, 1, maxdyn.INTEGRATOR_FIRST_ORDER)
    assert sim.options == defaults
    custom = maxdyn.SolverOptions(tolerance=1e-11, max_splits=1, contact_predictor_corrector=0, contact_margin=math.inf)
    sim.options = custom
    assert sim.options == custom and sim.contact_margin == math.inf
    expect_rejected([
        (lambda: setattr(sim, "options", maxdyn.SolverOptions(max_splits=-1)), 12, "options.max_splits"),
        (lambda: setattr(sim, "options", maxdyn.SolverOptions(tolerance=math.nan)), 5, "options.tolerance"),
        (lambda: setattr(sim, "options", maxdyn.SolverOptions(acceptance=1e-12)), 12, "options.acceptance"),
        (lambda: setattr(sim, "options", maxdyn.SolverOptions(integrator=3)), 10, "options.integrator"),
    ])
    assert sim.options == custom
    sim.options = maxdyn.SolverOptions()
    sim.step()
    sim.options = maxdyn.SolverOptions(max_iterations=2, max_splits=0, contact_warm_start=0)
    try:
        sim.step()
        raise AssertionError("the step should not converge in 2 iterations")
    except maxdyn.MaxdynError as e:
        assert e.status == 200, e
    stats = sim.step_stats()
    # 2 iterations each for the plain solve and one Tresca round, 4 for the relaxed solve
    # (it may take twice the cap); no refined retry: two iterations leave the plain solve
    # far from a solution
    assert stats.fallback == 1 and stats.tresca_rounds >= 1 and stats.iterations == 8, stats
    assert stats.relaxed == 0, stats
    sim.options = maxdyn.SolverOptions()
    sim.step()
    assert sim.step_stats().tresca_rounds == 0


def test_batch_matches_serial_sims():
    import array
    gc.collect()
    before = maxdyn.live_objects()
    model, (b1, b2), (j1, j2) = double_pendulum()
    angles = [0.3, 0.9, 1.5, 2.1]

    def pd(i, sim):  # a different target per sim
        th, om = sim.joint_position(j1)[0], sim.joint_velocity(j1)[0]
        sim.set_joint_input(j1, [5.0 * (0.2 * i - th) - 0.5 * om])

    serial = []
    for i, a in enumerate(angles):
        sim = maxdyn.Sim(model, 0.01)
        sim.set_joint_position(j1, [a])
        for _ in range(150):
            pd(i, sim)
            sim.step()
        serial.append(sim.body_state(b1).tolist() + sim.body_state(b2).tolist())
    for threads in (1, 2):
        batch = maxdyn.Batch(model, len(angles), 0.01, threads=threads)
        assert (len(batch), batch.thread_count) == (4, threads)
        for sim, a in zip(batch.sims, angles):
            sim.set_joint_position(j1, [a])
        assert batch.step(100, control=pd) == [0, 0, 0, 0]
        assert batch.step(50, control=pd) == [0, 0, 0, 0]
        states = batch.body_states()
        assert states.shape == (4, 2, 13)
        for i in range(4):
            assert states[i].reshape(-1).tolist() == serial[i], f"{threads} threads: sim {i} differs from the serial sim"
            assert abs(batch[i].time - 1.5) < 1e-12
        buf = array.array("d", [0.0]) * (4 * 26)
        assert list(batch.body_states(out=buf)) == states.reshape(-1).tolist()
        # a sim that fails stops alone; a raising controller stops its sim and re-raises
        batch.sims[1].options = maxdyn.SolverOptions(max_iterations=1, max_splits=0, tolerance=1e-16, acceptance=1e-16)
        assert batch.step(3) == [0, 200, 0, 0]
        assert batch.statuses() == [0, 200, 0, 0]
        assert abs(batch[1].time - 1.5) < 1e-12 and abs(batch[0].time - 1.53) < 1e-12

        def shaky(i, sim):
            if i == 2:
                raise KeyError("controller of sim 2")

        try:
            batch.step(1, control=shaky)
            raise AssertionError("the controller's exception must be raised again")
        except KeyError:
            pass
        assert batch.statuses() == [0, 200, 201, 0]
        for bad in (lambda: batch.step(-1), lambda: maxdyn.Batch(model, -2, 0.01)):
            try:
                bad()
                raise AssertionError("a negative count must be refused")
            except ValueError:
                pass
        batch.sims[1].options = maxdyn.SolverOptions()
        batch.clear_failure(1)
        assert batch.step(1) == [0, 0, 201, 0]
        assert abs(batch[1].time - 1.51) < 1e-12
        assert maxdyn.live_objects() == before + 1 + 1 + 4  # the model, the batch and its sims
        sim = batch[0]
        batch.close()  # frees its sims: `sim` is closed too
        assert maxdyn.live_objects() == before + 1
        try:
            sim.time
            raise AssertionError("a sim of a closed batch must refuse calls")
        except ValueError:
            pass


def arm_model():
    """base (welded) -> upper (revolute "shoulder") -> lower (prismatic "slide") -> ball
    (spherical "wrist"); the slide mimics the shoulder; frames "tool" and "origin"."""
    inertia = [0.3, 0.01, 0.02, 0.01, 0.2, 0.03, 0.02, 0.03, 0.15]
    with maxdyn.Builder() as b:
        for name in ("base", "upper", "lower", "ball"):
            b.set_body_name(b.add_body(2.0, inertia), name)
        joints = [(maxdyn.FIXED, maxdyn.WORLD, 0, "weld"), (maxdyn.REVOLUTE, 0, 1, "shoulder"),
                  (maxdyn.PRISMATIC, 1, 2, "slide"), (maxdyn.SPHERICAL, 2, 3, "wrist")]
        for kind, parent, child, name in joints:
            b.set_joint_name(b.add_joint(kind, parent, child, [0, 0, 0], [0, 0, 0]), name)
        b.set_joint_limits(1, [-1.0], [2.0])
        b.set_joint_limits(2, [-math.inf], [0.3])
        assert b.add_mimic(2, 1, 0.1, 0.05) == 0
        assert b.add_frame("tool", 2, [0, 0, 0.4, 0, 0, 0, 2]) == 0
        assert b.add_frame("origin", maxdyn.WORLD) == 1
        return maxdyn.Model(b)  # the builder is freed at the end of the block


def test_names_and_structure_after_the_builder_is_freed():
    model = arm_model()
    for k, name in enumerate(("base", "upper", "lower", "ball")):
        assert model.body_name(k) == name and model.find_body(name) == k
    for k, name in enumerate(("weld", "shoulder", "slide", "wrist")):
        assert model.joint_name(k) == name and model.find_joint(name) == k
    assert [model.joint_type(j) for j in range(4)] == [maxdyn.FIXED, maxdyn.REVOLUTE, maxdyn.PRISMATIC, maxdyn.SPHERICAL]
    assert [model.joint_parent(j) for j in range(4)] == [maxdyn.WORLD, 0, 1, 2]
    assert [model.joint_child(j) for j in range(4)] == [0, 1, 2, 3]
    assert [model.joint_dof(j) for j in range(4)] == [0, 1, 1, 3]
    assert model.body_mass(3) == 2.0
    assert model.body_inertia(3).tolist() == [[0.3, 0.01, 0.02], [0.01, 0.2, 0.03], [0.02, 0.03, 0.15]]
    assert model.frame_count == 2 and model.frame_names == ["tool", "origin"]
    assert (model.frame_name(0), model.find_frame("origin")) == ("tool", 1)
    assert (model.frame_body(0), model.frame_body(1)) == (2, maxdyn.WORLD)
    assert model.frame_pose(0).tolist() == [0, 0, 0.4, 0, 0, 0, 1.0]  # the quaternion normalized
    assert model.frame_pose(1).tolist() == [0, 0, 0, 1.0, 0, 0, 0]
    assert model.limit_count == 2
    assert tuple(x.tolist() for x in model.joint_limits(1)) == ([-1.0], [2.0])
    assert tuple(x.tolist() for x in model.joint_limits(2)) == ([-math.inf], [0.3])
    assert tuple(x.tolist() for x in model.joint_limits(3)) == ([-math.inf] * 3, [math.inf] * 3)
    assert tuple(x.tolist() for x in model.joint_limits(0)) == ([], [])
    assert (model.mimic_count, model.mimic(0)) == (1, (2, 1, 0.1, 0.05))
    # a URDF model keeps its link and joint names
    path = os.path.join(ROOT, "tests", "fixtures", "doublependulum_cd.urdf")
    with maxdyn.Builder.from_urdf(path) as b:
        urdf = maxdyn.Model(b)
    assert (urdf.body_names, urdf.joint_names) == (["link1", "link2"], ["joint1", "joint2"])
    assert (urdf.find_joint("joint2"), urdf.joint_parent(0), urdf.joint_parent(1)) == (1, maxdyn.WORLD, 0)
    assert urdf.body_mass(urdf.find_body("link2")) == 1.0


def expect_status(status, words, call):
    try:
        call()
    except maxdyn.MaxdynError as e:
        assert e.status == status, e
        for w in words:
            assert w in e.message, (w, e.message)
    else:
        raise AssertionError(f"accepted: expected status {status}")


def test_names_limits_mimics_and_frames_errors():
    model = arm_model()
    expect_status(2, ["maxdyn_model_get_body_name", "`body`"], lambda: model.body_name(4))  # UNKNOWN_BODY
    expect_status(3, ["`joint`"], lambda: model.joint_name(-1))  # UNKNOWN_JOINT
    expect_status(13, ["`frame`"], lambda: model.frame_pose(2))  # UNKNOWN_FRAME
    expect_status(2, ["no body is named \"elbow\""], lambda: model.find_body("elbow"))
    expect_status(3, ["no joint is named"], lambda: model.find_joint("elbow"))
    expect_status(13, ["no frame is named"], lambda: model.find_frame("elbow"))
    expect_status(12, ["`name`", "empty"], lambda: model.find_body(""))  # INVALID_ARGUMENT
    expect_status(14, ["`mimic`"], lambda: model.mimic(1))  # UNKNOWN_MIMIC
    with maxdyn.Builder() as b:
        body = b.add_body(1.0, BOX)
        ball = b.add_body(1.0, BOX)
        hinge = b.add_joint(maxdyn.REVOLUTE, maxdyn.WORLD, body, [0, 0, 0], [0, 0, 1])
        sphere = b.add_joint(maxdyn.SPHERICAL, body, ball, [0, 0, 0], [0, 0, 1])
        expect_status(11, ["`n`"], lambda: b.set_joint_limits(hinge, [0, 0], [1, 1]))  # WRONG_LENGTH
        expect_status(5, ["`lower`"], lambda: b.set_joint_limits(hinge, [math.nan], [1]))  # NON_FINITE
        expect_status(12, ["`lower`"], lambda: b.set_joint_limits(hinge, [2], [1]))
        expect_status(12, ["single-axis"], lambda: b.set_joint_limits(sphere, [-1] * 3, [1] * 3))
        expect_status(3, ["`leader`"], lambda: b.add_mimic(hinge, 7))
        expect_status(12, ["`follower`"], lambda: b.add_mimic(sphere, hinge))
        expect_status(12, ["`leader`"], lambda: b.add_mimic(hinge, hinge))
        expect_status(5, ["`multiplier`"], lambda: b.add_mimic(hinge, sphere, math.inf))
        expect_status(2, ["`body`"], lambda: b.add_frame("tip", 5))
        expect_status(8, ["`pose`"], lambda: b.add_frame("tip", body, [0] * 7))  # ZERO_AXIS
        expect_status(12, ["`name`"], lambda: b.add_frame("", body))
        m = maxdyn.Model(b)
    assert (m.limit_count, m.mimic_count, m.frame_count) == (0, 0, 0), "failed calls change nothing"


# --- collision shapes (issue 12)
def test_collision_shapes_and_urdf_collision():
    with maxdyn.Builder() as b:
        body = b.add_body(1.0, BOX)
        ground = b.add_shape(maxdyn.WORLD, maxdyn.SHAPE_PLANE)
        box = b.add_shape(body, maxdyn.SHAPE_BOX, [0.05, 0.05, 0.05])
        ball = b.add_shape(body, maxdyn.SHAPE_SPHERE, [0.02], pose=[0, 0, 0.05, 1, 0, 0, 0])
        assert (ground, box, ball, b.shape_count) == (0, 1, 2, 3)
        b.set_shape_friction(box, 0.5)
        b.set_collision_filter(ball, 2, ~2)
        b.exclude_shape_pair(ground, ball)
        b.set_collision_cone(maxdyn.CONE_NONLINEAR, 0)
        b.set_jointed_bodies_collide(True)
        expect_status(10, ["`shape_type`"], lambda: b.add_shape(body, 9, [0.1]))  # INVALID_ENUM
        expect_status(15, ["`params`", "radius -0.1"], lambda: b.add_shape(body, maxdyn.SHAPE_SPHERE, [-0.1]))  # INVALID_SHAPE
        expect_status(15, ["`params`"], lambda: b.add_shape(body, maxdyn.SHAPE_BOX, [0.1, 0.0, 0.1]))
        expect_status(15, ["`pose`"], lambda: b.add_shape(body, maxdyn.SHAPE_SPHERE, [0.1], [0, 0, 0, 1, 1, 0, 0]))
        expect_status(5, ["`pose`"], lambda: b.add_shape(body, maxdyn.SHAPE_SPHERE, [0.1], [math.nan, 0, 0, 1, 0, 0, 0]))
        expect_status(2, ["`body`"], lambda: b.add_shape(4, maxdyn.SHAPE_SPHERE, [0.1]))  # UNKNOWN_BODY
        expect_status(16, ["`shape`"], lambda: b.set_shape_friction(3, 0.1))  # UNKNOWN_SHAPE
        expect_status(16, ["`shape_b`"], lambda: b.exclude_shape_pair(0, 7))
        expect_status(12, ["`directions`"], lambda: b.set_collision_cone(maxdyn.CONE_LINEAR, 3))
        assert b.shape_count == 3, "failed calls change nothing"
        # a convex hull from points (issue 25)
        cube = [[x, y, z] for x in (-0.05, 0.05) for y in (-0.05, 0.05) for z in (-0.05, 0.05)]
        assert b.add_hull_shape(body, cube) == 3 and maxdyn.SHAPE_HULL == 5
        expect_status(15, ["`points`", "coplanar"], lambda: b.add_hull_shape(body, [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]]))
        expect_status(15, ["`points`", "at least 4 points, got 3"], lambda: b.add_hull_shape(body, cube[:3]))
        assert b.shape_count == 4, "refused hulls add nothing"
        # static world geometry: a height field and a triangle mesh (issue 25)
        assert b.add_heightfield_shape([[0.0, 0.1, 0.2], [0.0, 0.1, 0.2]], 0.5, 0.5) == 4 and maxdyn.SHAPE_HEIGHTFIELD == 6
        assert b.add_trimesh_shape([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]]) == 5 and maxdyn.SHAPE_TRIMESH == 7
        expect_status(15, ["`rows`", "at least 2 rows, got 1"], lambda: b.add_heightfield_shape([[0.0, 0.1]], 0.5, 0.5))
        expect_status(5, ["`heights`"], lambda: b.add_heightfield_shape([[0.0, float("nan")], [0.0, 0.0]], 0.5, 0.5))
        expect_status(15, ["`dx`", "must be > 0"], lambda: b.add_heightfield_shape([[0.0, 0.0], [0.0, 0.0]], 0.0, 0.5))
        expect_status(15, ["triangle 0 names vertex 3"], lambda: b.add_trimesh_shape([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 3]]))
        assert b.shape_count == 6, "refused terrain adds nothing"
    a1 = os.path.join(ROOT, "tests", "fixtures", "a1_unitree_ros.urdf")
    plain, _ = maxdyn.Builder.from_urdf_with(a1, floating=True)
    robot, warnings = maxdyn.Builder.from_urdf_with(a1, floating=True, collision=True, ground_plane=True)
    # 10 boxes, 8 cylinders, 4 foot spheres, and the ground
    assert (plain.shape_count, robot.shape_count) == (0, 23)
    assert len(warnings) == 12 and all("friction" in w for w in warnings), warnings
    plain.close()
    robot.close()


TRIO_URDF = """<robot name="trio"><link name="w"/>
  <link name="a"><inertial><mass value="1"/><inertia ixx="0.1" iyy="-1e-8" izz="0.1"/></inertial>
    <collision><geometry><sphere radius="0.1"/></geometry></collision></link>
  <link name="b"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1"/></inertial>
    <collision><geometry><sphere radius="0.1"/></geometry></collision></link>
  <link name="c"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1"/></inertial>
    <collision><geometry><sphere radius="0.1"/></geometry></collision></link>
  <joint name="ja" type="revolute"><parent link="w"/><child link="a"/><origin xyz="0 0 1"/></joint>
  <joint name="jb" type="revolute"><parent link="a"/><child link="b"/><origin xyz="0 0 1"/></joint>
  <joint name="jc" type="revolute"><parent link="b"/><child link="c"/><origin xyz="0 0 1"/></joint>
</robot>"""


def test_urdf_world_meshes_as_trimesh():
    """A world-fixed link's mesh as a triangle mesh (issue 25): a ball dropped into the cup
    of tests/fixtures/open_box.urdf rests on its inner bottom (z = 0.1 + r) with the option,
    on its hull's top (z = 0.35 + r) without it."""
    cup = os.path.join(ROOT, "tests", "fixtures", "open_box.urdf")
    for as_trimesh, rest in ((True, 0.15), (False, 0.40)):
        b, _ = maxdyn.Builder.from_urdf_with(cup, collision=True, world_meshes_as_trimesh=as_trimesh)
        with b:
            ball = b.add_body(1.0, [1e-3, 0, 0, 0, 1e-3, 0, 0, 0, 1e-3])
            b.set_body_pose(ball, [0.23, 0.01, rest + 0.02], [1, 0, 0, 0])
            b.add_shape(ball, maxdyn.SHAPE_SPHERE, [0.05])
            sim = maxdyn.Sim(maxdyn.Model(b), 0.01)
        sim.step(200)
        assert abs(sim.body_state(ball)[2] - rest) < 1e-12, (as_trimesh, sim.body_state(ball)[2])


def test_urdf_srdf_and_inertia_bounds():
    """Issue 25 items 4 and 7 from Python: bound_inertia loads a link with a negative
    principal moment (a warning names it); an SRDF, as text or file, excludes its pairs
    (an unknown link is a warning); bad bounds and both SRDF sources are refused."""
    # no pytest fixture: the valgrind driver (tests/valgrind_bindings.rs) calls tests bare
    tmp_path = pathlib.Path(tempfile.mkdtemp())
    urdf = tmp_path / "trio.urdf"
    urdf.write_text(TRIO_URDF)
    expect_status(101, ["link `a`: inertia has a negative principal moment"], lambda: maxdyn.Builder.from_urdf_with(urdf))
    expect_status(12, ["`options.bound_inertia`"], lambda: maxdyn.Builder.from_urdf_with(urdf, bound_inertia=-1.0))
    srdf = '<robot name="trio"><disable_collisions link1="a" link2="c"/><disable_collisions link1="c" link2="tool"/></robot>'
    (tmp_path / "trio.srdf").write_text(srdf)
    opts = dict(bound_inertia=1e-3, collision=True, self_collision=True)
    plain, warnings = maxdyn.Builder.from_urdf_with(urdf, **opts)
    assert warnings == ["link `a`: principal moment(s) -1.000e-8 kg·m² raised to 1e-3 (bound_inertia)"], warnings
    assert maxdyn.Model(plain).shapes_may_collide(0, 2)
    for source in (dict(srdf=srdf), dict(srdf_path=tmp_path / "trio.srdf")):
        robot, warnings = maxdyn.Builder.from_urdf_with(urdf, **opts, **source)
        assert not maxdyn.Model(robot).shapes_may_collide(0, 2), source
        assert "SRDF <disable_collisions> naming link(s) not in the model, ignored: `tool` (line 1)" in warnings[-1], warnings
        robot.close()
    expect_status(12, ["`options.srdf_path`"], lambda: maxdyn.Builder.from_urdf_with(urdf, srdf=srdf, srdf_path=tmp_path / "trio.srdf"))
    expect_status(101, ["missing attribute `link2`"], lambda: maxdyn.Builder.from_urdf_with(urdf, **opts, srdf='<robot><disable_collisions link1="a"/></robot>'))
    plain.close()


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
    assert np.array_equal(sim.state(), first) and np.array_equal(twin.state(), first)
    jac = sim.point_jacobian(b2, [0, 0, -1], maxdyn.Sim.AXES_WORLD, maxdyn.Sim.COORDS_MINIMAL)
    assert jac.shape == (6, 2)
    assert sim.point_jacobian(b1, coords=maxdyn.Sim.COORDS_MAXIMAL).shape == (6, 12)
    m = sim.mass_matrix()
    assert m.shape == (2, 2) and abs(m[0, 1] - m[1, 0]) < 1e-14
    qd, qdd = [0.3, -0.2], [1.0, 0.5]
    b = sim.bias_forces(qd)
    tau = sim.inverse_dynamics(qd, qdd)
    assert np.abs(m @ qdd + b - tau).max() < 1e-12 * max(1.0, np.abs(tau).max())
    assert sim.minimal_velocities().shape == (2,)
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


def test_shape_contact_reports():
    """A box on a world plane: four points at its lower corners carry m g (issue 12)."""
    with maxdyn.Builder() as b:
        body = b.add_body(2.0, [2 * (0.1**2 + 0.05**2) / 3, 0, 0, 0, 2 * (0.2**2 + 0.05**2) / 3, 0, 0, 0, 2 * (0.2**2 + 0.1**2) / 3])
        b.set_body_pose(body, [0, 0, 0.05], [1, 0, 0, 0])
        box = b.add_shape(body, maxdyn.SHAPE_BOX, [0.2, 0.1, 0.05])
        floor = b.add_shape(maxdyn.WORLD, maxdyn.SHAPE_PLANE)
        model = maxdyn.Model(b)
    sim = maxdyn.Sim(model, 0.01)
    assert sim.count_shape_contacts() == 0 and sim.shape_contacts() == []
    sim.step(20)
    contacts = sim.shape_contacts()
    assert len(contacts) == sim.count_shape_contacts() == 4
    assert abs(sum(c.normal_force for c in contacts) - 2.0 * 9.81) < 1e-9
    for c in contacts:
        assert (c.shape_a, c.shape_b, c.body_a, c.body_b) == (box, floor, body, maxdyn.WORLD)
        assert list(c.normal) == [0.0, 0.0, 1.0] and abs(c.point[2]) < 1e-9


def test_contact_capacity_fixes_the_state_size():
    """The state's size is the model's: 64 contact slots by default for one box, the same
    before and after it lands; a capacity of 3 refuses the landing with status 209."""
    def box_model(capacity=None):
        with maxdyn.Builder() as b:
            body = b.add_body(1.0, [0.0067, 0, 0, 0, 0.0067, 0, 0, 0, 0.0067])
            b.set_body_pose(body, [0, 0, 0.1], [1, 0, 0, 0])
            b.add_shape(body, maxdyn.SHAPE_BOX, [0.1, 0.1, 0.1])
            b.add_shape(maxdyn.WORLD, maxdyn.SHAPE_PLANE)
            if capacity is not None:
                b.set_contact_capacity(capacity)
            return maxdyn.Model(b)
    model = box_model()
    assert model.contact_capacity == 64
    sim = maxdyn.Sim(model, 0.01)
    before = sim.state()
    sim.step(5)
    assert sim.contact_slots() == 4 and len(sim.state()) == len(before) == 65 + 64 * 35
    sim.set_state(before)
    tight = maxdyn.Sim(box_model(3), 0.01)
    expect_status(209, ["maxdyn_sim_step", "4 contact slots", "capacity of 3"], tight.step)
    assert tight.step_count == 0


def test_a_violated_start_is_refused_and_assembled():
    # the builder leaves the bodies at the origin: the sim places them by the joint tree
    model, (b1, b2), (j1, j2) = double_pendulum()
    sim = maxdyn.Sim(model, 0.01)
    assert sim.joint_violation() == (None, 0.0)
    assert abs(sim.body_state(b2)[2] + 2.0) < 1e-15
    state = sim.body_state(b2)
    state[1] += 0.25
    sim.set_body_state(b2, state)
    assert sim.joint_violation() == (j2, 0.25)
    expect_status(205, ["maxdyn_sim_step", "joint 1", "assemble"], sim.step)
    assert sim.step_count == 0
    assert sim.assemble() == 0.25
    joint, violation = sim.joint_violation()
    assert violation < 1e-15, violation
    sim.step()
    assert max(abs(v) for v in sim.body_state(b2)[7:13]) < 1e-12

"""The pip package's API: numpy arrays in and out, whole-state arrays, step(n) in C,
the control callback, getters and options, errors (run by tests/python_package.rs in a
venv with the package installed; also runs from a checkout)."""

import os

import numpy as np
import pytest

import maxdyn


def pendulum(dt=0.01):
    """A 1 kg pendulum on a 1 m revolute about x, and a free box beside it."""
    with maxdyn.Builder() as b:
        link = b.add_body(1.0, np.eye(3) / 600)
        joint = b.add_joint(maxdyn.REVOLUTE, maxdyn.WORLD, link, [0, 0, 0], [0, 0, 1], [1, 0, 0])
        b.add_body(2.0, [0.02, 0, 0, 0, 0.02, 0, 0, 0, 0.02])
        b.set_body_pose(1, np.array([3.0, 0, 1]), [1, 0, 0, 0])
        b.set_joint_limits(joint, [-2.0], [2.0])
        model = maxdyn.Model(b)
    sim = maxdyn.Sim(model, dt)
    sim.set_joint_position(joint, np.array([1.0]))
    return model, sim, link, joint


def test_the_library_is_the_expected_one():
    expected = os.environ.get("MAXDYN_EXPECT_LIBRARY_IN")
    if expected == "package":  # installed by pip: the wheel's own copy
        assert os.path.dirname(maxdyn.MAXDYN_LIBRARY_PATH) == os.path.dirname(maxdyn.__file__)
    assert maxdyn.version().count(".") == 2


def test_arrays_out_have_shapes_and_dtype():
    model, sim, link, joint = pendulum()
    state = sim.body_state(link)
    assert isinstance(state, np.ndarray) and state.dtype == np.float64 and state.shape == (13,)
    states = sim.body_states()
    assert states.shape == (2, 13)
    assert np.array_equal(states[0], state) and np.array_equal(states[1], sim.body_state(1))
    assert sim.joint_position(joint).shape == (1,) and sim.joint_velocity(joint).shape == (1,)
    assert model.body_inertia(link).shape == (3, 3)


def test_set_body_states_round_trip_and_wrong_size():
    _, sim, _, _ = pendulum()
    states = sim.body_states()
    moved = states.copy()
    moved[1, 0] += 0.5
    sim.set_body_states(moved)
    assert np.array_equal(sim.body_states(), moved)
    with pytest.raises(ValueError, match="states needs 2 x 13"):
        sim.set_body_states(states[:1])


def test_step_n_is_the_same_as_n_single_steps():
    _, a, _, _ = pendulum()
    _, b, _, _ = pendulum()
    a.step(250)
    for _ in range(250):
        b.step()
    assert np.array_equal(a.body_states(), b.body_states())  # bit-identical
    assert a.step_count == b.step_count == 250
    assert a.dt == 0.01
    assert abs(a.time - 2.5) < 1e-12


def test_control_callback_equals_the_python_loop():
    kp, kd, target = 20.0, 2.0, 0.3
    _, looped, _, j = pendulum()
    for _ in range(200):
        th, om = looped.joint_position(j)[0], looped.joint_velocity(j)[0]
        looped.set_joint_input(j, [kp * (target - th) - kd * om])
        looped.step()
    _, called, _, j = pendulum()
    calls = []

    def pd(sim):
        calls.append(sim.step_count)
        th, om = sim.joint_position(j)[0], sim.joint_velocity(j)[0]
        sim.set_joint_input(j, [kp * (target - th) - kd * om])

    called.set_control_callback(pd)
    called.step(200)
    assert calls == list(range(200))
    assert np.array_equal(called.body_states(), looped.body_states())
    called.set_control_callback(None)
    called.step(1)
    assert len(calls) == 200


def test_a_raising_callback_aborts_the_step_and_raises():
    _, sim, _, _ = pendulum()

    def bad(sim):
        if sim.step_count == 3:
            raise KeyError("stop here")

    sim.set_control_callback(bad)
    with pytest.raises(KeyError, match="stop here"):
        sim.step(10)
    assert sim.step_count == 3  # the aborted step left the state at step 3
    with pytest.raises(TypeError, match="control must be callable"):
        sim.set_control_callback(42)


def test_getters_and_options():
    _, sim, _, _ = pendulum()
    assert sim.limit_count == 1
    limit = sim.limit(0)
    assert limit.shape == (5,) and limit[1] == -2.0 and limit[2] == 2.0
    assert abs(limit[0] - 1.0) < 1e-12
    assert sim.limit_violation() == 0.0 and sim.mimic_violation() == 0.0
    sim.options = maxdyn.SolverOptions(tolerance=1e-11, max_iterations=50, acceptance=1e-9)
    assert (sim.options.tolerance, sim.options.max_iterations, sim.options.acceptance) == (1e-11, 50, 1e-9)
    # the deprecated spellings still work, and warn
    with pytest.warns(DeprecationWarning, match="Sim.options"):
        sim.set_solver_options(1e-10, 40, 1e-8)
    with pytest.warns(DeprecationWarning, match="Sim.options"):
        assert sim.solver_options() == (1e-10, 40, 1e-8)
    with pytest.warns(DeprecationWarning, match="count_shape_contacts"):
        assert sim.shape_contact_count == sim.count_shape_contacts() == 0
    sim.options = maxdyn.SolverOptions(max_splits=1, contact_margin=0.1)
    assert sim.options.max_splits == 1 and sim.contact_margin == 0.1
    sim.contact_tolerance = 1e-7
    assert sim.contact_tolerance == 1e-7


def test_wrong_types_raise_type_error_naming_the_argument():
    model, sim, link, joint = pendulum()
    cases = [
        (lambda: sim.body_state("0"), "body"),
        (lambda: sim.body_state(0.0), "body"),
        (lambda: sim.joint_position(True), "joint"),
        (lambda: sim.set_joint_position(joint, ["a"]), "values"),
        (lambda: sim.step(2.5), "n"),
        (lambda: model.find_body(3), "name"),
        (lambda: maxdyn.Sim(model, "0.01"), "dt"),
        (lambda: sim.set_body_force(link, "abc"), "force"),
    ]
    for call, name in cases:
        with pytest.raises(TypeError, match=f"^{name} must be"):
            call()
    assert sim.body_state(np.int64(0)).shape == (13,)  # numpy ints are ids


def test_errors_carry_status_and_message():
    _, sim, _, _ = pendulum()
    with pytest.raises(maxdyn.MaxdynError) as e:
        sim.body_state(7)
    assert e.value.status == 2  # MAXDYN_STATUS_UNKNOWN_BODY
    assert "body" in e.value.message
    with pytest.raises(ValueError):
        sim.step(-1)


def test_free_fall_in_c_matches_the_discrete_formula():
    # a body without joints is free; the integrator's discrete free fall from rest is
    # z_n = z_0 - g dt^2 n (n - 1) / 2 (measured |difference| 9e-15 m at n = 100)
    _, sim, _, _ = pendulum()
    n, dt, g = 100, 0.01, 9.81
    sim.step(n)
    assert abs(sim.body_state(1)[2] - (1.0 - g * dt * dt * n * (n - 1) / 2)) < 1e-12
    assert sim.constraint_violation() < 1e-9


URDF = """<robot name="r">
  <link name="base"/>
  <link name="arm"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="hinge" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="1 0 0"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"""


def test_urdf_text_gravity_and_universal_joint():
    with maxdyn.Builder.from_urdf_string(URDF) as b:
        assert b.body_count == 1 and b.joint_count == 1 and b.find_joint("hinge") == 0
        assert b.gravity.tolist() == [0.0, 0.0, -9.81]
        assert maxdyn.Model(b).limit_count == 1
    with maxdyn.Builder() as u:
        a = u.add_body(1.0, np.eye(3) * 0.01)
        c = u.add_body(1.0, np.eye(3) * 0.01)
        u.set_body_pose(c, [0, 0, -1], [1, 0, 0, 0])
        j = u.add_universal_joint(a, c, [0, 0, -0.5], [0, 0, 0.5], [1, 0, 0], [0, 1, 0])
        assert maxdyn.Model(u).joint_dof(j) == 2
    with pytest.raises(TypeError, match="^xml must be"):
        maxdyn.Builder.from_urdf_string(b"<robot/>")

"""Floating-base minimal coordinates against Pinocchio (issue 26): the A1 quadruped of
example-robot-data loaded floating in both (maxdyn: its trunk a free body; Pinocchio: a
JointModelFreeFlyer root), compared at random states on what both define (joints and
frames by name): nq 19, nv 18; the mass matrix equal to Pinocchio's CRBA, a foot frame's
Jacobian equal to getFrameJacobian (LOCAL and LOCAL_WORLD_ALIGNED), bias forces equal to
nonLinearEffects and inverse dynamics equal to RNEA. maxdyn's quaternion is (w, x, y, z),
Pinocchio's (x, y, z, w): converted here. Also the whole-state vectors from Python."""

import os
import sys

import numpy as np

try:
    import maxdyn
except ImportError:  # run from a checkout
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
    import maxdyn  # noqa: E402

try:
    import pinocchio as pin
except ImportError:  # the venv of tests/setup.sh has it (PyPI `pin`)
    pin = None

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
A1 = os.path.join(ROOT, "target", "corpus", "example-robot-data-6.0.0", "cmeel.prefix", "share",
                  "example-robot-data", "robots", "a1_description", "urdf", "a1.urdf")
FOOT = "FR_foot"


def load_maxdyn():
    """The A1 floating: (sim, model)."""
    assert os.path.exists(A1), f"no {A1}: run `bash tests/setup.sh` (it unpacks example-robot-data 6.0.0)"
    b, _ = maxdyn.Builder.from_urdf_with(A1, floating=True, joint_limits=False)
    model = maxdyn.Model(b)
    return maxdyn.Sim(model, 1e-3), model


def load():
    """(maxdyn sim, Pinocchio model and data, maxdyn v index -> Pinocchio v index)."""
    assert pin is not None, ("this test needs Pinocchio (PyPI `pin`): run `bash tests/setup.sh`, "
                             "which installs it into target/python-venv")
    sim, model = load_maxdyn()
    pm = pin.buildModelFromUrdf(A1, pin.JointModelFreeFlyer())
    # the base first in both; then the joints by name (each has one coordinate)
    perm = list(range(6))
    for j in range(model.joint_count):
        pj = pm.getJointId(model.joint_name(j))
        assert pm.joints[pj].nv == 1 and model.joint_dof(j) == 1
        perm.append(pm.joints[pj].idx_v)
    return sim, model, pm, pm.createData(), np.array(perm)


def random_state(rng, pm, perm):
    """A random Pinocchio q (base anywhere, any orientation; joints in [-1.5, 1.5]), v, a
    and the same q for maxdyn (quaternion reordered, joints permuted)."""
    q = np.zeros(pm.nq)
    q[:3] = rng.uniform(-1, 1, 3)
    quat = rng.normal(size=4)
    q[3:7] = quat / np.linalg.norm(quat)  # x, y, z, w
    q[7:] = rng.uniform(-1.5, 1.5, pm.nq - 7)
    v, a = rng.uniform(-2, 2, pm.nv), rng.uniform(-3, 3, pm.nv)
    qm = np.concatenate([q[:3], [q[6], q[3], q[4], q[5]], q[7:][perm[6:] - 6]])
    return q, v, a, qm


def rel(x, y):
    return np.max(np.abs(x - y)) / np.max(np.abs(y))


def test_a1_floating_matches_pinocchio_free_flyer():
    """Measured over 20 random states (largest difference over the largest entry): mass
    matrix 5.2e-16 (bar 1e-10), the foot's frame Jacobian 1.4e-15 (bar 1e-10), bias forces
    9.9e-16 and inverse dynamics 8.1e-16 (asserted 1e-12)."""
    sim, model, pm, pd, perm = load()
    assert (model.nq, model.nv, model.nu) == (19, 18, 12) == (pm.nq, pm.nv, 12)
    assert sim.dimensions() == (19, 18, 12)
    frame = model.find_frame(FOOT)
    fid = pm.getFrameId(FOOT)
    rng = np.random.default_rng(26)
    worst = dict(M=0.0, J=0.0, b=0.0, tau=0.0)
    for _ in range(20):
        q, v, a, qm = random_state(rng, pm, perm)
        sim.set_configuration(qm)
        assert np.max(np.abs(sim.configuration() - qm)) < 1e-12
        M = pin.crba(pm, pd, q)
        M = np.triu(M) + np.triu(M, 1).T
        worst["M"] = max(worst["M"], rel(sim.mass_matrix(), M[np.ix_(perm, perm)]))
        pin.computeJointJacobians(pm, pd, q)
        pin.updateFramePlacements(pm, pd)
        for axes, ref in [(sim.AXES_LOCAL, pin.LOCAL), (sim.AXES_WORLD, pin.LOCAL_WORLD_ALIGNED)]:
            J = pin.getFrameJacobian(pm, pd, fid, ref)
            worst["J"] = max(worst["J"], rel(sim.frame_jacobian(frame, axes, "minimal"), J[:, perm]))
        vm, am = v[perm], a[perm]
        worst["b"] = max(worst["b"], rel(sim.bias_forces(vm), pin.nonLinearEffects(pm, pd, q, v)[perm]))
        worst["tau"] = max(worst["tau"], rel(sim.inverse_dynamics(vm, am), pin.rnea(pm, pd, q, v, a)[perm]))
    print("worst relative differences to Pinocchio:", {k: f"{e:.1e}" for k, e in worst.items()})
    assert worst["M"] < 1e-10 and worst["J"] < 1e-10, worst
    assert worst["b"] < 1e-12 and worst["tau"] < 1e-12, worst


def test_whole_state_vectors_from_python():
    """q, v and u in one call each, numpy in and out; the base frame where q puts it; bad
    input refused with nothing changed; linearize('minimal') is 36 x 36 and 36 x 12."""
    sim, model = load_maxdyn()
    rng = np.random.default_rng(3)
    quat = rng.normal(size=4)
    q = np.concatenate([[0.2, -0.1, 1.0], quat / np.linalg.norm(quat), rng.uniform(-1.5, 1.5, 12)])
    v = rng.uniform(-1, 1, 18)
    sim.set_configuration(q)
    sim.set_generalized_velocity(v)
    assert isinstance(sim.configuration(), np.ndarray) and sim.configuration().shape == (19,)
    assert np.max(np.abs(sim.configuration() - q)) < 1e-12
    assert np.max(np.abs(sim.generalized_velocity() - v)) < 1e-9
    trunk = sim.frame_pose(model.find_frame("trunk"))
    assert np.max(np.abs(trunk - q[:7])) < 1e-12
    u = np.linspace(-1, 1, 12)
    sim.set_joint_inputs(u)
    assert np.array_equal(sim.joint_inputs(), u)
    before = sim.state()
    bad = q.copy()
    bad[3:7] *= 1.1
    for call, arg in [(sim.set_configuration, bad), (sim.set_configuration, np.full(19, np.nan)),
                      (sim.set_generalized_velocity, np.full(18, np.inf)), (sim.set_joint_inputs, [np.nan] * 12)]:
        try:
            call(arg)
        except maxdyn.MaxdynError:
            pass
        else:
            raise AssertionError(f"{call.__name__} accepted {arg}")
    try:
        sim.set_configuration(q[:18])
    except ValueError:
        pass
    else:
        raise AssertionError("a short q was accepted")
    assert np.array_equal(sim.state(), before), "a refused call changed the state"
    A, B = sim.linearize("minimal")
    assert A.shape == (36, 36) and B.shape == (36, 12)
    sim.step()
    assert np.max(np.abs(sim.configuration()[7:] - q[7:])) < 0.01, "one step moves the legs a little"

"""The paper's walking quadruped (Unitree A1 on four rigid point contacts, friction 0.2,
dt 1 ms) under its PD gait controller, for maxdyn.RolloutWorker and maxdyn.distributed:
the same model, standing start and controller as the Rust scene
(scenes/src/quadruped.rs), vectorized across rollouts.

Five gait parameters (b, a_thigh, d_thigh, a_calf, d_calf): every leg's thigh and calf
track theta = a cos(20 pi b t + phase) + d (phases 0 and -pi/2 for FR and RL, pi and
pi/2 for FL and RR; hips at 0) with PD gains (100, 80, 60) and (5, 4, 3). The paper's
learned trot (the project's run, seed 1) walks 19.2 m in 10 s.

    from a1_trot import a1_model, GaitPolicy, standing_states, distance, fallen, LEARNED
    worker = maxdyn.RolloutWorker(a1_model(), DT)
    r = worker.run(standing_states(worker.model, [LEARNED]), [LEARNED], GaitPolicy(), 10_000,
                   stop=fallen, reward=distance)
"""

from __future__ import annotations

import math
import os
from typing import Sequence

import numpy as np

import maxdyn

DT = 0.001
FRICTION = 0.2
FOOT = (0.0, 0.0, -0.1)  # contact point in each calf's body frame
KP = (100.0, 80.0, 60.0)  # hip, thigh, calf
KD = (5.0, 4.0, 3.0)
LEGS = ("FR", "FL", "RR", "RL")
FALLEN = 0.1  # a trunk centre of mass below this has fallen
TRUNK = 0  # the trunk's body id (the URDF's root link; standing_state checks it)
START = (0.1, 0.0, 1.0, 0.0, -1.5)  # the standing pose the paper's learning starts from
LEARNED = (0.7927, -0.0452, 0.7746, -0.6673, -1.0429)  # scenes/src/quadruped.rs LEARNED_SEED1
LEARNED_DISTANCE_10_S = 19.21  # m, docs/RESULTS.md (tests/long_horizon.rs)
URDF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tests", "fixtures",
                    "a1_cd_paper_quadruped_simple.urdf")


def a1_model(urdf_path: str = URDF) -> maxdyn.UrdfModel:
    """The A1 as picklable data: the URDF's text, floating, without its joint limits (as
    the scene), and a ground contact at each calf's foot point."""
    with open(urdf_path) as f:
        text = f.read()
    feet = tuple((f"{leg}_calf", FOOT, 0.0, FRICTION) for leg in LEGS)
    return maxdyn.UrdfModel(text, {"floating": True, "joint_limits": False}, feet)


def a1_servo_model(urdf_path: str = URDF) -> maxdyn.UrdfModel:
    """`a1_model` with the gait's PD gains as servos on the leg joints (a spring and a
    damper each), for `GaitTargets`: the step integrates their damping implicitly."""
    m = a1_model(urdf_path)
    servos = {f"{leg}_{part}_joint": (KP[k], KD[k]) for leg in LEGS for k, part in enumerate(("hip", "thigh", "calf"))}
    return maxdyn.UrdfModel(m.urdf, m.options, m.ground_contacts, servos)


def _joints(model: maxdyn.Model) -> np.ndarray:
    """joints[leg, part]: ids of (hip, thigh, calf) of each leg."""
    return np.array([[model.find_joint(f"{leg}_{part}_joint") for part in ("hip", "thigh", "calf")] for leg in LEGS])


def targets(params: np.ndarray, t: float) -> np.ndarray:
    """(m, 4, 2) thigh and calf targets of every leg at time t, per row of params (m, 5);
    cos from math, element by element, as the Rust scene (f64::cos) and so that a row
    never depends on the others."""
    b, a_thigh, d_thigh, a_calf, d_calf = (params[:, i] for i in range(5))
    w = [20.0 * math.pi * float(bi) * t for bi in b]
    out = np.empty((len(w), 4, 2))
    for leg in range(4):
        ph_thigh, ph_calf = (0.0, -math.pi / 2.0) if leg in (0, 3) else (math.pi, math.pi / 2.0)
        out[:, leg, 0] = a_thigh * np.array([math.cos(x + ph_thigh) for x in w]) + d_thigh
        out[:, leg, 1] = a_calf * np.array([math.cos(x + ph_calf) for x in w]) + d_calf
    return out


class GaitPolicy:
    """The gait's PD controller: bind(model) looks the leg joints up once per run."""

    def bind(self, model: maxdyn.Model) -> "_BoundGait":
        return _BoundGait(model)


class _BoundGait:
    def __init__(self, model: maxdyn.Model) -> None:
        nq, nv, nu = model.dimensions()
        dofs = [model.joint_dof(j) for j in range(model.joint_count)]
        if nu != sum(dofs) or any(d != 1 for d in dofs):
            raise ValueError("the gait drives one-dof joints only")
        joints = _joints(model)
        # every joint has one coordinate and one rate: after the base's 7 and 6
        self.iq, self.iv, self.iu = nq - nu + joints, nv - nu + joints, joints
        self.nu = nu

    def __call__(self, params: np.ndarray, obs: maxdyn.Observation) -> np.ndarray:
        tg = targets(params, obs.t)
        u = np.zeros((params.shape[0], self.nu))
        for part in range(3):
            target = 0.0 if part == 0 else tg[:, :, part - 1]
            th, om = obs.q[:, self.iq[:, part]], obs.v[:, self.iv[:, part]]
            u[:, self.iu[:, part]] = KP[part] * (target - th) - KD[part] * om
        return u


class GaitTargets:
    """The gait as servo targets (run with action="targets" on `a1_servo_model`): each leg
    joint's target for the time the step ends (hips at 0)."""

    def bind(self, model: maxdyn.Model) -> "_BoundTargets":
        return _BoundTargets(model)


class _BoundTargets:
    def __init__(self, model: maxdyn.Model) -> None:
        self.iu, self.nu = _joints(model), model.dimensions()[2]

    def __call__(self, params: np.ndarray, obs: maxdyn.Observation) -> np.ndarray:
        tg = targets(params, obs.t + DT)
        p = np.zeros((params.shape[0], self.nu))
        for part in (1, 2):
            p[:, self.iu[:, part]] = tg[:, :, part - 1]
        return p


def distance(first: maxdyn.Observation, last: maxdyn.Observation) -> np.ndarray:
    """Reward: the trunk's centre of mass moved along x (forward), m."""
    return last.bodies[:, TRUNK, 0] - first.bodies[:, TRUNK, 0]


def fallen(obs: maxdyn.Observation) -> np.ndarray:
    """Stop: the trunk's centre of mass below FALLEN."""
    return obs.bodies[:, TRUNK, 2] < FALLEN


def standing_state(model: maxdyn.Model, gait: Sequence[float], clearance: float = 0.0) -> np.ndarray:
    """The exact sim state (Sim.state()) of the robot standing at the gait's t = 0
    targets, at rest, trunk at the origin of x and y, lowest foot `clearance` above the
    ground (the scene's Quadruped::standing)."""
    if model.find_body("trunk") != TRUNK:
        raise ValueError("the trunk is not body 0 of this model")
    sim = maxdyn.Sim(model, DT)
    joints = _joints(model)
    tg = targets(np.asarray([gait], dtype=np.float64), 0.0)[0]
    for leg in range(4):
        sim.set_joint_position(int(joints[leg, 0]), [0.0])
        sim.set_joint_position(int(joints[leg, 1]), [tg[leg, 0]])
        sim.set_joint_position(int(joints[leg, 2]), [tg[leg, 1]])
    lowest = min(sim.contact(c)[0] for c in range(4))
    x0 = sim.body_state(TRUNK)
    for i in range(model.body_count):
        s = sim.body_state(i)
        s[0] -= x0[0]
        s[1] -= x0[1]
        s[2] += clearance - lowest
        sim.set_body_state(i, s)
    state = sim.state()
    sim.close()
    return state


def standing_states(model: maxdyn.Model, gaits: Sequence[Sequence[float]]) -> np.ndarray:
    """standing_state of every gait, one row each."""
    return np.array([standing_state(model, g) for g in gaits])

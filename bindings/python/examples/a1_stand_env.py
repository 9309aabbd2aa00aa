"""A Gymnasium environment: the A1 quadruped of example-robot-data standing up and staying up.

A reinforcement-learning user trains on it with any agent library that speaks the
Gymnasium API, for example Stable-Baselines3:

    from stable_baselines3 import PPO
    model = PPO("MlpPolicy", A1StandEnv(urdf), verbose=1).learn(200_000)

Simulation: the A1 from its URDF, floating, with its collision shapes, a ground plane and
its joint limits, at dt 0.005 s; the policy acts at 50 Hz (4 steps per action).

- Action (12, in [-1, 1]): joint position targets, ±0.5 rad about the standing pose
  (0, 0.9, -1.8 per leg), held by a PD servo on each joint (kp 40 N m/rad, kd 1 N m s/rad:
  a joint spring and damper whose targets the action moves, `Sim.set_joint_targets`; the
  step integrates the damping implicitly, and no Python runs between an action's steps).
- Observation (35): the whole state in minimal coordinates without the base's x and y:
  base height, base quaternion (w, x, y, z), 12 joint angles, then the base's twist in its
  own axes (6) and 12 joint rates (maxdyn's floating-base convention, docs/QUERIES.md).
- Reward per action: 1 for staying up, minus the base height's distance from 0.27 m
  (times 10), minus 0.01 times the squared action.
- Terminated when the base falls below 0.15 m or tilts past 60 degrees, or when a step
  fails (its status in info["status"]); truncated after `max_actions` actions.

Run `python a1_stand_env.py PATH/TO/a1.urdf` for a rollout of the standing pose.
"""

from __future__ import annotations

import sys
from typing import Any, Dict, Optional, Tuple

import gymnasium as gym
import numpy as np

import maxdyn

STAND = np.array([0.0, 0.9, -1.8] * 4)
KP, KD = 40.0, 1.0
DT, STEPS_PER_ACTION = 0.005, 4
TARGET_HEIGHT = 0.27
FEET = ("FR_foot", "FL_foot", "RR_foot", "RL_foot")


class A1StandEnv(gym.Env):
    """The A1 standing (see the module's docstring)."""

    metadata = {"render_modes": []}

    def __init__(self, urdf: str, max_actions: int = 500) -> None:
        builder, _ = maxdyn.Builder.from_urdf_with(urdf, floating=True, collision=True, ground_plane=True)
        for leg in ("FR", "FL", "RR", "RL"):  # a PD servo on every leg joint
            for part, stand in zip(("hip", "thigh", "calf"), STAND[:3]):
                j = builder.find_joint(f"{leg}_{part}_joint")
                builder.set_joint_spring(j, [KP], [stand])
                builder.set_joint_damper(j, [KD])
        self.model = maxdyn.Model(builder)
        self.max_actions = max_actions
        self.action_space = gym.spaces.Box(-1.0, 1.0, shape=(12,), dtype=np.float64)
        self.observation_space = gym.spaces.Box(-np.inf, np.inf, shape=(35,), dtype=np.float64)
        self._feet = [self.model.find_frame(name) for name in FEET]
        self.sim: Optional[maxdyn.Sim] = None
        self._actions = 0

    def _observe(self) -> np.ndarray:
        q, v = self.sim.configuration(), self.sim.generalized_velocity()
        return np.concatenate([q[2:], v])

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[np.ndarray, Dict[str, Any]]:
        """The standing pose with joints perturbed by up to ±0.1 rad, feet 5 mm above the ground."""
        super().reset(seed=seed)
        self.sim = maxdyn.Sim(self.model, DT)
        q = self.sim.configuration()
        q[7:] = STAND + self.np_random.uniform(-0.1, 0.1, 12)
        q[2] = 1.0
        self.sim.set_configuration(q)
        lowest = min(self.sim.frame_pose(f)[2] for f in self._feet)
        q[2] += 0.02 + 0.005 - lowest  # the foot spheres' radius, and a clearance
        self.sim.set_configuration(q)
        self._actions = 0
        return self._observe(), {}

    def step(self, action: np.ndarray) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        """Holds the targets of `action` for 4 simulation steps (one call into the library)."""
        action = np.clip(np.asarray(action, dtype=np.float64), -1.0, 1.0)
        self.sim.set_joint_targets(STAND + 0.5 * action)
        info: Dict[str, Any] = {}
        terminated = False
        try:
            self.sim.step(STEPS_PER_ACTION)
        except maxdyn.MaxdynError as e:  # the state stays at the last good step
            info["status"], terminated = e.status, True
        self._actions += 1
        q = self.sim.configuration()
        height, (w, x, y, _) = q[2], q[3:7]
        # the base's z axis against the world's: cos of the tilt
        upright = 1.0 - 2.0 * (x * x + y * y)
        fallen = height < 0.15 or upright < 0.5
        reward = 1.0 - 10.0 * abs(height - TARGET_HEIGHT) - 0.01 * float(action @ action)
        truncated = self._actions >= self.max_actions
        return self._observe(), reward, terminated or fallen, truncated, info


if __name__ == "__main__":
    env = A1StandEnv(sys.argv[1])
    obs, _ = env.reset(seed=0)
    total = 0.0
    for k in range(100):
        obs, reward, terminated, truncated, info = env.step(np.zeros(12))
        total += reward
        if terminated or truncated:
            break
    print(f"{k + 1} actions (2 s at 50 Hz), return {total:.2f}, base height {obs[0]:.3f} m, status {info.get('status', 0)}")

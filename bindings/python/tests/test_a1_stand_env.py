"""The Gymnasium environment example (examples/a1_stand_env.py): it passes Gymnasium's own
environment checker, the A1 holds its standing pose for 2 s with zero actions on its PD
servos at dt 0.005 (base height measured 0.2426 m; 0.2424 m with the explicit PD of the
same gains at dt 0.002), and random policies run through whole episodes, a failed step
ending an episode with its status rather than raising."""

import os
import sys

import numpy as np

try:
    import maxdyn  # noqa: F401
except ImportError:  # run from a checkout
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import gymnasium  # the venv of tests/setup.sh has it
from gymnasium.utils.env_checker import check_env

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples"))
from a1_stand_env import A1StandEnv  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
A1 = os.path.join(ROOT, "target", "corpus", "example-robot-data-6.0.0", "cmeel.prefix", "share",
                  "example-robot-data", "robots", "a1_description", "urdf", "a1.urdf")


def env(**kwargs) -> A1StandEnv:
    assert os.path.exists(A1), f"no {A1}: run `bash tests/setup.sh` (it unpacks example-robot-data 6.0.0)"
    return A1StandEnv(A1, **kwargs)


def test_the_environment_passes_gymnasiums_checker():
    assert gymnasium.__version__
    check_env(env(), skip_render_check=True)


def test_zero_actions_hold_the_stand_for_2_s():
    e = env()
    obs, _ = e.reset(seed=0)
    assert obs.shape == (35,)
    for _ in range(100):
        obs, reward, terminated, truncated, info = e.step(np.zeros(12))
        assert not (terminated or truncated), info
    assert abs(obs[0] - 0.2426) < 1e-3, obs[0]
    assert reward > 0.6, reward


def test_random_policies_finish_their_episodes():
    e = env(max_actions=50)
    rng = np.random.default_rng(1)
    for episode in range(3):
        e.reset(seed=episode)
        for _ in range(50):
            _, reward, terminated, truncated, info = e.step(rng.uniform(-1, 1, 12))
            assert np.isfinite(reward)
            if terminated or truncated:
                break
        assert truncated or terminated

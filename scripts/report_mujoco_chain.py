"""MuJoCo's side of the report's B2 figures: the SCENARIOS B2 sphere chain on the
ground (n spheres r = 0.25 m, 1 kg, centres 1 m apart, ball joints, the first body
free, the chain rising at 45°, friction 1.0, dt 0.01, 500 steps) with MuJoCo's default
contacts. Prints one JSON line per n: deepest penetration (m), CPU µs per step, and
whether MuJoCo found the simulation unstable (and reset it). Run by examples/report with the peer venv's python:
target/peer-venv/bin/python scripts/report_mujoco_chain.py [--quick]
"""
import json
import math
import sys
import time

import mujoco

R = 0.25


def xml(n):
    # body −z (toward the next sphere) turned up to 45° above the ground: 3π/4 about x
    a = 3 * math.pi / 4
    quat = f"{math.cos(a / 2)} {math.sin(a / 2)} 0 0"
    inner = ""
    for i in reversed(range(1, n)):
        inner = f'<body pos="0 0 -1"><joint type="ball" pos="0 0 0.5"/><geom type="sphere" size="{R}" mass="1"/>{inner}</body>'
    return f"""
<mujoco>
  <option timestep="0.01" gravity="0 0 -9.81"/>
  <default><geom friction="1 0.005 0.0001" contype="1" conaffinity="0"/></default>
  <worldbody>
    <geom type="plane" size="200 200 0.1" contype="0" conaffinity="1"/>
    <body pos="0 0 {R}" quat="{quat}"><freejoint/><geom type="sphere" size="{R}" mass="1"/>{inner}</body>
  </worldbody>
</mujoco>"""


def run(n, steps):
    mujoco.set_mju_user_warning(lambda text: None)  # counted in data.warning instead
    model = mujoco.MjModel.from_xml_string(xml(n))
    data = mujoco.MjData(model)
    deepest = 0.0
    for _ in range(steps):
        mujoco.mj_step(model, data)
        for c in data.contact[: data.ncon]:
            deepest = max(deepest, -c.dist)
    # MuJoCo resets an unstable simulation (NaN or huge accelerations) and warns
    unstable = data.warning[mujoco.mjtWarning.mjWARN_BADQACC].number > 0
    mujoco.mj_resetData(model, data)
    t = time.thread_time()
    mujoco.mj_step(model, data, nstep=steps)
    cpu = time.thread_time() - t
    return {"n": n, "penetration": deepest, "us_per_step": 1e6 * cpu / steps, "unstable": bool(unstable), "version": mujoco.__version__}


def main():
    quick = "--quick" in sys.argv
    ns = [1, 4, 8] if quick else [1, 2, 4, 8, 16, 24, 32, 44, 48, 64, 96, 128]
    for n in ns:
        print(json.dumps(run(n, 100 if quick else 500)), flush=True)


if __name__ == "__main__":
    main()

"""MuJoCo's side of the report's accuracy-vs-cost figure: the SCENARIOS A4 cube (0.5 m,
1 kg, friction 0.3) dropped with its bottom 0.4 m above the ground, 1 s, at several
time steps: MuJoCo's default contact (time constant 0.02 s, solimp 0.9 0.95), the
stiffest time constant it advises (2 dt), and that with a stiffer impedance (solimp
0.99 0.9999). Prints one JSON line per run: dt, time constant, solimp, deepest and
resting penetration (m), CPU time per simulated second (s). Run by examples/report with the peer venv's
python (benches/peer/setup.sh): target/peer-venv/bin/python scripts/report_mujoco_box.py
"""
import json
import sys
import time

import mujoco

XML = """
<mujoco>
  <option timestep="{dt}" gravity="0 0 -9.81"/>
  <!-- on both geoms: MuJoCo mixes the two geoms' contact parameters -->
  <default><geom friction="0.3" solref="{tc} 1" solimp="{solimp}"/></default>
  <worldbody>
    <geom type="plane" size="5 5 0.1"/>
    <body pos="0 0 0.65">
      <freejoint/>
      <geom type="box" size="0.25 0.25 0.25" mass="1"/>
    </body>
  </worldbody>
</mujoco>
"""


DEFAULT_SOLIMP = "0.9 0.95 0.001 0.5 2"
STIFF_SOLIMP = "0.99 0.9999 0.001 0.5 2"


def run(dt, tc, solimp, reps):
    model = mujoco.MjModel.from_xml_string(XML.format(dt=dt, tc=tc, solimp=solimp))
    data = mujoco.MjData(model)
    steps = round(1.0 / dt)
    deepest = 0.0
    for _ in range(steps):
        mujoco.mj_step(model, data)
        for c in data.contact[: data.ncon]:
            deepest = max(deepest, -c.dist)
    # the cost, without Python's per-call overhead: all steps in one call, best of reps
    best = float("inf")
    for _ in range(reps):
        mujoco.mj_resetData(model, data)
        t = time.thread_time()
        mujoco.mj_step(model, data, nstep=steps)
        best = min(best, time.thread_time() - t)
    resting = max([-c.dist for c in data.contact[: data.ncon]] + [0.0])
    return {"dt": dt, "timeconst": tc, "solimp": solimp, "penetration": deepest, "resting": resting, "cpu_per_second": best, "version": mujoco.__version__}


def main():
    quick = "--quick" in sys.argv
    dts = [1e-2, 1e-3] if quick else [1e-2, 5e-3, 2e-3, 1e-3, 5e-4, 2e-4, 1e-4, 5e-5]
    for dt in dts:
        settings = [(0.02, DEFAULT_SOLIMP), (2 * dt, DEFAULT_SOLIMP), (2 * dt, STIFF_SOLIMP)]
        if 2 * dt == 0.02:
            settings.pop(1)  # 2 dt is the default time constant
        for tc, solimp in settings:
            print(json.dumps(run(dt, tc, solimp, 1 if quick else 3)), flush=True)


if __name__ == "__main__":
    main()

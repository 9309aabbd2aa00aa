"""MuJoCo models of the peer benchmark (benches/peer.rs), built to simulate what maxdyn's
scenes simulate:

- a1.xml: SCENARIOS C1, the A1 quadruped of scenes/src/quadruped.rs, written from the
  same URDF (tests/fixtures/a1_cd_paper_quadruped_simple.urdf): link frames, joint
  origins and axes, masses, centres of mass and full inertias as the URDF gives them; a
  free trunk; one 1 mm sphere per calf at FOOT = (0, 0, -0.1) in the calf's centre-of-mass
  frame (maxdyn's body frame), friction 0.2; a ground plane; one unlimited torque motor
  per leg joint; no damping, armature or limits; only foot-ground collisions.
- chain_{revolute,spherical}_N.xml: SCENARIOS B1, `mechanisms::pendulum_chain(n,
  spherical, 0.01)`: n links of Cylinder(r 0.05, length 1, mass 1) whose body frames are
  their centres of mass (as in maxdyn), joints at the link ends about x, the first joint
  at the world origin, link 1 rotated π/4 about x (keyframe 0), no contacts.

Gravity (0, 0, -9.81), MuJoCo's default Euler integrator and solver settings.
Run in the venv that has `mujoco`: python make_models.py URDF OUTDIR
"""

import math
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import mujoco
import numpy as np

FOOT = np.array([0.0, 0.0, -0.1])  # in the calf's centre-of-mass frame
FOOT_RADIUS = 0.001
FRICTION = 0.2
LEGS = ["FR", "FL", "RR", "RL"]
PARTS = ["hip", "thigh", "calf"]


def vec(text, default="0 0 0"):
    return np.array([float(v) for v in (text or default).split()])


def rpy_matrix(rpy):
    """URDF roll-pitch-yaw: R = Rz(yaw) Ry(pitch) Rx(roll)."""
    (cr, sr), (cp, sp), (cy, sy) = [(math.cos(a), math.sin(a)) for a in rpy]
    rx = np.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]])
    ry = np.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]])
    rz = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    return rz @ ry @ rx


def quat(rotation):
    q = np.zeros(4)
    mujoco.mju_mat2Quat(q, rotation.flatten())
    return q


def fmt(values):
    return " ".join(repr(float(v)) for v in values)


def read_urdf(path):
    """Links (mass, COM, full inertia in the link frame) and joints (parent, child,
    origin, axis) of the URDF."""
    root = ET.parse(path).getroot()
    links = {}
    for link in root.findall("link"):
        inertial = link.find("inertial")
        if inertial is None:
            continue
        origin = inertial.find("origin")
        xyz = vec(origin.get("xyz") if origin is not None else None)
        rot = rpy_matrix(vec(origin.get("rpy") if origin is not None else None))
        i = {k: float(v) for k, v in inertial.find("inertia").attrib.items()}
        inertia = np.array([[i["ixx"], i["ixy"], i["ixz"]], [i["ixy"], i["iyy"], i["iyz"]], [i["ixz"], i["iyz"], i["izz"]]])
        links[link.get("name")] = {"mass": float(inertial.find("mass").get("value")), "com": xyz, "inertia": rot @ inertia @ rot.T}
    joints = []
    for joint in root.findall("joint"):
        origin = joint.find("origin")
        axis = joint.find("axis")
        joints.append(
            {
                "name": joint.get("name"),
                "type": joint.get("type"),
                "parent": joint.find("parent").get("link"),
                "child": joint.find("child").get("link"),
                "xyz": vec(origin.get("xyz") if origin is not None else None),
                "rot": rpy_matrix(vec(origin.get("rpy") if origin is not None else None)),
                "axis": vec(axis.get("xyz") if axis is not None else None, "1 0 0"),
            }
        )
    return links, joints


def inertial_element(parent, link):
    i = link["inertia"]
    ET.SubElement(
        parent,
        "inertial",
        pos=fmt(link["com"]),
        mass=repr(link["mass"]),
        fullinertia=fmt([i[0, 0], i[1, 1], i[2, 2], i[0, 1], i[0, 2], i[1, 2]]),
    )


def a1_xml(urdf):
    links, joints = read_urdf(urdf)
    mj = ET.Element("mujoco", model="a1_peer")
    ET.SubElement(mj, "compiler", angle="radian", inertiafromgeom="false", autolimits="true")
    ET.SubElement(mj, "option", timestep="0.001", gravity="0 0 -9.81", cone="pyramidal")
    world = ET.SubElement(mj, "worldbody")
    # collisions: feet (contype 1, conaffinity 0) only against the ground (0, 1)
    ET.SubElement(world, "geom", name="ground", type="plane", size="0 0 1", friction=f"{FRICTION} 0 0", condim="3", contype="0", conaffinity="1")
    # the floating root: URDF's massless `base` with its floating joint to `trunk`
    root = next(j for j in joints if j["type"] == "floating")
    trunk = ET.SubElement(world, "body", name=root["child"])
    ET.SubElement(trunk, "freejoint", name="floating_base")
    inertial_element(trunk, links[root["child"]])
    bodies = {root["child"]: trunk}
    actuators = ET.Element("actuator")
    pending = [j for j in joints if j["type"] != "floating"]
    while pending:
        for j in [j for j in pending if j["parent"] in bodies]:
            assert j["type"] in ("revolute", "continuous"), j
            body = ET.SubElement(bodies[j["parent"]], "body", name=j["child"], pos=fmt(j["xyz"]), quat=fmt(quat(j["rot"])))
            ET.SubElement(body, "joint", name=j["name"], type="hinge", pos="0 0 0", axis=fmt(j["axis"]))
            link = links[j["child"]]
            inertial_element(body, link)
            if j["child"].endswith("_calf"):
                # maxdyn's calf body frame is its centre of mass, with the link's orientation
                ET.SubElement(
                    body,
                    "geom",
                    name=j["child"].replace("_calf", "_foot"),
                    type="sphere",
                    size=repr(FOOT_RADIUS),
                    pos=fmt(link["com"] + FOOT),
                    friction=f"{FRICTION} 0 0",
                    condim="3",
                    contype="1",
                    conaffinity="0",
                )
            ET.SubElement(actuators, "motor", name=j["name"], joint=j["name"], gear="1")
            bodies[j["child"]] = body
            pending.remove(j)
    mj.append(actuators)
    return mj, links


def chain_xml(n, spherical):
    mass, radius, length = 1.0, 0.05, 1.0
    transverse = mass * (3 * radius**2 + length**2) / 12  # Inertia::cylinder, axis along z
    axial = 0.5 * mass * radius**2
    mj = ET.Element("mujoco", model=f"chain_{'spherical' if spherical else 'revolute'}_{n}")
    ET.SubElement(mj, "compiler", angle="radian", inertiafromgeom="false")
    ET.SubElement(mj, "option", timestep="0.01", gravity="0 0 -9.81")
    parent = ET.SubElement(mj, "worldbody")
    for i in range(n):
        # body frame = centre of mass; the joint sits at the link's top end (0, 0, 0.5),
        # which is the parent's bottom end (0, 0, -0.5), or the world origin
        pos = "0 0 -0.5" if i == 0 else "0 0 -1"
        parent = ET.SubElement(parent, "body", name=f"link{i}", pos=pos)
        if spherical:
            ET.SubElement(parent, "joint", name=f"j{i}", type="ball", pos="0 0 0.5")
        else:
            ET.SubElement(parent, "joint", name=f"j{i}", type="hinge", pos="0 0 0.5", axis="1 0 0")
        ET.SubElement(parent, "inertial", pos="0 0 0", mass=repr(mass), diaginertia=fmt([transverse, transverse, axial]))
    # initial state: link 1 rotated π/4 about x (its subtree follows), at rest
    if spherical:
        first = [math.cos(math.pi / 8), math.sin(math.pi / 8), 0.0, 0.0] + [1.0, 0.0, 0.0, 0.0] * (n - 1)
    else:
        first = [math.pi / 4] + [0.0] * (n - 1)
    keyframe = ET.SubElement(mj, "keyframe")
    ET.SubElement(keyframe, "key", name="start", qpos=fmt(first))
    return mj


def write(mj, path):
    ET.indent(mj)
    path.write_text(ET.tostring(mj, encoding="unicode") + "\n")
    return mujoco.MjModel.from_xml_path(str(path))


def body_inertia(model, b):
    """Full inertia of body b about its centre of mass, in the body frame."""
    r = np.zeros(9)
    mujoco.mju_quat2Mat(r, model.body_iquat[b])
    r = r.reshape(3, 3)
    return r @ np.diag(model.body_inertia[b]) @ r.T


def check_a1(model, links):
    """The loaded model's masses, centres of mass and inertias are the URDF's."""
    worst = 0.0
    for name, link in links.items():
        b = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, name)
        assert b > 0, name
        worst = max(worst, abs(model.body_mass[b] - link["mass"]) / link["mass"])
        worst = max(worst, np.abs(model.body_ipos[b] - link["com"]).max())
        worst = max(worst, np.abs(body_inertia(model, b) - link["inertia"]).max() / np.abs(link["inertia"]).max())
    assert model.nbody == len(links) + 1 and model.nu == 12 and model.nv == 18, (model.nbody, model.nu, model.nv)
    assert worst < 1e-12, f"A1 model differs from the URDF by {worst:.2e}"
    print(f"a1.xml: {len(links)} bodies, masses / COMs / full inertias equal the URDF's (max relative difference {worst:.1e})")


def main():
    urdf, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    mj, links = a1_xml(urdf)
    check_a1(write(mj, out / "a1.xml"), links)
    for spherical in (False, True):
        for n in (8, 32, 128):
            model = write(chain_xml(n, spherical), out / f"chain_{'spherical' if spherical else 'revolute'}_{n}.xml")
            assert model.nbody == n + 1 and model.nv == (3 if spherical else 1) * n
    print(f"chains: revolute and spherical, n = 8, 32, 128; MuJoCo {mujoco.__version__}; models in {out}")


if __name__ == "__main__":
    main()

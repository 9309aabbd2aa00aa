"""MuJoCo models of the corpus robots for benches/collision_stage.rs: the URDF itself
(MuJoCo reads <robot> files), its <visual> elements dropped and its mesh paths made
absolute (MuJoCo would keep only the file name), the root link given a free joint, a
ground plane added; without self-collision (a1.xml, talos.xml) the robot's geoms
collide with the plane only, with it (*_srdf.xml) the SRDF's <disable_collisions> pairs
are added as contact exclusions. Links on fixed joints stay bodies welded to their parent
(fusestatic off): an exclusion is per body, so fused, an SRDF pair naming a small link
(the A1's `imu_link` against a thigh) would exclude the shapes of the link it merges into
(the trunk's box) as well, which maxdyn, excluding shape pairs, does not. Welded bodies
never collide with each other in MuJoCo, as the shapes of one merged body in maxdyn.

The panda of the accuracy benchmark (benches/integrator_peer.rs), panda.urdf: as
tests/second_order.rs has it, fixed base, fingers welded, the joints' <dynamics damping>
kept (MuJoCo's URDF reader takes it as joint damping), no limits and no geoms (no
contacts; the URDF's <inertial> give the masses), against the same Pinocchio reference.

Usage: python make_robot_models.py ROBOTS_DIR OUT_DIR   (ROBOTS_DIR: example-robot-data's robots/)
"""
import os
import sys
import xml.etree.ElementTree as ET

import mujoco

PACKAGE = "package://example-robot-data/robots/"

ROBOTS = {
    "a1": ("a1_description/urdf/a1.urdf", "a1_description/srdf/a1.srdf"),
    "talos": ("talos_data/robots/talos_reduced.urdf", "talos_data/srdf/talos.srdf"),
}


def prepared_urdf(path, robots):
    """The URDF text without visuals, absolute mesh paths, MuJoCo's compiler options."""
    tree = ET.parse(path)
    root = tree.getroot()
    for link in root.iter("link"):
        for visual in link.findall("visual"):
            link.remove(visual)
    for mesh in root.iter("mesh"):
        name = mesh.get("filename")
        if name.startswith(PACKAGE):
            name = os.path.join(robots, name[len(PACKAGE):])
        elif not os.path.isabs(name):
            name = os.path.join(os.path.dirname(path), name)
        mesh.set("filename", os.path.abspath(name))
    extension = ET.SubElement(root, "mujoco")
    # meshes collide as their convex hulls (MuJoCo's default, as maxdyn's); fixed links
    # kept as bodies (see above)
    ET.SubElement(extension, "compiler", {"strippath": "false", "fusestatic": "false", "discardvisual": "true", "balanceinertia": "true"})
    return ET.tostring(root, encoding="unicode"), root


def build(urdf, robots, srdf):
    text, root = prepared_urdf(urdf, robots)
    spec = mujoco.MjSpec.from_string(text)
    spec.worldbody.first_body().add_freejoint()
    if not srdf:
        # ground only: a robot geom collides with the plane (contype 1 against its
        # conaffinity 1), not with another robot geom (conaffinity 0 on both sides)
        for geom in spec.geoms:
            geom.conaffinity = 0
    spec.worldbody.add_geom(type=mujoco.mjtGeom.mjGEOM_PLANE, size=[0, 0, 1])
    excluded = 0
    if srdf:
        links = {link.get("name") for link in root.iter("link")}
        seen = set()
        for pair in ET.parse(srdf).getroot().iter("disable_collisions"):
            a, b = pair.get("link1"), pair.get("link2")
            if a not in links or b not in links or a == b or (a, b) in seen or (b, a) in seen:
                continue
            seen.add((a, b))
            spec.add_exclude(bodyname1=a, bodyname2=b)
        excluded = len(seen)
    model = spec.compile()
    return spec.to_xml(), model, excluded


def panda(robots):
    """The welded, geom-free, limit-free panda (see the docstring) as URDF text, and its
    compiled model. It stays a URDF (MuJoCo loads one as it loads MJCF): MJCF written
    back by MjSpec keeps 6 digits of the masses and inertias, the URDF all of them. The
    arm's joints become `continuous` (hinges without a range)."""
    tree = ET.parse(os.path.join(robots, "panda_description/urdf/panda.urdf"))
    root = tree.getroot()
    for link in root.iter("link"):
        for element in link.findall("visual") + link.findall("collision"):
            link.remove(element)
    for joint in root.iter("joint"):
        if joint.get("name") in ("panda_finger_joint1", "panda_finger_joint2"):
            joint.set("type", "fixed")
            for element in joint.findall("mimic"):
                joint.remove(element)
        elif joint.get("type") == "revolute":
            joint.set("type", "continuous")
    extension = ET.SubElement(root, "mujoco")
    ET.SubElement(extension, "compiler", {"discardvisual": "true"})
    text = ET.tostring(root, encoding="unicode")
    model = mujoco.MjModel.from_xml_string(text)
    assert model.nq == model.nv == 7 and model.ngeom == 0 and not model.jnt_limited.any(), (model.nq, model.ngeom)
    return text, model


def main():
    robots, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for name, (urdf, srdf) in ROBOTS.items():
        for variant, with_srdf in ((name, None), (name + "_srdf", os.path.join(robots, srdf))):
            xml, model, excluded = build(os.path.join(robots, urdf), robots, with_srdf)
            with open(os.path.join(out, variant + ".xml"), "w") as f:
                f.write(xml)
            print(f"{variant}.xml: {model.nbody} bodies, {model.ngeom} geoms ({model.nmesh} meshes), {excluded} excluded body pairs")
    xml, model = panda(robots)
    with open(os.path.join(out, "panda.urdf"), "w") as f:
        f.write(xml)
    print(f"panda.urdf: {model.nbody} bodies, {model.nv} joints, damping {model.dof_damping.tolist()}")


if __name__ == "__main__":
    main()

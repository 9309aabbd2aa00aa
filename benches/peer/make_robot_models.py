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


def main():
    robots, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for name, (urdf, srdf) in ROBOTS.items():
        for variant, with_srdf in ((name, None), (name + "_srdf", os.path.join(robots, srdf))):
            xml, model, excluded = build(os.path.join(robots, urdf), robots, with_srdf)
            with open(os.path.join(out, variant + ".xml"), "w") as f:
                f.write(xml)
            print(f"{variant}.xml: {model.nbody} bodies, {model.ngeom} geoms ({model.nmesh} meshes), {excluded} excluded body pairs")


if __name__ == "__main__":
    main()

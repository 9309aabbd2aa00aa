"""Builder: a mechanism under construction (bodies, joints, contacts, force elements,
names, limits, mimics, frames, collision shapes), or loaded from URDF."""

from __future__ import annotations

import ctypes
import os
from typing import List, Optional, Sequence, Tuple, Union

import numpy as np
from numpy.typing import ArrayLike

from ._lib import HAS_URDF, _handle, _i32, _size, lib
from .constants import WORLD
from ._util import Handle, array, as_id, c_doubles, count, doubles, name_arg, out, real
from .errors import MaxdynError, check

__all__ = ["Builder"]

IDENTITY_POSE = (0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0)
PathLike = Union[str, bytes, "os.PathLike[str]"]


class Builder(Handle):
    """A mechanism under construction; `Model(builder)` compiles it. Ids count from 0
    in order of addition; the world is WORLD (-1)."""

    _free = lib.maxdyn_builder_free

    def __init__(self) -> None:
        p = _handle()
        check(lib.maxdyn_builder_new(ctypes.byref(p)))
        super().__init__(p)

    def __repr__(self) -> str:
        if self.closed:
            return "<maxdyn.Builder closed>"
        return f"<maxdyn.Builder bodies={self.body_count} joints={self.joint_count} contacts={self.contact_count} shapes={self.shape_count}>"

    # --- URDF
    @classmethod
    def from_urdf(cls, path: PathLike, floating: bool = False) -> "Builder":
        """Loads a URDF file (bodies and joints in file order; see maxdyn.h). `floating`:
        the root link is a free body."""
        if not HAS_URDF:
            raise MaxdynError(-1, "this libmaxdyn has no maxdyn_builder_from_urdf")
        p = _handle()
        check(lib.maxdyn_builder_from_urdf(os.fsencode(path), 1 if floating else 0, ctypes.byref(p)))
        return cls._adopt(p)

    @classmethod
    def from_urdf_string(cls, xml: str, floating: bool = False) -> "Builder":
        """Loads URDF text (see from_urdf)."""
        if not isinstance(xml, str):
            raise TypeError(f"xml must be a str, got {type(xml).__name__}")
        p = _handle()
        check(lib.maxdyn_builder_from_urdf_string(xml.encode(), 1 if floating else 0, ctypes.byref(p)))
        return cls._adopt(p)

    @classmethod
    def from_urdf_with(cls, path: PathLike, floating: bool = False, merge_fixed: bool = True, joint_limits: bool = True,
                       collision: bool = False, ground_plane: bool = False,
                       self_collision: bool = False, bound_mass: float = 0.0, bound_inertia: float = 0.0,
                       srdf_path: Optional[PathLike] = None, srdf: Optional[str] = None,
                       mesh_roots: Sequence[PathLike] = (),
                       world_meshes_as_trimesh: bool = False) -> Tuple["Builder", List[str]]:
        """Loads a URDF file with options (maxdyn.h maxdyn_urdf_options): `collision` makes
        its <collision> spheres, boxes, cylinders, capsules and meshes (their convex hulls)
        shapes, `ground_plane` adds the half-space below z = 0, `self_collision` lets the
        robot's shapes meet each other; `srdf_path` (an SRDF file) or `srdf` (SRDF text)
        excludes the shape pairs of its <disable_collisions link1 link2>; `bound_mass` and
        `bound_inertia` (0: off) raise links' masses (kg) and principal moments (kg m^2)
        below them, as MuJoCo's boundmass/boundinertia; `mesh_roots`: directories searched
        for mesh files (package://pkg/... as dir/pkg/...), after the file's own directory
        and its ancestors; `world_meshes_as_trimesh`: the meshes of links fixed to the world
        are triangle meshes (bodies touch their concave insides), not hulls. Returns
        (builder, warnings: a list of strings)."""
        return cls._load_with(path, None, floating, merge_fixed, joint_limits, collision, ground_plane, self_collision,
                              bound_mass, bound_inertia, srdf_path, srdf, mesh_roots,
                              world_meshes_as_trimesh)

    @classmethod
    def from_urdf_string_with(cls, xml: str, floating: bool = False, merge_fixed: bool = True,
                              joint_limits: bool = True, collision: bool = False, ground_plane: bool = False,
                              self_collision: bool = False, bound_mass: float = 0.0, bound_inertia: float = 0.0,
                              srdf_path: Optional[PathLike] = None, srdf: Optional[str] = None,
                              mesh_roots: Sequence[PathLike] = (),
                              world_meshes_as_trimesh: bool = False) -> Tuple["Builder", List[str]]:
        """As from_urdf_with, from URDF text (relative mesh paths resolve against the
        working directory and `mesh_roots`). Returns (builder, warnings)."""
        if not isinstance(xml, str):
            raise TypeError(f"xml must be a str, got {type(xml).__name__}")
        return cls._load_with(None, xml, floating, merge_fixed, joint_limits, collision, ground_plane, self_collision,
                              bound_mass, bound_inertia, srdf_path, srdf, mesh_roots,
                              world_meshes_as_trimesh)

    @classmethod
    def _load_with(cls, path: Optional[PathLike], xml: Optional[str], floating: bool, merge_fixed: bool,
                   joint_limits: bool, collision: bool, ground_plane: bool, self_collision: bool, bound_mass: float,
                   bound_inertia: float, srdf_path: Optional[PathLike], srdf: Optional[str],
                   mesh_roots: Sequence[PathLike], world_meshes_as_trimesh: bool) -> Tuple["Builder", List[str]]:
        o = lib.maxdyn_urdf_options_default()
        for name, v in (("floating", floating), ("merge_fixed", merge_fixed), ("joint_limits", joint_limits),
                        ("collision", collision), ("ground_plane", ground_plane), ("self_collision", self_collision),
                        ("world_meshes_as_trimesh", world_meshes_as_trimesh)):
            setattr(o, name, 1 if v else 0)
        o.bound_mass = real(bound_mass, "bound_mass")
        o.bound_inertia = real(bound_inertia, "bound_inertia")
        if srdf is not None and not isinstance(srdf, str):
            raise TypeError(f"srdf must be a str, got {type(srdf).__name__}")
        # the encoded strings live as long as `o` is used below
        o.srdf_path = None if srdf_path is None else os.fsencode(srdf_path)
        o.srdf_string = None if srdf is None else srdf.encode()
        roots = os.pathsep.encode().join(os.fsencode(r) for r in mesh_roots)
        o.mesh_roots = roots if mesh_roots else None

        def load(handle: _handle, text: ctypes.Array) -> int:
            n = _size()
            if xml is None:
                check(lib.maxdyn_builder_from_urdf_with(os.fsencode(path), ctypes.byref(o), ctypes.byref(handle), text,
                                                        len(text), ctypes.byref(n)))
            else:
                check(lib.maxdyn_builder_from_urdf_string_with(xml.encode(), ctypes.byref(o), ctypes.byref(handle),
                                                               text, len(text), ctypes.byref(n)))
            return n.value

        p, text = _handle(), ctypes.create_string_buffer(1 << 16)
        n = load(p, text)
        obj = cls._adopt(p)
        if n >= len(text):  # longer warnings: read them again into a buffer that fits
            q, text = _handle(), ctypes.create_string_buffer(n + 1)
            load(q, text)
            lib.maxdyn_builder_free(q)
        warnings = text.value.decode("utf-8", "replace")
        return obj, (warnings.split("\n") if warnings else [])

    # --- bodies and joints
    @property
    def gravity(self) -> np.ndarray:
        """The gravity vector (3, m/s^2, world frame); set it with set_gravity."""
        g, ptr = out(3)
        check(lib.maxdyn_builder_get_gravity(self.ptr, ptr))
        return g

    def set_gravity(self, g: ArrayLike) -> None:
        """Sets the gravity vector (3, m/s^2, world frame; default (0, 0, -9.81))."""
        check(lib.maxdyn_builder_set_gravity(self.ptr, doubles(g, 3, "g")))

    def add_body(self, mass: float, inertia: ArrayLike) -> int:
        """A rigid body of `mass` (kg) and `inertia` about its centre of mass (9 numbers
        row-major, or 3x3, kg m^2, body frame). Returns the body id."""
        result = _i32()
        check(lib.maxdyn_builder_add_body(self.ptr, real(mass, "mass"), doubles(inertia, 9, "inertia"), ctypes.byref(result)))
        return result.value

    def set_body_pose(self, body: int, x: ArrayLike, q: ArrayLike) -> None:
        """The body's initial position x (3, world) and orientation q (unit quaternion w, x, y, z)."""
        check(lib.maxdyn_builder_set_body_pose(self.ptr, as_id(body, "body"), doubles(x, 3, "x"), doubles(q, 4, "q")))

    def set_body_velocity(self, body: int, v: ArrayLike, omega: ArrayLike) -> None:
        """The body's initial velocity v (3, world) and angular velocity omega (3, body frame)."""
        check(lib.maxdyn_builder_set_body_velocity(self.ptr, as_id(body, "body"), doubles(v, 3, "v"), doubles(omega, 3, "omega")))

    def add_joint(self, joint_type: int, parent: int, child: int, p_parent: ArrayLike, p_child: ArrayLike,
                  axis: ArrayLike = (1.0, 0.0, 0.0)) -> int:
        """A joint of `joint_type` (FIXED … FLOATING) between `parent` (a body or WORLD) and
        `child`, at point p_parent (parent frame) = p_child (child frame), about or along
        `axis` (parent frame). Returns the joint id."""
        result = _i32()
        check(lib.maxdyn_builder_add_joint(
            self.ptr, as_id(joint_type, "joint_type"), as_id(parent, "parent"), as_id(child, "child"),
            doubles(p_parent, 3, "p_parent"), doubles(p_child, 3, "p_child"), doubles(axis, 3, "axis"), ctypes.byref(result)))
        return result.value

    def add_universal_joint(self, parent: int, child: int, p_parent: ArrayLike, p_child: ArrayLike,
                            axis_parent: ArrayLike, axis_child: ArrayLike) -> int:
        """A universal (Hooke) joint: α about axis_parent, then β about axis_child
        (perpendicular). Returns the joint id."""
        result = _i32()
        check(lib.maxdyn_builder_add_universal_joint(
            self.ptr, as_id(parent, "parent"), as_id(child, "child"), doubles(p_parent, 3, "p_parent"),
            doubles(p_child, 3, "p_child"), doubles(axis_parent, 3, "axis_parent"),
            doubles(axis_child, 3, "axis_child"), ctypes.byref(result)))
        return result.value

    def set_joint_offset(self, joint: int, q: ArrayLike) -> None:
        """The child's orientation relative to the parent at zero coordinates (unit quaternion w, x, y, z)."""
        check(lib.maxdyn_builder_set_joint_offset(self.ptr, as_id(joint, "joint"), doubles(q, 4, "q")))

    @property
    def body_count(self) -> int:
        """Bodies added so far."""
        return count(lib.maxdyn_builder_get_body_count, self.ptr)

    @property
    def joint_count(self) -> int:
        """Joints added so far."""
        return count(lib.maxdyn_builder_get_joint_count, self.ptr)

    # --- contacts described point by point
    def add_plane_contact(self, body: int, p: ArrayLike, radius: float, normal: ArrayLike, offset: float,
                          friction: float) -> int:
        """Sphere of `radius` (0: a point) at body point `p` against normal·x ≥ offset.
        Returns the contact id."""
        result = _i32()
        check(lib.maxdyn_builder_add_plane_contact(
            self.ptr, as_id(body, "body"), doubles(p, 3, "p"), real(radius, "radius"), doubles(normal, 3, "normal"),
            real(offset, "offset"), real(friction, "friction"), ctypes.byref(result)))
        return result.value

    def add_ground_contact(self, body: int, p: ArrayLike, radius: float = 0.0, friction: float = 0.0) -> int:
        """The same against the ground z ≥ 0. Returns the contact id."""
        result = _i32()
        check(lib.maxdyn_builder_add_ground_contact(
            self.ptr, as_id(body, "body"), doubles(p, 3, "p"), real(radius, "radius"), real(friction, "friction"), ctypes.byref(result)))
        return result.value

    def add_sphere_contact(self, body_a: int, pa: ArrayLike, ra: float, body_b: int, pb: ArrayLike, rb: float,
                           friction: float = 0.0) -> int:
        """Sphere (ra at pa on body_a) against sphere (rb at pb on body_b, or WORLD).
        Returns the contact id."""
        result = _i32()
        check(lib.maxdyn_builder_add_sphere_contact(
            self.ptr, as_id(body_a, "body_a"), doubles(pa, 3, "pa"), real(ra, "ra"), as_id(body_b, "body_b"),
            doubles(pb, 3, "pb"), real(rb, "rb"), real(friction, "friction"), ctypes.byref(result)))
        return result.value

    def set_contact_cone(self, contact: int, cone_type: int, directions: int = 4) -> None:
        """CONE_LINEAR with an even number of directions (2…16), or CONE_NONLINEAR."""
        check(lib.maxdyn_builder_set_contact_cone(self.ptr, as_id(contact, "contact"), as_id(cone_type, "cone_type"),
                                                  as_id(directions, "directions")))

    def contact_cone(self, contact: int) -> Tuple[int, int]:
        """(cone_type, directions) of a contact."""
        t, d = _i32(), _i32()
        check(lib.maxdyn_builder_get_contact_cone(self.ptr, as_id(contact, "contact"), ctypes.byref(t), ctypes.byref(d)))
        return t.value, d.value

    @property
    def contact_count(self) -> int:
        """Contacts added so far (not counting collision shapes)."""
        return count(lib.maxdyn_builder_get_contact_count, self.ptr)

    # --- force elements
    def set_joint_spring(self, joint: int, stiffness: ArrayLike, rest: ArrayLike) -> None:
        """Spring on a joint's free directions: one stiffness and rest value per direction."""
        (k, nk), (r, nr) = c_doubles(stiffness, "stiffness"), c_doubles(rest, "rest")
        if nk != nr:
            raise ValueError(f"stiffness has {nk} values, rest {nr}: one each per free direction")
        check(lib.maxdyn_builder_set_joint_spring(self.ptr, as_id(joint, "joint"), k, r, nk))

    def set_joint_damper(self, joint: int, damping: ArrayLike) -> None:
        """Linear damper on a joint's free directions: one coefficient per direction."""
        c, n = c_doubles(damping, "damping")
        check(lib.maxdyn_builder_set_joint_damper(self.ptr, as_id(joint, "joint"), c, n))

    def add_spring(self, body_a: int, pa: ArrayLike, body_b: int, pb: ArrayLike, stiffness: float,
                   damping: float = 0.0, rest_length: float = 0.0) -> int:
        """Point-to-point spring-damper (body_a may be WORLD). Returns its id."""
        result = _i32()
        check(lib.maxdyn_builder_add_spring(
            self.ptr, as_id(body_a, "body_a"), doubles(pa, 3, "pa"), as_id(body_b, "body_b"), doubles(pb, 3, "pb"),
            real(stiffness, "stiffness"), real(damping, "damping"), real(rest_length, "rest_length"), ctypes.byref(result)))
        return result.value

    @property
    def spring_count(self) -> int:
        """Point-to-point springs added so far."""
        return count(lib.maxdyn_builder_get_spring_count, self.ptr)

    # --- names
    def set_body_name(self, body: int, name: str) -> None:
        """Names a body (the model keeps it; find_body looks it up)."""
        check(lib.maxdyn_builder_set_body_name(self.ptr, as_id(body, "body"), name_arg(name)))

    def set_joint_name(self, joint: int, name: str) -> None:
        """Names a joint (the model keeps it; find_joint looks it up)."""
        check(lib.maxdyn_builder_set_joint_name(self.ptr, as_id(joint, "joint"), name_arg(name)))

    def find_body(self, name: str) -> int:
        """Id of the body named `name` (URDF: the link name)."""
        return count(lib.maxdyn_builder_find_body, self.ptr, name_arg(name))

    def find_joint(self, name: str) -> int:
        """Id of the joint named `name` (URDF: the joint name)."""
        return count(lib.maxdyn_builder_find_joint, self.ptr, name_arg(name))

    # --- limits, mimics, frames
    def set_joint_limits(self, joint: int, lower: ArrayLike, upper: ArrayLike) -> None:
        """Bounds of each free direction of `joint` (translations first); -inf / inf
        leave a side free. Replaces the joint's earlier limits."""
        (lo, nlo), (hi, nhi) = c_doubles(lower, "lower"), c_doubles(upper, "upper")
        if nlo != nhi:
            raise ValueError(f"lower has {nlo} values, upper {nhi}: one each per free direction")
        check(lib.maxdyn_builder_set_joint_limits(self.ptr, as_id(joint, "joint"), lo, hi, nlo))

    def add_mimic(self, follower: int, leader: int, multiplier: float = 1.0, offset: float = 0.0) -> int:
        """q_follower = multiplier * q_leader + offset (one-coordinate joints). Returns
        the mimic's id."""
        result = _i32()
        check(lib.maxdyn_builder_add_mimic(self.ptr, as_id(follower, "follower"), as_id(leader, "leader"),
                                           real(multiplier, "multiplier"), real(offset, "offset"), ctypes.byref(result)))
        return result.value

    def add_frame(self, name: str, body: int, pose: ArrayLike = IDENTITY_POSE) -> int:
        """A named frame fixed to `body` (or WORLD) at `pose` = position (3, body frame)
        + quaternion (w, x, y, z). Returns the frame's id."""
        result = _i32()
        check(lib.maxdyn_builder_add_frame(self.ptr, name_arg(name), as_id(body, "body"), doubles(pose, 7, "pose"),
                                           ctypes.byref(result)))
        return result.value

    def set_base_frame(self, body: int, pose: ArrayLike = IDENTITY_POSE) -> None:
        """The reference frame of `body` as a floating base (a body no joint places):
        `pose` = position (3, body frame) + quaternion (w, x, y, z). Its configuration and
        velocities in minimal coordinates are this frame's (default: the body frame; a
        URDF loaded floating uses its root link's frame)."""
        check(lib.maxdyn_builder_set_base_frame(self.ptr, as_id(body, "body"), doubles(pose, 7, "pose")))

    # --- collision shapes (docs/COLLISION.md)
    def add_shape(self, body: int, shape_type: int, params: Sequence[float] = (),
                  pose: ArrayLike = IDENTITY_POSE) -> int:
        """A collision shape of `shape_type` (SHAPE_*) with its `params` on `body` (or
        WORLD for a static shape) at `pose` = position (3, body frame, origin at the centre
        of mass) + unit quaternion (w, x, y, z). Returns the shape's id."""
        values = array(params, "params").tolist()
        result = _i32()
        check(lib.maxdyn_builder_add_shape(self.ptr, as_id(body, "body"), as_id(shape_type, "shape_type"),
                                           doubles(pose, 7, "pose"),
                                           (ctypes.c_double * len(values))(*values) if values else None,
                                           len(values), ctypes.byref(result)))
        return result.value

    def add_hull_shape(self, body: int, points: ArrayLike, pose: ArrayLike = IDENTITY_POSE) -> int:
        """A collision shape that is the convex hull of `points` (n x 3, shape frame; at
        least 4, not coplanar) on `body` (or WORLD) at `pose`. Returns the shape's id."""
        flat = array(points, "points")
        if flat.size % 3 != 0:
            raise ValueError(f"points needs x, y, z triples, got {flat.size} numbers")
        values, n = c_doubles(flat, "points")
        result = _i32()
        check(lib.maxdyn_builder_add_hull_shape(self.ptr, as_id(body, "body"), doubles(pose, 7, "pose"), values, n // 3,
                                                ctypes.byref(result)))
        return result.value

    def add_heightfield_shape(self, heights: ArrayLike, dx: float, dy: float, pose: ArrayLike = IDENTITY_POSE) -> int:
        """A height field (terrain) in the world at `pose`: `heights` rows x cols (at least
        2 x 2; row r at y = (r - (rows - 1)/2) dy, column c at x = (c - (cols - 1)/2) dx in
        the shape frame, z up), cells `dx` x `dy` (> 0). Returns the shape's id."""
        grid = np.asarray(heights, dtype=np.float64) if not isinstance(heights, (str, bytes)) else None
        if grid is None or grid.ndim != 2:
            raise ValueError(f"heights must be a 2-D array (rows x cols), got {np.ndim(heights)} dimensions")
        values, n = c_doubles(grid, "heights")
        result = _i32()
        check(lib.maxdyn_builder_add_heightfield_shape(self.ptr, WORLD, doubles(pose, 7, "pose"), values, grid.shape[0],
                                                       grid.shape[1], real(dx, "dx"), real(dy, "dy"), ctypes.byref(result)))
        return result.value

    def add_trimesh_shape(self, vertices: ArrayLike, triangles: ArrayLike, pose: ArrayLike = IDENTITY_POSE) -> int:
        """A triangle mesh in the world at `pose`: `vertices` n x 3 (shape frame),
        `triangles` m x 3 vertex indices (each with an area). Returns the shape's id."""
        flat = array(vertices, "vertices")
        if flat.size % 3 != 0:
            raise ValueError(f"vertices needs x, y, z triples, got {flat.size} numbers")
        indices = np.asarray(triangles).reshape(-1)
        if indices.size % 3 != 0 or (indices.size and not np.issubdtype(indices.dtype, np.integer)):
            raise ValueError("triangles needs triples of integer vertex indices")
        if indices.size and (indices.min() < -2**31 or indices.max() >= 2**31):
            raise ValueError("triangles' indices must fit in int32")
        values, n = c_doubles(flat, "vertices")
        tri = (ctypes.c_int32 * max(indices.size, 1))(*indices.tolist())
        result = _i32()
        check(lib.maxdyn_builder_add_trimesh_shape(self.ptr, WORLD, doubles(pose, 7, "pose"), values, n // 3, tri,
                                                   indices.size // 3, ctypes.byref(result)))
        return result.value

    def set_shape_friction(self, shape: int, mu: float) -> None:
        """Surface friction coefficient (>= 0, default 1); a pair uses the smaller."""
        check(lib.maxdyn_builder_set_shape_friction(self.ptr, as_id(shape, "shape"), real(mu, "mu")))

    def set_collision_filter(self, shape: int, group: int, mask: int) -> None:
        """Two shapes collide when each one's group shares a bit with the other's mask."""
        check(lib.maxdyn_builder_set_collision_filter(self.ptr, as_id(shape, "shape"), as_id(group, "group") & 0xFFFFFFFF,
                                                      as_id(mask, "mask") & 0xFFFFFFFF))

    def exclude_shape_pair(self, shape_a: int, shape_b: int) -> None:
        """These two shapes never collide."""
        check(lib.maxdyn_builder_exclude_shape_pair(self.ptr, as_id(shape_a, "shape_a"), as_id(shape_b, "shape_b")))

    def set_collision_cone(self, cone_type: int, directions: int = 4) -> None:
        """The friction cone of every contact between shapes (CONE_LINEAR with an even
        number of directions 2-16, or CONE_NONLINEAR with 0)."""
        check(lib.maxdyn_builder_set_collision_cone(self.ptr, as_id(cone_type, "cone_type"), as_id(directions, "directions")))

    def set_contact_capacity(self, slots: int) -> None:
        """Most contact points between collision shapes a step may hold (default 24 per
        shape on a body, at least 64). It fixes the size of a saved state; a step that
        needs more is refused with MaxdynError (status CONTACT_CAPACITY)."""
        check(lib.maxdyn_builder_set_contact_capacity(self.ptr, as_id(slots, "slots")))

    def set_jointed_bodies_collide(self, collide: bool) -> None:
        """Whether the shapes of a joint's two bodies collide (default False)."""
        check(lib.maxdyn_builder_set_jointed_bodies_collide(self.ptr, 1 if collide else 0))

    @property
    def shape_count(self) -> int:
        """Collision shapes added so far."""
        return count(lib.maxdyn_builder_get_shape_count, self.ptr)

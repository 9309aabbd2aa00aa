"""Model: a compiled, immutable mechanism with its names and structure."""

from __future__ import annotations

import ctypes
from typing import List, Tuple

import numpy as np

from ._lib import _handle, _i32, _size, lib
from ._util import Dimensioned, Handle, as_id, count, double, name_arg, out
from .builder import Builder
from .errors import check

__all__ = ["Model"]


class Model(Handle, Dimensioned):
    """A compiled mechanism (immutable, shared by its sims); the builder may be closed
    afterwards. Names and structure are kept."""

    _free = lib.maxdyn_model_free

    def __init__(self, builder: Builder) -> None:
        p = _handle()
        check(lib.maxdyn_model_new(builder.ptr, ctypes.byref(p)))
        super().__init__(p)

    def __repr__(self) -> str:
        if self.closed:
            return "<maxdyn.Model closed>"
        return (f"<maxdyn.Model bodies={self.body_count} joints={self.joint_count} dof={self.dof} "
                f"contacts={self.contact_count} loops={self.loop_count}>")

    @property
    def body_count(self) -> int:
        """Bodies of the model."""
        return count(lib.maxdyn_model_get_body_count, self.ptr)

    @property
    def joint_count(self) -> int:
        """Joints of the model."""
        return count(lib.maxdyn_model_get_joint_count, self.ptr)

    @property
    def dof(self) -> int:
        """Every joint's free directions together (nu; mass_matrix is nv = dof + 6 per
        floating base)."""
        return sum(self.joint_dof(j) for j in range(self.joint_count))

    def dimensions(self) -> Tuple[int, int, int]:
        """(nq, nv, nu): configuration entries (7 per floating base: position, quaternion
        w x y z; then every joint's coordinates), generalized velocities (6 per floating
        base, then every joint's), joint inputs. A floating base is a body no joint places."""
        nq, nv, nu = _size(), _size(), _size()
        check(lib.maxdyn_model_get_dimensions(self.ptr, ctypes.byref(nq), ctypes.byref(nv), ctypes.byref(nu)))
        return nq.value, nv.value, nu.value

    def shapes_may_collide(self, shape_a: int, shape_b: int) -> bool:
        """Whether two collision shapes may touch: filters, bodies, joints and excluded
        pairs (an SRDF's among them; docs/COLLISION.md)."""
        result = _i32()
        check(lib.maxdyn_model_get_shapes_may_collide(self.ptr, as_id(shape_a, "shape_a"), as_id(shape_b, "shape_b"),
                                                      ctypes.byref(result)))
        return result.value == 1

    def joint_dof(self, joint: int) -> int:
        """Free directions (minimal coordinates) of a joint."""
        return count(lib.maxdyn_model_get_joint_dof, self.ptr, as_id(joint, "joint"))

    @property
    def contact_count(self) -> int:
        """Contacts described point by point (not collision shapes)."""
        return count(lib.maxdyn_model_get_contact_count, self.ptr)

    @property
    def contact_capacity(self) -> int:
        """Most contact slots between collision shapes a step may hold (0 without shapes)."""
        return count(lib.maxdyn_model_get_contact_capacity, self.ptr)

    @property
    def loop_count(self) -> int:
        """Independent kinematic loops closed by the joints."""
        return count(lib.maxdyn_model_get_loop_count, self.ptr)

    # --- names and structure (kept after the builder is closed)
    def _name(self, what: str, id: int) -> str:
        fn = getattr(lib, f"maxdyn_model_get_{what}_name")
        n = _size()
        check(fn(self.ptr, id, None, 0, ctypes.byref(n)))
        buf = ctypes.create_string_buffer(n.value + 1)
        check(fn(self.ptr, id, buf, len(buf), ctypes.byref(n)))
        return buf.value.decode()

    def body_name(self, body: int) -> str:
        """The body's name ("" if unnamed; URDF: the link name)."""
        return self._name("body", as_id(body, "body"))

    def joint_name(self, joint: int) -> str:
        """The joint's name ("" if unnamed)."""
        return self._name("joint", as_id(joint, "joint"))

    def frame_name(self, frame: int) -> str:
        """The frame's name."""
        return self._name("frame", as_id(frame, "frame"))

    @property
    def body_names(self) -> List[str]:
        """Every body's name, by id."""
        return [self.body_name(i) for i in range(self.body_count)]

    @property
    def joint_names(self) -> List[str]:
        """Every joint's name, by id."""
        return [self.joint_name(j) for j in range(self.joint_count)]

    @property
    def frame_names(self) -> List[str]:
        """Every frame's name, by id."""
        return [self.frame_name(f) for f in range(self.frame_count)]

    def find_body(self, name: str) -> int:
        """Id of the body named `name` (the lowest if several are); MaxdynError
        (MAXDYN_STATUS_UNKNOWN_BODY) if none is."""
        return count(lib.maxdyn_model_find_body, self.ptr, name_arg(name))

    def find_joint(self, name: str) -> int:
        """Id of the joint named `name`; MaxdynError (UNKNOWN_JOINT) if none is."""
        return count(lib.maxdyn_model_find_joint, self.ptr, name_arg(name))

    def find_frame(self, name: str) -> int:
        """Id of the frame named `name`; MaxdynError (UNKNOWN_FRAME) if none is."""
        return count(lib.maxdyn_model_find_frame, self.ptr, name_arg(name))

    def joint_type(self, joint: int) -> int:
        """One of FIXED … UNIVERSAL."""
        return count(lib.maxdyn_model_get_joint_type, self.ptr, as_id(joint, "joint"))

    def joint_parent(self, joint: int) -> int:
        """The parent body's id, WORLD for the world."""
        return count(lib.maxdyn_model_get_joint_parent, self.ptr, as_id(joint, "joint"))

    def joint_child(self, joint: int) -> int:
        """The child body's id."""
        return count(lib.maxdyn_model_get_joint_child, self.ptr, as_id(joint, "joint"))

    def body_mass(self, body: int) -> float:
        """The body's mass (kg)."""
        return double(lib.maxdyn_model_get_body_mass, self.ptr, as_id(body, "body"))

    def body_inertia(self, body: int) -> np.ndarray:
        """3x3 array about the centre of mass, in the body frame."""
        j, ptr = out(9)
        check(lib.maxdyn_model_get_body_inertia(self.ptr, as_id(body, "body"), ptr))
        return j.reshape(3, 3)

    @property
    def frame_count(self) -> int:
        """Named frames (URDF: every link, merged ones included)."""
        return count(lib.maxdyn_model_get_frame_count, self.ptr)

    def frame_body(self, frame: int) -> int:
        """The body the frame is fixed to, WORLD for the world."""
        return count(lib.maxdyn_model_get_frame_body, self.ptr, as_id(frame, "frame"))

    def frame_pose(self, frame: int) -> np.ndarray:
        """Position (3, body frame) + unit quaternion (w, x, y, z) relative to its body."""
        p, ptr = out(7)
        check(lib.maxdyn_model_get_frame_pose(self.ptr, as_id(frame, "frame"), ptr))
        return p

    @property
    def limit_count(self) -> int:
        """Bounded joint coordinates."""
        return count(lib.maxdyn_model_get_limit_count, self.ptr)

    def joint_limits(self, joint: int) -> Tuple[np.ndarray, np.ndarray]:
        """(lower, upper), one value per free direction; -inf / inf where free."""
        n = self.joint_dof(joint)
        (lo, lo_ptr), (hi, hi_ptr) = out(n), out(n)
        check(lib.maxdyn_model_get_joint_limits(self.ptr, as_id(joint, "joint"), lo_ptr, hi_ptr, n))
        return lo, hi

    @property
    def mimic_count(self) -> int:
        """Mimic rules."""
        return count(lib.maxdyn_model_get_mimic_count, self.ptr)

    def mimic(self, mimic: int) -> Tuple[int, int, float, float]:
        """(follower, leader, multiplier, offset)."""
        f, l, k, c = _i32(), _i32(), ctypes.c_double(), ctypes.c_double()
        check(lib.maxdyn_model_get_mimic(self.ptr, as_id(mimic, "mimic"), ctypes.byref(f), ctypes.byref(l),
                                         ctypes.byref(k), ctypes.byref(c)))
        return f.value, l.value, k.value, c.value

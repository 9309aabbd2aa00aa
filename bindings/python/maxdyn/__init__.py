"""maxdyn from Python through ctypes (no compiled extension; numpy arrays in and out).

The shared library is, in this order: the file named by the environment variable
MAXDYN_LIBRARY (or its older name MAXDYN_LIB), the one the wheel carries
(maxdyn/libmaxdyn.so, put there by `pip install`), the repository's target/release or
target/debug (when run from a checkout), else an installed libmaxdyn on the system's
library path (scripts/install.sh).

Every vector or matrix comes back as a float64 numpy array; any sequence of numbers (a
list, a numpy array) goes in. Ids are ints: anything else raises a TypeError naming the
argument. Properties are what an object has (counts, settings, the clock); methods
compute from the current state or the last step, or take arguments (sim.py).

Every C call returns a status; `check(status)` raises `MaxdynError` with the
library's last error message when it is not 0. Objects free their C handle when
garbage-collected, on `close()`, or at the end of a `with` block.

    import maxdyn
    with maxdyn.Builder() as b:
        body = b.add_body(1.0, [0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1])
        joint = b.add_joint(maxdyn.REVOLUTE, maxdyn.WORLD, body, [0, 0, 0], [0, 0, 1], [1, 0, 0])
        model = maxdyn.Model(b)
    sim = maxdyn.Sim(model, 0.01)
    sim.set_joint_position(joint, [1.0])
    sim.step(100)
    print(sim.energy(), sim.constraint_violation())

Modules: _lib (loading, C declarations), errors, constants, builder, model, sim and
queries, batch, record, rollouts (and distributed, on Ray, imported on its own); this one re-exports their public names.
"""

from ._lib import HAS_URDF, lib as _cdll
from ._lib import LIBRARY_PATH as MAXDYN_LIBRARY_PATH
from ._structs import ShapeContact, SolverOptions, StepStats
from .batch import Batch
from .builder import Builder
from .constants import (AXES_LOCAL, AXES_WORLD, BODY_STATE_SIZE, CONE_LINEAR, CONE_NONLINEAR, CONTACT_SIZE,
                        COORDS_MAXIMAL, COORDS_MINIMAL, CYLINDRICAL, CYLINDRICAL_FREE, FIXED, FIXED_ORIENTATION,
                        FLOATING, FREE_REVOLUTE, INTEGRATOR_FIRST_ORDER, INTEGRATOR_FOURTH_ORDER, INTEGRATOR_SECOND_ORDER, JOINT_TOLERANCE, PLANAR, PLANAR_AXIS, PLANAR_FREE, PRISMATIC,
                        REVOLUTE, SHAPE_BOX, SHAPE_CAPSULE, SHAPE_CYLINDER, SHAPE_HEIGHTFIELD, SHAPE_HULL, SHAPE_MAX_SIZE, SHAPE_PLANE, SHAPE_SPHERE, SHAPE_TRIMESH,
                        SPHERICAL, UNIVERSAL, WORLD)
from .errors import MaxdynError, check, status_string
from .model import Model
from .record import Recorder
from .rollouts import Observation, RolloutResult, RolloutWorker, UrdfModel
from .sim import Sim

__all__ = [
    "MaxdynError", "check", "status_string", "version", "live_objects", "Builder", "Model", "Sim", "Batch",
    "Recorder", "RolloutWorker", "RolloutResult", "Observation", "UrdfModel", "StepStats", "SolverOptions", "ShapeContact", "WORLD", "BODY_STATE_SIZE", "CONTACT_SIZE",
    "JOINT_TOLERANCE", "INTEGRATOR_FIRST_ORDER", "INTEGRATOR_SECOND_ORDER", "INTEGRATOR_FOURTH_ORDER", "FIXED", "PRISMATIC", "PLANAR", "FIXED_ORIENTATION", "REVOLUTE", "CYLINDRICAL",
    "PLANAR_AXIS", "FREE_REVOLUTE", "SPHERICAL", "CYLINDRICAL_FREE", "PLANAR_FREE", "FLOATING", "UNIVERSAL",
    "CONE_LINEAR", "CONE_NONLINEAR", "SHAPE_PLANE", "SHAPE_SPHERE", "SHAPE_CAPSULE", "SHAPE_BOX",
    "SHAPE_CYLINDER", "SHAPE_HULL", "SHAPE_HEIGHTFIELD", "SHAPE_TRIMESH", "SHAPE_MAX_SIZE", "AXES_WORLD", "AXES_LOCAL", "COORDS_MINIMAL", "COORDS_MAXIMAL", "HAS_URDF",
    "MAXDYN_LIBRARY_PATH",
]


def version() -> str:
    """The library's version (maxdyn_version), e.g. "0.3.0"."""
    return _cdll.maxdyn_version().decode()


def live_objects() -> int:
    """Builders, models, sims, batches and recorders created and not yet freed (for leak checks)."""
    return _cdll.maxdyn_debug_live_objects()

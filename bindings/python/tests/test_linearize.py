"""Issue 13 from Python: Sim.linearize / linearize_differences return numpy (A, B), and the
LQR example (bindings/python/examples/lqr_double_pendulum.py) holds the inverted double
pendulum on a cart upright for 10 s from a 0.05 rad push, as the C example does."""

import importlib.util
import os

import numpy as np
import pytest

import maxdyn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def load_example():
    path = os.path.join(HERE, "..", "examples", "lqr_double_pendulum.py")
    spec = importlib.util.spec_from_file_location("lqr_double_pendulum", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def swinging_double_pendulum():
    """Two 1 kg boxes on 1 m links, revolute about x, link 1 at 0.4 rad, an input on joint 2."""
    with maxdyn.Builder() as b:
        box = np.eye(3) / 600
        b1, b2 = b.add_body(1.0, box), b.add_body(1.0, box)
        j1 = b.add_joint(maxdyn.REVOLUTE, maxdyn.WORLD, b1, [0, 0, 0], [0, 0, 1], [1, 0, 0])
        j2 = b.add_joint(maxdyn.REVOLUTE, b1, b2, [0, 0, 0], [0, 0, 1], [1, 0, 0])
        model = maxdyn.Model(b)
    sim = maxdyn.Sim(model, 0.01)
    sim.set_joint_position(j1, [0.4])
    sim.set_joint_input(j2, [0.1])
    sim.step(3)
    return sim


def test_linearize_shapes_coords_and_errors():
    sim = swinging_double_pendulum()
    before = sim.state()
    a, b = sim.linearize("minimal")
    assert isinstance(a, np.ndarray) and a.dtype == np.float64 and a.shape == (4, 4) and b.shape == (4, 2)
    assert sim.state_dimensions("minimal") == (4, 2) and sim.state_dimensions("maximal") == (26, 12)
    am, bm = sim.linearize("maximal")
    assert am.shape == (26, 26) and bm.shape == (26, 12)
    # the integer constants work too, and give the same matrices
    a2, b2 = sim.linearize(maxdyn.Sim.COORDS_MINIMAL)
    assert np.array_equal(a, a2) and np.array_equal(b, b2)
    # the sim is not advanced
    assert np.array_equal(sim.state(), before)
    # central differences with a larger step agree (measured 2.4e-8 (A), 3.6e-7 (B) relative)
    ad, bd = sim.linearize_differences("minimal", 1e-4)
    assert np.abs(ad - a).max() <= 1e-5 * np.abs(a).max(), np.abs(ad - a).max()
    assert np.abs(bd - b).max() <= 1e-5 * np.abs(b).max(), np.abs(bd - b).max()
    with pytest.raises(ValueError, match="minimal"):
        sim.linearize("reduced")
    with pytest.raises(maxdyn.MaxdynError) as e:
        sim.linearize(7)
    assert e.value.status == 10 and "`coords`" in e.value.message  # MAXDYN_STATUS_INVALID_ENUM
    with pytest.raises(maxdyn.MaxdynError) as e:
        sim.linearize_differences("minimal", -1.0)
    assert e.value.status == 12 and "`h`" in e.value.message  # MAXDYN_STATUS_INVALID_ARGUMENT
    with pytest.raises(TypeError, match="h"):
        sim.linearize_differences("minimal", "small")
    assert np.array_equal(sim.state(), before)
    sim.close()


def test_linearize_refuses_minimal_coordinates_of_a_loop():
    with maxdyn.Builder.from_urdf(os.path.join(ROOT, "tests", "fixtures", "fourbar_cd_loopjoint.urdf")) as fb:
        sim = maxdyn.Sim(maxdyn.Model(fb), 0.01)
    with pytest.raises(maxdyn.MaxdynError) as e:
        sim.linearize("minimal")
    assert e.value.status == 12 and "loop" in e.value.message, e.value
    assert sim.state_dimensions("maximal") == (52, 24)
    sim.close()


def test_lqr_example_holds_the_cart_double_pendulum_upright():
    """The bars of tests/lqr.rs (the C example): worst tilt 6.613299e-2 rad, final state
    as measured there (measured: the numpy Riccati iteration's gain is the C one's to
    4e-13 relative, the final state to 1e-13)."""
    lqr = load_example()
    res = lqr.run(push=0.05, steps=1000)
    print(f"python LQR: worst tilt {res['worst_tilt']:.6e} rad, final state {res['final_state']}, "
          f"{res['iterations']} Riccati iterations, gain {res['gain']}")
    assert abs(res["time"] - 10.0) < 1e-9
    assert abs(res["worst_tilt"] - 6.613299e-2) <= 1e-6
    final = np.array([2.319497e-4, -9.185919e-6, 3.214476e-7, -1.859028e-4, -1.812768e-6, -4.752437e-7])
    assert (np.abs(res["final_state"] - final) <= 1e-7 + 4e-4 * np.abs(final)).all(), res["final_state"]
    assert np.abs(res["final_state"]).max() <= 2.5e-4
    # the closed loop of the linearization is stable: spectral radius below 1
    k = res["gain"].reshape(1, 6)
    radius = np.abs(np.linalg.eigvals(res["a"] - res["b"][:, :1] @ k)).max()
    assert radius < 0.999, radius
    assert lqr.main(["lqr", "0.05", "1000"]) == 0
    assert lqr.main(["lqr", "0.3", "1000"]) == 1  # a rod tilts past 0.2 rad

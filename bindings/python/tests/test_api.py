"""The package as a robotics user expects it (issue 26): every public callable has a
docstring and type hints, every array comes back as a numpy array, the main objects
have a repr, recordings for the viewer, files under 500 lines, and the READMEs' Python
snippets run."""

import gc
import inspect
import json
import os
import re

import numpy as np
import pytest

import maxdyn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def public_callables():
    """(label, function, is_method) for every public function and every public method,
    property, classmethod and __init__ of the package's public classes."""
    found = []
    for name in maxdyn.__all__:
        obj = getattr(maxdyn, name)
        if inspect.isfunction(obj):
            found.append((name, obj, False))
        if not inspect.isclass(obj):
            continue
        for klass in obj.__mro__:
            if not klass.__module__.startswith("maxdyn"):
                continue
            for member, raw in vars(klass).items():
                if member.startswith("_") and member != "__init__":
                    continue
                fn = raw.fget if isinstance(raw, property) else getattr(raw, "__func__", raw)
                if inspect.isfunction(fn):
                    found.append((f"{name}.{member}", fn, True))
    return found


def test_every_public_callable_has_a_docstring_and_type_hints():
    callables = public_callables()
    assert len(callables) > 150, len(callables)
    missing_doc, missing_hints = [], []
    for label, fn, is_method in callables:
        if not (fn.__doc__ or "").strip() and not label.endswith("__init__"):
            missing_doc.append(label)
        sig = inspect.signature(fn)
        params = list(sig.parameters.values())[1 if is_method else 0:]
        if sig.return_annotation is inspect.Signature.empty or any(p.annotation is inspect.Parameter.empty for p in params):
            missing_hints.append(label)
    assert not missing_doc, f"no docstring: {missing_doc}"
    assert not missing_hints, f"no type hints: {missing_hints}"
    # the classes themselves are documented too
    for name in maxdyn.__all__:
        obj = getattr(maxdyn, name)
        if inspect.isclass(obj):
            assert (obj.__doc__ or "").strip(), name


def test_the_package_is_typed_and_split_into_small_files():
    here = os.path.dirname(maxdyn.__file__)
    assert os.path.isfile(os.path.join(here, "py.typed"))
    sizes = {}
    for f in sorted(os.listdir(here)):
        if f.endswith(".py"):
            with open(os.path.join(here, f)) as src:
                sizes[f] = len(src.read().splitlines())
    print(sizes)
    assert {"_lib.py", "builder.py", "model.py", "sim.py", "batch.py", "record.py", "errors.py"} <= set(sizes)
    assert max(sizes.values()) < 500, sizes


def arm():
    """Two links on revolutes, a frame on the second, a ground contact."""
    with maxdyn.Builder() as b:
        b1 = b.add_body(1.0, np.eye(3) / 600)
        b2 = b.add_body(1.0, np.eye(3) / 600)
        j1 = b.add_joint(maxdyn.REVOLUTE, maxdyn.WORLD, b1, [0, 0, 2], [0, 0, 0.5], [1, 0, 0])
        j2 = b.add_joint(maxdyn.REVOLUTE, b1, b2, [0, 0, -0.5], [0, 0, 0.5], [1, 0, 0])
        b.set_joint_limits(j1, [-2.0], [2.0])
        b.add_ground_contact(b2, [0, 0, -0.5])
        b.add_frame("tip", b2, [0, 0, -0.5, 1, 0, 0, 0])
        model = maxdyn.Model(b)
    sim = maxdyn.Sim(model, 0.01)
    sim.set_joint_position(j1, [0.3])
    sim.set_joint_velocity(j2, [0.2])
    return model, sim, (b1, b2), (j1, j2)


def array_results():
    """Every array-returning call of the package, on the arm: label → result."""
    with maxdyn.Builder() as b:
        gravity = b.gravity
    model, sim, (b1, b2), (j1, j2) = arm()
    sim.step(2)
    batch = maxdyn.Batch(model, 2, 0.01, threads=1)
    results = {
        "Builder.gravity": gravity,
        "Model.body_inertia": model.body_inertia(b1),
        "Model.frame_pose": model.frame_pose(0),
        "Model.joint_limits": model.joint_limits(j1),
        "Sim.body_state": sim.body_state(b1),
        "Sim.body_states": sim.body_states(),
        "Sim.state": sim.state(),
        "Sim.joint_position": sim.joint_position(j1),
        "Sim.joint_velocity": sim.joint_velocity(j1),
        "Sim.joint_input": sim.joint_input(j1),
        "Sim.joint_target": sim.joint_target(j1),
        "Sim.contact": sim.contact(0),
        "Sim.limit": sim.limit(0),
        "Sim.frame_pose": sim.frame_pose(0),
        "Sim.point_pose": sim.point_pose(b2, [0, 0, -0.5]),
        "Sim.frame_velocity": sim.frame_velocity(0),
        "Sim.point_velocity": sim.point_velocity(b2),
        "Sim.frame_jacobian": sim.frame_jacobian(0),
        "Sim.point_jacobian": sim.point_jacobian(b2, coords="maximal"),
        "Sim.mass_matrix": sim.mass_matrix(),
        "Sim.bias_forces": sim.bias_forces([0.1, 0.2]),
        "Sim.inverse_dynamics": sim.inverse_dynamics([0.1, 0.2], [1.0, 0.0]),
        "Sim.minimal_velocities": sim.minimal_velocities(),
        "Sim.configuration": sim.configuration(),
        "Sim.generalized_velocity": sim.generalized_velocity(),
        "Sim.joint_inputs": sim.joint_inputs(),
        "Sim.joint_targets": sim.joint_targets(),
        "Sim.linearize": sim.linearize(),
        "Sim.linearize_differences": sim.linearize_differences(),
        "Batch.body_states": batch.body_states(),
        "Observation.bodies": maxdyn.Observation(sim.configuration()[None], sim.generalized_velocity()[None], sim.time,
                                                 lambda: sim.body_states()[None]).bodies,
    }
    batch.close()
    return results


def test_every_array_returning_call_returns_numpy():
    results = array_results()
    for label, value in results.items():
        arrays = [v for v in (value if isinstance(value, tuple) else (value,)) if not isinstance(v, float)]
        assert arrays and all(isinstance(a, np.ndarray) and a.dtype == np.float64 for a in arrays), (label, value)
    shapes = {k: v.shape for k, v in results.items() if isinstance(v, np.ndarray)}
    assert shapes["Sim.mass_matrix"] == (2, 2) and shapes["Sim.frame_jacobian"] == (6, 2)
    assert shapes["Sim.point_jacobian"] == (6, 12) and shapes["Sim.frame_pose"] == (7,)
    # the list above is complete: every callable whose annotation names an ndarray is in it
    annotated = {label.replace(".fget", "") for label, fn, _ in public_callables()
                 if "ndarray" in str(inspect.signature(fn).return_annotation)}
    assert annotated <= set(results), f"array-returning callables missing from the check: {annotated - set(results)}"
    # and no public callable returns numbers in a list
    lists = [label for label, fn, _ in public_callables() if "List[float]" in str(inspect.signature(fn).return_annotation)]
    assert not lists, lists


def test_the_main_objects_have_a_repr():
    model, sim, _, _ = arm()
    with maxdyn.Builder() as b:
        b.add_body(1.0, np.eye(3))
        assert repr(b) == "<maxdyn.Builder bodies=1 joints=0 contacts=0 shapes=0>"
    assert repr(b) == "<maxdyn.Builder closed>"
    assert repr(model) == "<maxdyn.Model bodies=2 joints=2 dof=2 contacts=1 loops=0>"
    sim.step(3)
    assert repr(sim) == "<maxdyn.Sim bodies=2 dof=2 dt=0.01 time=0.03 steps=3>"
    batch = maxdyn.Batch(model, 3, 0.01, threads=1)
    assert repr(batch) == "<maxdyn.Batch sims=3 threads=1 bodies=2>"
    assert repr(batch.sims[0]).startswith("<maxdyn._BatchSim bodies=2 dof=2")
    assert repr(sim.step_stats()).startswith("StepStats(iterations=")
    assert repr(maxdyn.SolverOptions()).startswith("SolverOptions(tolerance=")
    batch.close()


def test_recording_from_python(tmp_path):
    """A recording the viewer plays: the model once, then a frame per add_frame (time,
    every body's pose, the contacts); errors name their cause; nothing is leaked."""
    gc.collect()
    live = maxdyn.live_objects()
    model, sim, _, _ = arm()
    path = tmp_path / "arm.json"
    with maxdyn.Recorder(sim, path) as rec:
        rec.add_frame()
        sim.step(10)
        rec.add_frame(sim)
        rec.record(20, every=4)                   # 5 more frames
        assert rec.frame_count == 7
    assert rec.closed and "frames=7 closed" in repr(rec)
    rec.close()                                   # idempotent
    with open(path) as f:
        data = json.load(f)
    assert data["format"] and len(data["bodies"]) == 2
    frames = data["frames"]
    assert [round(fr["t"], 9) for fr in frames] == [0.0, 0.1, 0.14, 0.18, 0.22, 0.26, 0.3]
    assert len(frames[0]["x"]) == 6 and len(frames[0]["q"]) == 8   # two bodies
    # x of the second body at the first frame: below the first, from the joint tree
    assert abs(frames[-1]["x"][2] - sim.body_state(0)[2]) < 1e-12
    # another model's sim, a path that cannot be created
    other = maxdyn.Sim(arm()[0], 0.01)
    with maxdyn.Recorder(sim, tmp_path / "b.json") as rec2:
        with pytest.raises(maxdyn.MaxdynError) as e:
            rec2.add_frame(other)
        assert e.value.status == 12                # MAXDYN_STATUS_INVALID_ARGUMENT
    with pytest.raises(maxdyn.MaxdynError) as e:
        maxdyn.Recorder(sim, tmp_path / "no-such-dir" / "c.json")
    assert e.value.status == 12 and "no-such-dir" in e.value.message
    rec3 = maxdyn.Recorder(sim, tmp_path / "d.json")
    with pytest.raises(ValueError, match="every >= 1"):
        rec3.record(5, every=0)
    rec3.close()
    del model, sim, other, rec, rec2, rec3, e
    gc.collect()
    assert maxdyn.live_objects() == live


def python_blocks(path, section=None):
    """The ```python blocks of a Markdown file (within `section`'s heading, if given)."""
    with open(path) as f:
        text = f.read()
    if section:
        text = text.split(section, 1)[1]
        text = re.split(r"\n## ", text, maxsplit=1)[0]
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_the_package_readme_snippets_run(tmp_path, monkeypatch, capsys):
    blocks = python_blocks(os.path.join(ROOT, "bindings", "python", "README.md"))
    assert len(blocks) >= 5
    monkeypatch.chdir(tmp_path)
    namespace = {}
    for block in blocks:
        exec(compile(block, "README.md", "exec"), namespace)
    out = capsys.readouterr().out
    assert "<maxdyn.Model bodies=1 joints=1 dof=1 contacts=0 loops=0>" in out
    assert "frames=41 closed>" in out
    assert namespace["statuses"] == [0] * 8 and namespace["states"].shape == (8, 1, 13)


def test_the_bindings_readme_python_snippets_run(tmp_path, monkeypatch):
    blocks = python_blocks(os.path.join(ROOT, "bindings", "README.md"), "## Python")
    assert len(blocks) == 2, len(blocks)
    monkeypatch.chdir(tmp_path)
    namespace = {}
    for block in blocks:
        exec(compile(block, "bindings/README.md", "exec"), namespace)
    assert namespace["statuses"] == [0] * 64 and namespace["states"].shape == (64, 1, 13)

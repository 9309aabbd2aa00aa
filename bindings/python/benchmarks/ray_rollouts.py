"""Rollouts on Ray against a local Batch on this machine (issue 28's bar: Ray at most
1.3x the local time), and what the numbers of docs/RAY.md come from.

    python ray_rollouts.py [--rollouts 1000] [--seconds 1] [--repeats 3] [--threads 2]

Both sides run the same rollouts (the A1 trot of examples/a1_trot.py with perturbed
gaits, 1 s each) with the same threads: locally one RolloutWorker (a Batch over
`threads` threads, the policy evaluated once per step for all of them); on Ray a local
Ray instance of `threads` CPUs with one actor per CPU (one thread each). Prints each
side's wall times, their medians and the ratio, checks the results are identical, then
the costs a cluster adds: an actor's start (the model shipped and compiled), the bytes
of the model, the policy and a rollout's result."""

from __future__ import annotations

import argparse
import os
import pickle
import statistics
import sys
import time

import numpy as np
import ray

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "examples"))
try:
    import maxdyn
except ImportError:  # run from a checkout
    sys.path.insert(0, os.path.join(HERE, ".."))
    import maxdyn
from maxdyn.distributed import RayRollouts

import a1_trot  # noqa: E402
from a1_trot import DT, LEARNED, GaitPolicy, a1_model, distance, fallen, standing_states  # noqa: E402

ray.cloudpickle.register_pickle_by_value(a1_trot)
# Ray runs its workers at nice 15 (RAY_worker_niceness) and the driver at 0: on a busy
# machine that alone would slow the actors against the local run, so both run at 0
os.environ.setdefault("RAY_worker_niceness", "0")


def callback_cost(spec: maxdyn.UrdfModel, threads: int, n: int = 64, steps: int = 200) -> None:
    """The gait as a per-sim Python callback of Batch.step (it runs under the GIL, one sim
    at a time) against the vectorized policy of RolloutWorker, CPU per sim-step."""
    gaits = np.array(LEARNED) + 0.002 * np.random.default_rng(2).standard_normal((n, 5))
    worker = maxdyn.RolloutWorker(spec, DT, threads=threads)
    states = standing_states(worker.model, gaits)
    t0 = time.process_time()
    worker.run(states, gaits, GaitPolicy(), steps)
    vectorized = time.process_time() - t0
    bound = GaitPolicy().bind(worker.model)
    batch = maxdyn.Batch(worker.model, n, DT, threads)
    for i, sim in enumerate(batch.sims):
        sim.set_state(states[i])

    def control(i: int, sim: maxdyn.Sim) -> None:
        q, v = sim.configuration()[None, :], sim.generalized_velocity()[None, :]
        sim.set_joint_inputs(bound(gaits[i:i + 1], maxdyn.Observation(q, v, sim.time, lambda: None))[0])

    t0 = time.process_time()
    batch.step(steps, control)
    per_sim = time.process_time() - t0
    t0 = time.process_time()
    batch.step(steps)
    bare = time.process_time() - t0
    batch.close()
    worker.close()
    us = 1e6 / (n * steps)
    print(f"CPU per sim-step, {n} sims, {threads} threads: steps without control {bare * us:.0f} us; "
          f"gait as a per-sim Batch.step callback {per_sim * us:.0f} us; vectorized policy "
          f"(RolloutWorker) {vectorized * us:.0f} us")


def cluster_costs(rollouts: int, steps: int) -> None:
    """On a Ray cluster of two simulated nodes (ray.cluster_utils.Cluster, one CPU each):
    an actor's start, a chunk's round trip without steps, and the throughput."""
    from ray.cluster_utils import Cluster

    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    c.add_node(num_cpus=1)
    ray.init(address=c.address, log_to_driver=False)
    c.wait_for_nodes()
    spec = a1_model()
    gaits = np.array(LEARNED) + 0.002 * np.random.default_rng(3).standard_normal((rollouts, 5))
    model = spec()
    states = standing_states(model, gaits)
    model.close()
    t0 = time.perf_counter()
    pool = RayRollouts(spec, DT, actors=2, threads=1, chunk=1)
    ray.get([a.state_size.remote() for a in pool.actors])
    start = time.perf_counter() - t0
    trips = []
    for _ in range(20):
        t0 = time.perf_counter()
        pool.run(states[:2], gaits[:2], GaitPolicy(), 0)
        trips.append((time.perf_counter() - t0) / 1)
    pool.close()
    pool = RayRollouts(spec, DT, actors=2, threads=1)
    t0 = time.perf_counter()
    r = pool.run(states, gaits, GaitPolicy(), steps, stop=fallen, reward=distance)
    wall = time.perf_counter() - t0
    pool.close()
    ray.shutdown()
    c.shutdown()
    print(f"two simulated nodes of one CPU: 2 actors started in {start:.2f} s; a run of 2 chunks of 1 rollout "
          f"without steps: median {1e3 * statistics.median(trips):.1f} ms; {rollouts} rollouts of {steps} steps: "
          f"{wall:.2f} s ({rollouts / wall:.1f} rollouts/s, {(r.status != 0).sum()} failed)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rollouts", type=int, default=1000)
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--callback", action="store_true", help="only compare a per-sim callback with the vectorized policy")
    p.add_argument("--cluster", action="store_true", help="only the costs on two simulated nodes")
    a = p.parse_args()
    if a.callback:
        callback_cost(a1_model(), a.threads)
        return
    if a.cluster:
        cluster_costs(a.rollouts, round(a.seconds / DT))
        return
    steps = round(a.seconds / DT)
    spec = a1_model()
    gaits = np.array(LEARNED) + 0.002 * np.random.default_rng(1).standard_normal((a.rollouts, 5))
    model = spec()
    t0 = time.perf_counter()
    states = standing_states(model, gaits)
    prepare = time.perf_counter() - t0
    model.close()
    print(f"{a.rollouts} rollouts of {a.seconds:g} s of the A1 trot ({steps} steps each), {a.threads} threads, "
          f"{os.cpu_count()} cores on this machine")

    # the sides alternate within each repeat, so a change of the machine's load hits them alike
    ray.init(num_cpus=a.threads, include_dashboard=False, log_to_driver=False)
    local = maxdyn.RolloutWorker(spec, DT, threads=a.threads)
    shapes = ((a.threads, 1), (1, a.threads))  # Ray: actors x threads
    local_times: list = []
    ray_times: list = [[] for _ in shapes]
    expected, same, start = None, True, 0.0
    for _ in range(a.repeats):
        t0 = time.perf_counter()
        expected = local.run(states, gaits, GaitPolicy(), steps, stop=fallen, reward=distance)
        local_times.append(time.perf_counter() - t0)
        for k, (actors, threads) in enumerate(shapes):
            t0 = time.perf_counter()
            pool = RayRollouts(spec, DT, actors=actors, threads=threads)
            start = max(start, time.perf_counter() - t0)
            t0 = time.perf_counter()
            r = pool.run(states, gaits, GaitPolicy(), steps, stop=fallen, reward=distance)
            ray_times[k].append(time.perf_counter() - t0)
            pool.close()
            same = same and all(np.array_equal(getattr(r, n), getattr(expected, n))
                                for n in ("q", "v", "reward", "status", "steps"))
    local.close()
    ray.shutdown()
    rows = [("local RolloutWorker (one Batch)", local_times)]
    rows += [(f"Ray, {n} actor{'s' if n > 1 else ''} of {t} thread{'s' if t > 1 else ''}", ts)
             for (n, t), ts in zip(shapes, ray_times)]

    lm = statistics.median(local_times)
    print()
    print("| side | wall times [s] | median [s] | rollouts/s | rollouts/s per core | / local |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, ts in rows:
        m = statistics.median(ts)
        print(f"| {name} | {' '.join(f'{t:.2f}' for t in ts)} | {m:.2f} | {a.rollouts / m:.1f} | "
              f"{a.rollouts / m / a.threads:.1f} | {m / lm:.3f} |")
    print(f"\nbar: Ray / local <= 1.3; results identical to the local run: {same}")
    print(f"a pool started (its actors made, the model shipped and compiled in each; the slower pool): {start:.2f} s")
    print(f"model (URDF text and options) pickled: {len(pickle.dumps(spec))} bytes; policy, stop, reward: "
          f"{len(ray.cloudpickle.dumps((GaitPolicy(), fallen, distance)))} bytes; "
          f"initial state: {states.shape[1] * 8} bytes, parameters {gaits.shape[1] * 8} bytes per rollout")
    print(f"result: {expected.nbytes() / a.rollouts:.0f} bytes per rollout (final q, v, reward, status, steps)")
    print(f"the driver's initial states (standing_states): {1e3 * prepare / a.rollouts:.2f} ms per rollout")


if __name__ == "__main__":
    main()

"""Learns the paper's quadruped trot (its five gait parameters, examples/a1_trot.py) from
a random start with CMA-ES (the `cma` package), every generation's rollouts on Ray
(maxdyn.distributed.RayRollouts), then walks the best gait for 10 s against the paper's
learned one (19.2 m in the project's run).

    python learn_a1_gait.py            # the full run (docs/RESULTS.md has its number)
    python learn_a1_gait.py --quick    # a few small generations (the CI test)
    python learn_a1_gait.py --address auto   # on a running Ray cluster

The random start: the paper's standing start gait (0.1, 0, 1, 0, -1.5) moved by
0.1 N(0, 1) per parameter (seeded); the search stays in the box LOWER..UPPER. A candidate scores the distance its trunk walks in
an episode; one whose step fails or whose trunk falls scores -1 m."""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass
from typing import List, Optional, Tuple

import cma
import numpy as np
import ray

try:
    import maxdyn
except ImportError:  # run from a checkout
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import maxdyn
from maxdyn.distributed import RayRollouts

import a1_trot
from a1_trot import DT, LEARNED_DISTANCE_10_S, START, GaitPolicy, a1_model, distance, fallen, standing_states

# Ray's workers import maxdyn (installed) but not this directory: they get a1_trot by value
ray.cloudpickle.register_pickle_by_value(a1_trot)

FAILED = -1.0  # m: the score of a rollout that failed or fell
# The search box: the paper's gait family, a trot of up to 10 Hz (b <= 1) swinging thigh
# and calf by up to 1 rad about offsets in the legs' working range. Unbounded, CMA-ES
# finds a 57 Hz buzz with 8 rad calf swings (b 5.67, a_calf -8.1) that slides 44 m in
# 10 s: the scene's PD torques have no limit, and a vibration exploits that.
LOWER = (0.0, -1.0, 0.0, -1.0, -2.5)
UPPER = (1.0, 1.0, 2.0, 1.0, 0.0)


@dataclass(frozen=True)
class Settings:
    generations: int
    population: int
    episode: float  # s
    sigma: float  # CMA-ES's initial step size
    seed: int
    final: float  # s: the best gait's last walk


QUICK = Settings(generations=3, population=8, episode=0.5, sigma=0.1, seed=1, final=0.0)
FULL = Settings(generations=40, population=16, episode=2.0, sigma=0.1, seed=1, final=10.0)


def evaluate(pool: RayRollouts, model: maxdyn.Model, gaits: np.ndarray, seconds: float) -> np.ndarray:
    """Distance walked by each gait in `seconds` (FAILED if its step failed or it fell)."""
    r = pool.run(standing_states(model, gaits), gaits, GaitPolicy(), round(seconds / DT), stop=fallen,
                 reward=distance)
    return np.where((r.status == 0) & ~r.stopped, r.reward, FAILED)


def learn(s: Settings, pool: Optional[RayRollouts] = None,
          log: Optional[List[str]] = None) -> Tuple[float, float, np.ndarray]:
    """CMA-ES from the random start: (the start's distance, the best distance, the best
    gait), distances over an episode of s.episode. Uses `pool`, else a RayRollouts on
    the running Ray (ray.init first)."""
    spec = a1_model()
    own = pool is None
    pool = pool or RayRollouts(spec, DT)
    model = spec()
    try:
        rng = np.random.default_rng(s.seed)
        x0 = np.clip(np.array(START) + 0.1 * rng.standard_normal(5), np.array(LOWER) + 0.01, np.array(UPPER) - 0.01)
        start = float(evaluate(pool, model, x0[None, :], s.episode)[0])
        best, best_x = start, x0
        es = cma.CMAEvolutionStrategy(x0.tolist(), s.sigma, {"popsize": s.population, "seed": s.seed,
                                                             "bounds": [list(LOWER), list(UPPER)], "verbose": -9})
        for g in range(s.generations):
            xs = np.array(es.ask())
            t0 = time.perf_counter()
            d = evaluate(pool, model, xs, s.episode)
            es.tell(list(xs), (-d).tolist())
            if d.max() > best:
                best, best_x = float(d.max()), xs[int(np.argmax(d))]
            line = (f"generation {g + 1:3d}: best of {len(xs)} {d.max():8.4f} m, so far {best:8.4f} m, "
                    f"{(d == FAILED).sum()} failed or fell, {time.perf_counter() - t0:5.2f} s")
            if log is not None:
                log.append(line)
            print(line, flush=True)
        return start, best, best_x
    finally:
        model.close()
        if own:
            pool.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="a few small generations")
    p.add_argument("--address", default=None, help="a Ray cluster's address (default: start Ray here)")
    p.add_argument("--generations", type=int, default=None)
    p.add_argument("--seed", type=int, default=None)
    a = p.parse_args()
    s = QUICK if a.quick else FULL
    if a.generations is not None or a.seed is not None:
        s = Settings(a.generations or s.generations, s.population, s.episode, s.sigma,
                     s.seed if a.seed is None else a.seed, s.final)
    ray.init(address=a.address, log_to_driver=False)
    t0 = time.perf_counter()
    with RayRollouts(a1_model(), DT) as pool:
        start, best, gait = learn(s, pool)
        print(f"random start {start:.4f} m, learned {best:.4f} m in {s.episode:g} s episodes "
              f"({s.generations} generations of {s.population}, {time.perf_counter() - t0:.1f} s)")
        print("gait (b, a_thigh, d_thigh, a_calf, d_calf):", " ".join(f"{x:.4f}" for x in gait))
        if s.final:
            model = a1_model()()
            d = float(evaluate(pool, model, gait[None, :], s.final)[0])
            model.close()
            print(f"the learned gait walks {d:.4f} m in {s.final:g} s: {100 * d / LEARNED_DISTANCE_10_S:.1f} % "
                  f"of the paper's gait ({LEARNED_DISTANCE_10_S} m)")
    ray.shutdown()


if __name__ == "__main__":
    main()

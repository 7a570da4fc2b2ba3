"""Wall time of a genetic-tuner run on a local Ray of N worker CPUs (docs/python.md, "On a Ray
cluster"): Tactics' scenario agent, 2 generations of 4 tournaments of 10 genes (360 games of 300
iterations a move). Prints the seconds (Ray's start not counted) and a digest of the result, which
must be the same for every N.

    bindings/python/.venv/bin/python bindings/python/bench/ray_tune_speed.py --workers 2
"""

import argparse
import hashlib
import json
import time

import ray

import ply.distributed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--batch", type=int, default=ply.distributed.DEFAULT_TUNE_BATCH)
    args = parser.parse_args()
    ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False)
    started = time.perf_counter()
    result = ply.distributed.tune("tactics", "scenario", weights=8, min_weight=0.0, max_weight=3.0, population=40,
                                  tournaments=4, tournament_size=10, selected=2, children=6, mutants=2,
                                  generations=2, iters=300, seed=1, batch=args.batch)
    seconds = time.perf_counter() - started
    digest = hashlib.sha256(json.dumps(result, sort_keys=True).encode()).hexdigest()[:16]
    games = sum(g["games"] for g in result["generations"])
    print(f"{args.workers} workers: {games} games in {seconds:.2f} s, result {digest}, best {result['spec']}")


if __name__ == "__main__":
    main()

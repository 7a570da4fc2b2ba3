"""Environment steps per second on Connect Four: Ply's PettingZoo environment against
PettingZoo's own ``connect_four_v3``, side by side in one run, with the same random-policy loop
(observe with ``last()``, pick a random legal action from the mask, ``step``).

    bindings/python/.venv/bin/python bindings/python/bench/connect4_speed.py [--steps 200000]
"""

import argparse
import time

import numpy as np
from pettingzoo.classic import connect_four_v3

import ply.pettingzoo


def steps_per_second(env, steps, seed):
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    done = 0
    started = time.perf_counter()
    while done < steps:
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[rng.integers(len(legal))])
            env.step(action)
            done += 1
        env.reset()
    return done / (time.perf_counter() - started)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    theirs = steps_per_second(connect_four_v3.env(), args.steps, args.seed)
    ours = steps_per_second(ply.pettingzoo.env("connect4"), args.steps, args.seed)
    print(f"pettingzoo connect_four_v3: {theirs:12,.0f} steps/s")
    print(f"ply.pettingzoo connect4:    {ours:12,.0f} steps/s")
    print(f"ratio: {ours / theirs:.1f}x")


if __name__ == "__main__":
    main()

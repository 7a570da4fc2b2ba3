"""Matches and tournaments on Ray (https://www.ray.io): the games split into independent
batches, each a Ray task, gathered in index order and put together by the arena's own code, so
the result equals ``ply match``/``ply tournament`` with the same seed, bit for bit, however many
workers (only ``elapsed`` differs). Needs ``pip install ray`` and ``ply`` on every node.

    import ply.distributed
    ply.distributed.match("connect4", "mcts", "alphabeta", games=1000, seed=7, iters=2000)

or from a shell (``--address auto``: the cluster ``ray start`` made on this machine; none: a
local Ray with all cores)::

    python -m ply.distributed match connect4 mcts alphabeta --games 1000 --seed 7 --iters 2000
    python -m ply.distributed tournament pig mcts expectimax random --games 100 --address auto

A worker that dies is retried by Ray (``max_retries``); its batch is replayed from the same
seeds, so the result does not change. Ctrl-C cancels the outstanding tasks.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import ray

from . import _ply
from . import game as _game
from .errors import Error, SpecError

# A batch of this many games per task by default: with short games (a few ms each) the
# per-task overhead stays small, and 2 batches per worker at least balance the load.
DEFAULT_BATCH = 50


@ray.remote(max_retries=3)
def _play(game, first, second, pairing, start, end, run, fail_first):
    if fail_first is not None:
        # The tests' dying worker: the first attempt of this batch kills its process.
        marker = os.path.join(fail_first, f"{pairing}-{start}")
        if not os.path.exists(marker):
            open(marker, "w").close()
            os._exit(1)
    return _ply.play_batch(game, first, second, pairing, start, end, threads=1, **run)


def _init(address):
    if not ray.is_initialized():
        ray.init(address=address, log_to_driver=False) if address else ray.init(log_to_driver=False)


def _gather(refs, sizes, progress):
    """Waits for every task, drawing games done, rate and ETA; results in submission order."""
    total = sum(sizes)
    size_of = dict(zip(refs, sizes))
    pending = list(refs)
    done = 0
    started = time.monotonic()
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1, timeout=1.0)
            done += sum(size_of[r] for r in ready)
            if progress:
                elapsed = time.monotonic() - started
                rate = done / elapsed if elapsed > 0 else 0.0
                eta = (total - done) / rate if rate > 0 else float("inf")
                print(f"\r{done}/{total} games  {rate:.1f} games/s  ETA {eta:.0f} s ", end="", file=sys.stderr)
        if progress:
            print(file=sys.stderr)
        return ray.get(list(refs))
    except KeyboardInterrupt:
        for ref in refs:
            ray.cancel(ref, force=True)
        raise


def _batches(games, batch):
    return [(start, min(start + batch, games)) for start in range(0, games, batch)]


def _run(game, pairs, games, run, batch, address, progress, fail_first):
    """Plays ``games`` games of each pairing ``(pairing, first, second)``; records per pairing."""
    if games < 1:
        raise SpecError("--games must be at least 1")
    for _, first, second in pairs:
        # Checks the game, options, agents and budget here, with the CLI's messages, before
        # anything is sent to the cluster.
        _ply.play_batch(game, first, second, 0, 0, 0, threads=1, **run)
    _init(address)
    refs, sizes, owner = [], [], []
    for pairing, first, second in pairs:
        for start, end in _batches(games, batch):
            refs.append(_play.remote(game, first, second, pairing, start, end, run, fail_first))
            sizes.append(end - start)
            owner.append(pairing)
    results = _gather(refs, sizes, progress)
    per_pairing = {pairing: [] for pairing, _, _ in pairs}
    for pairing, text in zip(owner, results):
        per_pairing[pairing].append(text)
    return ["".join(per_pairing[pairing]) for pairing, _, _ in pairs]


def _resolve(game, options):
    if isinstance(game, str):
        return _game(game, options)
    return _game(game.name, options if options is not None else game.options)


def _run_options(seed, time_ms, iters, openings, options):
    return {"seed": seed, "time_ms": time_ms, "iters": iters, "openings": openings, "options": options}


def match(game, first, second, *, games=100, seed=1, time_ms=None, iters=None, openings=None, options=None,
          batch=DEFAULT_BATCH, address=None, progress=False, _fail_first=None):
    """``ply.match`` on Ray: the same dict, whatever the number of workers."""
    game = _resolve(game, options)
    run = _run_options(seed, time_ms, iters, openings, game.options)
    started = time.monotonic()
    (records,) = _run(game.name, [(0, first, second)], games, run, batch, address, progress, _fail_first)
    return _ply.assemble_match(game, first, second, records, time.monotonic() - started)


def tournament(game, agents, *, games=100, seed=1, time_ms=None, iters=None, openings=None, options=None,
               batch=DEFAULT_BATCH, address=None, progress=False, _fail_first=None):
    """``ply.tournament`` on Ray: the same dict, whatever the number of workers."""
    game = _resolve(game, options)
    agents = list(agents)
    if len(agents) < 2:
        raise SpecError("a tournament needs at least two agents")
    run = _run_options(seed, time_ms, iters, openings, game.options)
    pairs = [(k, agents[i], agents[j]) for k, (i, j) in enumerate(_ply.tournament_pairings(len(agents)))]
    started = time.monotonic()
    per_pairing = _run(game.name, pairs, games, run, batch, address, progress, _fail_first)
    return _ply.assemble_tournament(game, agents, per_pairing, time.monotonic() - started)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m ply.distributed", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name in ("match", "tournament"):
        sub = commands.add_parser(name)
        sub.add_argument("game")
        sub.add_argument("agents", nargs="+")
        sub.add_argument("--games", "-n", type=int, default=100)
        sub.add_argument("--seed", "-s", type=int, default=1)
        budget = sub.add_mutually_exclusive_group()
        budget.add_argument("--time", type=int)
        budget.add_argument("--iters", type=int)
        sub.add_argument("--openings", type=int)
        sub.add_argument("--options", "-o", default="")
        sub.add_argument("--batch", type=int, default=DEFAULT_BATCH, help="games per Ray task")
        sub.add_argument("--address", help="an existing Ray cluster (auto: the local one); default: a local Ray")
    args = parser.parse_args(argv)
    common = dict(games=args.games, seed=args.seed, time_ms=args.time, iters=args.iters, openings=args.openings,
                  options=args.options, batch=args.batch, address=args.address, progress=sys.stderr.isatty())
    try:
        if args.command == "match":
            if len(args.agents) != 2:
                parser.error("match takes two agents")
            report = match(args.game, *args.agents, **common)
        else:
            report = tournament(args.game, args.agents, **common)
    except Error as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

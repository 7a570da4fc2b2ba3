"""Matches, tournaments, free-for-alls and the genetic tuner on Ray (https://www.ray.io): the
games split into independent batches, each a Ray task, gathered in index order and put together
by the arena's own code, so the result equals ``ply match``/``tournament``/``ffa``/``tune`` with
the same seed, bit for bit, however many workers (only ``elapsed`` differs). Needs
``pip install ray`` and ``ply`` on every node.

    import ply.distributed
    ply.distributed.match("connect4", "mcts", "alphabeta", games=1000, seed=7, iters=2000)

or from a shell (``--address auto``: the cluster ``ray start`` made on this machine; none: a
local Ray with all cores)::

    python -m ply.distributed match connect4 mcts alphabeta --games 1000 --seed 7 --iters 2000
    python -m ply.distributed tournament pig mcts expectimax random --games 100 --address auto
    python -m ply.distributed ffa pig mcts expectimax random -o players=3 --games 300
    python -m ply.distributed tune connect4 alphabeta:depth=2 --weights 2 --generations 2

The tuner plays one generation at a time (the next generation's genes depend on this one's
results): its games are spread over the workers, and the generation is put together on the
driver in game order, checkpoint and all, exactly as ``ply tune`` does it.

A worker that dies is retried by Ray (``max_retries``); its batch is replayed from the same
seeds, so the result does not change. Ctrl-C cancels the outstanding tasks.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from os import PathLike
from typing import Any, Callable, Optional, Sequence, Union

import ray

from . import _ply
from . import game as _game
from .errors import Error, SpecError

# A batch of this many games per task by default: with short games (a few ms each) the
# per-task overhead stays small, and 2 batches per worker at least balance the load.
DEFAULT_BATCH = 50
# A tuning generation is a few hundred games at most (450 with the default schedule) and must
# all finish before the next starts: smaller batches keep every worker busy to its end.
DEFAULT_TUNE_BATCH = 10


def _maybe_die(fail_first, name):
    if fail_first is not None:
        # The tests' dying worker: the first attempt of this batch kills its process.
        marker = os.path.join(fail_first, name)
        if not os.path.exists(marker):
            open(marker, "w").close()
            os._exit(1)


@ray.remote(max_retries=3)
def _play(game, first, second, pairing, start, end, run, fail_first):
    _maybe_die(fail_first, f"{pairing}-{start}")
    return _ply.play_batch(game, first, second, pairing, start, end, threads=1, **run)


@ray.remote(max_retries=3)
def _play_ffa(game, agents, all_orders, start, end, run, fail_first):
    _maybe_die(fail_first, f"ffa-{start}")
    return _ply.play_ffa_batch(game, agents, start, end, all_orders=all_orders, threads=1, **run)


@ray.remote(max_retries=3)
def _play_tune(game, agent, param, jobs, budget, marker, fail_first):
    _maybe_die(fail_first, marker)
    return _ply.tune_games(game, agent, param, jobs, **budget)


def _init(address):
    if not ray.is_initialized():
        ray.init(address=address, log_to_driver=False) if address else ray.init(log_to_driver=False)


class _Progress:
    """Games done, rate and ETA on stderr, over one run (a tuning run gathers once a
    generation)."""

    def __init__(self, total, show):
        self.total, self.show, self.done = total, show, 0
        self.started = time.monotonic()
        self.label = ""

    def add(self, games):
        self.done += games
        if self.show:
            elapsed = time.monotonic() - self.started
            rate = self.done / elapsed if elapsed > 0 else 0.0
            eta = (self.total - self.done) / rate if rate > 0 else float("inf")
            print(f"\r{self.label}{self.done}/{self.total} games  {rate:.1f} games/s  ETA {eta:.0f} s ", end="",
                  file=sys.stderr)

    def end(self):
        if self.show:
            print(file=sys.stderr)


def _gather(refs, sizes, progress):
    """Waits for every task, counting its games on ``progress`` (a ``_Progress``, or a bool
    for a run of these tasks alone); results in submission order. Ctrl-C cancels them all."""
    own = not isinstance(progress, _Progress)
    if own:
        progress = _Progress(sum(sizes), progress)
    size_of = dict(zip(refs, sizes))
    pending = list(refs)
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1, timeout=1.0)
            progress.add(sum(size_of[r] for r in ready))
        if own:
            progress.end()
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


def ffa(game: Union[_ply.Game, str], agents: Sequence[str], *, all_orders: bool = False, games: int = 100,
        seed: int = 1, time_ms: Optional[int] = None, iters: Optional[int] = None, openings: Optional[int] = None,
        options: _ply.Options = None, batch: int = DEFAULT_BATCH, address: Optional[str] = None,
        progress: bool = False, _fail_first: Optional[str] = None) -> dict[str, Any]:
    """``ply.ffa`` on Ray (``ply ffa``): every agent at one table, seats rotated (every order
    with ``all_orders``), in whole rounds of games sharing their dice. Batches of ``batch``
    games run as Ray tasks; the dict is the one ``ply ffa --json`` prints with the same seed,
    whatever the number of workers (only ``elapsed`` differs)."""
    if batch < 1:
        raise SpecError("--batch must be at least 1")
    game = _resolve(game, options)
    agents = list(agents)
    run = _run_options(seed, time_ms, iters, openings, game.options)
    # Checks the game, options, agents and budget here, with the CLI's messages, before anything
    # is sent to the cluster; the run is whole rounds, so it may be more games than asked.
    total = _ply.ffa_games(game.name, agents, all_orders=all_orders, games=games, **run)
    _init(address)
    started = time.monotonic()
    spans = _batches(total, batch)
    refs = [_play_ffa.remote(game.name, agents, all_orders, start, end, run, _fail_first) for start, end in spans]
    records = _gather(refs, [end - start for start, end in spans], progress)
    return _ply.assemble_ffa(game, agents, all_orders, "".join(records), time.monotonic() - started)


def tune(game: Union[_ply.Game, str], agent: str, *, weights: int, param: str = "weights", population: int = 100,
         min_weight: float = 0.0, max_weight: float = 10.0, tournaments: int = 10, tournament_size: int = 10,
         selected: int = 3, children: int = 12, mutants: int = 3, generations: int = 4, seed: int = 1,
         time_ms: Optional[int] = None, iters: Optional[int] = None, options: _ply.Options = None,
         checkpoint: Union[str, PathLike[str], None] = None, resume: bool = False, batch: int = DEFAULT_TUNE_BATCH,
         address: Optional[str] = None, progress: bool = False,
         on_generation: Optional[Callable[[dict[str, Any], str], None]] = None,
         _fail_first: Optional[str] = None) -> dict[str, Any]:
    """``ply tune`` on Ray: evolves the weight vector ``param`` (``weights`` numbers in
    ``[min_weight, max_weight]``) of ``agent`` with the genetic tuner. Each generation's games
    run as Ray tasks of ``batch`` games; the generation is put together on the driver in game
    order, so the run is the one ``ply tune`` makes with the same seed, bit for bit. Returns the
    dict ``ply tune --json`` prints. ``checkpoint``/``resume`` are ``--checkpoint``/``--resume``
    (the same file format: either can go on from the other's). ``on_generation(report, line)``
    hears every generation, with the line ``ply tune`` prints for it (the checkpoint's first,
    when resuming). The defaults are the CLI's (the Risk document's schedule)."""
    if batch < 1:
        raise SpecError("--batch must be at least 1")
    game = _resolve(game, options)
    tuner = _ply.Tuner(game.name, agent, weights, param=param, population=population, min_weight=min_weight,
                       max_weight=max_weight, tournaments=tournaments, tournament_size=tournament_size,
                       selected=selected, children=children, mutants=mutants, generations=generations, seed=seed,
                       time_ms=time_ms, iters=iters, options=game.options, checkpoint=checkpoint, resume=resume)
    for report, line in zip(tuner.reports(), tuner.lines()):
        if on_generation is not None:
            on_generation(report, line)
    budget = {"time_ms": time_ms, "iters": iters, "options": game.options}
    total = tuner.games_left()
    if total:
        _init(address)
    shown = _Progress(total, progress)
    while (jobs := tuner.next_games()) is not None:
        shown.label = f"gen {len(tuner.reports()) + 1}/{generations}  "
        spans = _batches(len(jobs), batch)
        generation = len(tuner.reports())
        refs = [_play_tune.remote(game.name, agent, param, jobs[start:end], budget, f"tune-{generation}-{start}",
                                  _fail_first) for start, end in spans]
        results = _gather(refs, [end - start for start, end in spans], shown)
        report = tuner.finish([r for batch_results in results for r in batch_results])
        if on_generation is not None:
            if shown.show:
                print(file=sys.stderr)
            on_generation(report, tuner.lines()[-1])
    shown.end()
    return tuner.result()


def _run_arguments(sub):
    sub.add_argument("--games", "-n", type=int, default=100)
    sub.add_argument("--seed", "-s", type=int, default=1)
    budget = sub.add_mutually_exclusive_group()
    budget.add_argument("--time", type=int)
    budget.add_argument("--iters", type=int)
    sub.add_argument("--options", "-o", default="")
    sub.add_argument("--address", help="an existing Ray cluster (auto: the local one); default: a local Ray")


def _parser():
    parser = argparse.ArgumentParser(prog="python -m ply.distributed", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name in ("match", "tournament", "ffa"):
        sub = commands.add_parser(name)
        sub.add_argument("game")
        sub.add_argument("agents", nargs="+")
        _run_arguments(sub)
        sub.add_argument("--openings", type=int)
        sub.add_argument("--batch", type=int, default=DEFAULT_BATCH, help="games per Ray task")
        if name == "ffa":
            sub.add_argument("--all-orders", action="store_true", help="seat the agents in every order each round")
    sub = commands.add_parser("tune", help="the genetic tuner (ply tune); prints what ply tune prints")
    sub.add_argument("game")
    sub.add_argument("agent")
    sub.add_argument("--weights", type=int, required=True)
    sub.add_argument("--param", default="weights")
    sub.add_argument("--checkpoint")
    sub.add_argument("--resume", action="store_true")
    sub.add_argument("--json", action="store_true", help="print the result as ply tune --json does")
    for flag, kind, default in (("population", int, 100), ("min", float, 0.0), ("max", float, 10.0),
                                ("tournaments", int, 10), ("tournament-size", int, 10), ("selected", int, 3),
                                ("children", int, 12), ("mutants", int, 3), ("generations", int, 4)):
        sub.add_argument(f"--{flag}", type=kind, default=default)
    _run_arguments(sub)
    sub.add_argument("--batch", type=int, default=DEFAULT_TUNE_BATCH, help="games per Ray task")
    return parser


def _tune_command(args, progress):
    if args.resume and not args.checkpoint:
        raise SpecError("--resume goes on from a --checkpoint file: give one")

    def show(_report, line):
        if not args.json:
            print(line, flush=True)

    result = tune(args.game, args.agent, weights=args.weights, param=args.param, population=args.population,
                  min_weight=args.min, max_weight=args.max, tournaments=args.tournaments,
                  tournament_size=args.tournament_size, selected=args.selected, children=args.children,
                  mutants=args.mutants, generations=args.generations, seed=args.seed, time_ms=args.time,
                  iters=args.iters, options=args.options, checkpoint=args.checkpoint, resume=args.resume,
                  batch=args.batch, address=args.address, progress=progress, on_generation=show)
    print(json.dumps(result, indent=2) if args.json else f"best: {result['spec']}")


def main(argv=None):
    parser = _parser()
    args = parser.parse_args(argv)
    progress = sys.stderr.isatty()
    try:
        if args.command == "tune":
            _tune_command(args, progress)
            return 0
        common = dict(games=args.games, seed=args.seed, time_ms=args.time, iters=args.iters, openings=args.openings,
                      options=args.options, batch=args.batch, address=args.address, progress=progress)
        if args.command == "match":
            if len(args.agents) != 2:
                parser.error("match takes two agents")
            report = match(args.game, *args.agents, **common)
        elif args.command == "ffa":
            report = ffa(args.game, args.agents, all_orders=args.all_orders, **common)
        else:
            report = tournament(args.game, args.agents, **common)
    except Error as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        # The outstanding tasks are cancelled (see _gather); a checkpoint holds the last
        # generation finished.
        print("\ninterrupted", file=sys.stderr)
        return 130
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

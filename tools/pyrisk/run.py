#!/usr/bin/env python3
"""Games between a Ply agent (or one of pyrisk's bots) and pyrisk's bots, inside pyrisk.

    python3 tools/pyrisk/run.py --pyrisk PATH --ply target/release/ply --agent greedy \\
        --opponents AlAI --players 2 --games 200 --seed 1 [--jobs 2] [--max-rounds 500] \\
        [--json FILE]

`--agent` is a Ply agent spec (`greedy`, `mcts:iters=500`, ...) played through
`ply engine risk -o <pyrisk's rule set>`, or the name of a pyrisk bot (`AlAI`, `BetterAI`,
`StupidAI`) for pyrisk's own games. `--opponents` is one bot name for every other seat, or a
comma-separated list of players-1 names. pyrisk shuffles the turn order of every game.

A game is a win when the player under test is the last one standing; it is decided as a loss as
soon as that player is eliminated; a game still going after `--max-rounds` of its turns is
counted apart as capped (and not as a win in the win rate). Prints the wins with a 95% Wilson
interval and writes a JSON summary (`--json`).
"""

import argparse
import json
import math
import multiprocessing
import os
import random
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bridge  # noqa: E402

NAMES = ["ALPHA", "BRAVO", "CHARLIE", "DELTA", "ECHO", "FOXTROT"]
TESTED = "TESTED"


class Decided(Exception):
    def __init__(self, outcome):
        super().__init__(outcome)
        self.outcome = outcome


def wilson(wins, n, z=1.959964):
    if n == 0:
        return (0.0, 0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (p, max(0.0, centre - half), min(1.0, centre + half))


def is_pyrisk_bot(name):
    return re.fullmatch(r"[A-Z][A-Za-z0-9]*AI", name) is not None


def opponents_list(text, players):
    names = [n.strip() for n in text.split(",") if n.strip()]
    if len(names) == 1:
        names = names * (players - 1)
    if len(names) != players - 1:
        raise SystemExit(f"--opponents: {len(names)} names for {players - 1} seats")
    for n in names:
        if not is_pyrisk_bot(n):
            raise SystemExit(f"--opponents: '{n}' is not a pyrisk bot name (AlAI, BetterAI, ...)")
    return names


class Worker:
    """Plays games in one process: pyrisk loaded once, one engine for all its games."""

    def __init__(self, args):
        self.args = args
        self.pyrisk = bridge.load_pyrisk(args.pyrisk, six_players=args.players > 5)
        self.warnings = bridge.WarningCounter()
        log = bridge.logging.getLogger("pyrisk")
        log.addHandler(self.warnings)
        log.propagate = False
        self.engine = None
        if not is_pyrisk_bot(args.agent):
            engine_log = open(args.engine_log, "a") if args.engine_log else None
            self.engine = bridge.Engine(
                args.ply, bridge.ply_options(args.players), args.agent, log=engine_log
            )

    def play(self, index):
        args = self.args
        game_seed = args.seed * 1_000_000 + index
        random.seed(game_seed)
        if self.engine is not None:
            self.engine.command(f"seed {game_seed}")
        game = self.pyrisk.game.Game(curses=False, color=False, delay=0, wait=False)
        if self.engine is not None:
            helpers = {}
            if args.claims_by:
                helpers["claims_by"] = self.pyrisk.ai_class(args.claims_by)
            if args.placement_by:
                helpers["placement_by"] = self.pyrisk.ai_class(args.placement_by)
            game.add_player(TESTED, bridge.PlyAI, engine=self.engine, **helpers)
        else:
            game.add_player(TESTED, self.pyrisk.ai_class(args.agent))
        for name, bot in zip(NAMES, opponents_list(args.opponents, args.players)):
            game.add_player(name, self.pyrisk.ai_class(bot))
        tested = game.players[TESTED]
        turns = {"tested": 0, "all": 0}

        def counted(player, reinforce):
            def wrapper(available):
                if not tested.alive:
                    raise Decided("eliminated")
                turns["all"] += 1
                if player is tested:
                    turns["tested"] += 1
                    if turns["tested"] > args.max_rounds:
                        raise Decided("capped")
                return reinforce(available)

            return wrapper

        for p in game.players.values():
            p.ai.reinforce = counted(p, p.ai.reinforce)
        decisions = self.engine.decisions if self.engine else 0
        start = time.perf_counter()
        try:
            winner = game.play()
            outcome = "win" if winner == TESTED else "eliminated"
        except Decided as d:
            outcome = d.outcome
        seconds = time.perf_counter() - start
        return {
            "game": index,
            "seed": game_seed,
            "outcome": outcome,
            "seat": game.turn_order.index(TESTED),
            "turns": turns["all"],
            "tested_turns": turns["tested"],
            "seconds": seconds,
            "decisions": (self.engine.decisions if self.engine else 0) - decisions,
        }

    def close(self):
        if self.engine is not None:
            self.engine.close()


def worker_main(args, indices, queue):
    try:
        worker = Worker(args)
        for i in indices:
            queue.put(("game", worker.play(i)))
        queue.put(("warnings", worker.warnings.counts))
        worker.close()
    except BaseException as e:  # report, then let the parent stop
        import traceback

        queue.put(("error", f"{type(e).__name__}: {e}\n{traceback.format_exc()}"))
    queue.put(("done", None))


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pyrisk", required=True, help="path of a pyrisk checkout")
    parser.add_argument("--ply", default=os.path.join(bridge_root(), "target", "release", "ply"))
    parser.add_argument("--agent", default="greedy", help="Ply agent spec, or a pyrisk bot (AlAI)")
    parser.add_argument("--opponents", default="AlAI")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--max-rounds", type=int, default=500, help="turns of the tested player")
    parser.add_argument("--json", help="where to write the summary")
    parser.add_argument("--engine-log", help="append the engine dialogue to this file")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument(
        "--claims-by", help="experiment: a pyrisk bot makes the Ply player's territory claims"
    )
    parser.add_argument(
        "--placement-by", help="experiment: a pyrisk bot places the Ply player's starting armies"
    )
    args = parser.parse_args()
    if not 2 <= args.players <= 6:
        raise SystemExit(
            "--players: 2 to 6 (pyrisk itself stops at 5; 6 runs game.py without its assertions)"
        )
    opponents_list(args.opponents, args.players)
    for helper in (args.claims_by, args.placement_by):
        if helper and (is_pyrisk_bot(args.agent) or not is_pyrisk_bot(helper)):
            raise SystemExit("--claims-by/--placement-by: a pyrisk bot, helping a Ply agent")
    if not is_pyrisk_bot(args.agent) and not os.access(args.ply, os.X_OK):
        raise SystemExit(
            f"{args.ply} is not an executable: build it (cargo build --release -p ply-cli)"
        )
    # pyrisk iterates over sets of territories, whose order follows string hashes: fixed, so that
    # a seed replays the same games.
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.environ["PYTHONHASHSEED"] = "0"
        os.execv(sys.executable, [sys.executable] + sys.argv)

    jobs = max(1, min(args.jobs, args.games))
    queue = multiprocessing.Queue()
    procs = []
    for k in range(jobs):
        indices = list(range(k, args.games, jobs))
        p = multiprocessing.Process(target=worker_main, args=(args, indices, queue))
        p.start()
        procs.append(p)
    results, warnings, errors = [], {}, []
    start = time.perf_counter()
    done = 0
    while done < jobs:
        kind, value = queue.get()
        if kind == "game":
            results.append(value)
            if not args.quiet and len(results) % 10 == 0:
                w = sum(r["outcome"] == "win" for r in results)
                print(f"  {len(results)}/{args.games} games, {w} wins", file=sys.stderr, flush=True)
        elif kind == "warnings":
            for k, v in value.items():
                warnings[k] = warnings.get(k, 0) + v
        elif kind == "error":
            errors.append(value)
            print(value, file=sys.stderr)
        else:
            done += 1
    for p in procs:
        p.join()
    wall = time.perf_counter() - start
    results.sort(key=lambda r: r["game"])
    summary = summarize(args, results, warnings, errors, wall, jobs)
    print_summary(summary)
    path = args.json or f"pyrisk-{slug(args.agent)}-{args.players}p-seed{args.seed}.json"
    with open(path, "w") as f:
        json.dump(summary, f, indent=1)
    print(f"summary: {path}")
    if errors:
        sys.exit(1)


def bridge_root():
    return os.path.dirname(os.path.dirname(HERE))


def slug(text):
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")


def summarize(args, results, warnings, errors, wall, jobs):
    n = len(results)
    wins = sum(r["outcome"] == "win" for r in results)
    capped = sum(r["outcome"] == "capped" for r in results)
    p, lo, hi = wilson(wins, n)
    decided = n - capped
    dp, dlo, dhi = wilson(wins, decided)
    by_seat = {}
    for r in results:
        s = by_seat.setdefault(str(r["seat"]), [0, 0])
        s[0] += r["outcome"] == "win"
        s[1] += 1
    game_seconds = sum(r["seconds"] for r in results)
    return {
        "agent": args.agent,
        "claims_by": args.claims_by,
        "placement_by": args.placement_by,
        "opponents": opponents_list(args.opponents, args.players),
        "players": args.players,
        "ply_options": None if is_pyrisk_bot(args.agent) else bridge.ply_options(args.players),
        "seed": args.seed,
        "games": n,
        "wins": wins,
        "eliminated": sum(r["outcome"] == "eliminated" for r in results),
        "capped": capped,
        "max_rounds": args.max_rounds,
        "win_rate": p,
        "wilson95": [lo, hi],
        "win_rate_decided": dp,
        "wilson95_decided": [dlo, dhi],
        "par": 1 / args.players,
        "wins_by_seat": by_seat,
        "mean_turns": (sum(r["turns"] for r in results) / n) if n else 0,
        "mean_tested_turns": (sum(r["tested_turns"] for r in results) / n) if n else 0,
        "wall_seconds": wall,
        "jobs": jobs,
        "games_per_second_per_job": n / game_seconds if game_seconds else 0,
        "ply_decisions": sum(r["decisions"] for r in results),
        "pyrisk_warnings": warnings,
        "patches": bridge_patches(args),
        "errors": errors,
        "results": results,
    }


def bridge_patches(args):
    patches = ["AlAI.reinforce: Python 2 integer division", "PYTHONHASHSEED=0"]
    if args.players > 5:
        patches.append("game.py compiled without assertions (six players)")
    return patches


def print_summary(s):
    lo, hi = s["wilson95"]
    helped = "".join(
        f" ({k} {s[k]})" for k in ("claims_by", "placement_by") if s.get(k)
    )
    print(
        f"{s['agent']}{helped} vs {','.join(s['opponents'])} "
        f"({s['players']} players, seed {s['seed']}): "
        f"{s['wins']}/{s['games']} wins = {100 * s['win_rate']:.1f}% "
        f"[{100 * lo:.1f}, {100 * hi:.1f}] "
        f"(par {100 * s['par']:.1f}%); eliminated {s['eliminated']}, capped {s['capped']} "
        f"(at {s['max_rounds']} own turns)"
    )
    if s["capped"]:
        dlo, dhi = s["wilson95_decided"]
        rate = 100 * s["win_rate_decided"]
        print(f"  decided games only: {rate:.1f}% [{100 * dlo:.1f}, {100 * dhi:.1f}]")
    print(
        f"  {s['mean_turns']:.1f} turns a game, "
        f"{s['games_per_second_per_job']:.2f} games/s per job "
        f"({s['jobs']} jobs, {s['wall_seconds']:.1f} s), {s['ply_decisions']} Ply decisions; "
        f"pyrisk warnings {s['pyrisk_warnings'] or 'none'}"
    )


if __name__ == "__main__":
    main()

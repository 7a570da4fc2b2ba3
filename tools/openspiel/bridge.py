#!/usr/bin/env python3
"""Ply against OpenSpiel on EinStein würfelt nicht.

    bridge.py match [--agent SPEC] [--ms 100] [--games 400] [--jobs 2] [--seed 1] [--out FILE]
    bridge.py speed [--seconds 3]

`match` plays a Ply agent (through `ply engine einstein`) against OpenSpiel's C++ MCTS bot
(random-rollout evaluator) at equal wall time per move, colours alternated, both sides seeing the
same random arrangements and the same dice, and prints the score with a 95% interval. `--out`
writes the games as Ply game records, for `einstein-analyse` to judge.

`speed` measures on one core, in one run, random games per second and MCTS simulations per
second for OpenSpiel and for Ply, and prints the ratios.

The first run creates tools/openspiel/.venv and installs the `open-spiel` wheel into it
(docs/einstein.md, "OpenSpiel bridge").
"""

import argparse
import json
import math
import os
import random
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VENV = os.path.join(HERE, ".venv")
OPEN_SPIEL = "open-spiel==2.0.2"


def ensure_open_spiel():
    """Re-runs this script inside the bridge's virtualenv, creating it on first use."""
    try:
        import pyspiel  # noqa: F401
        return
    except ImportError:
        pass
    python = os.path.join(VENV, "bin", "python")
    if os.path.abspath(sys.prefix) == os.path.abspath(VENV):
        sys.exit(f"open-spiel is not importable inside {VENV}; delete it and run again")
    if not os.path.exists(python):
        print(f"creating {VENV} and installing {OPEN_SPIEL} ...", file=sys.stderr)
        subprocess.check_call([sys.executable, "-m", "venv", VENV])
        subprocess.check_call([python, "-m", "pip", "install", "--quiet", OPEN_SPIEL])
    os.execv(python, [python, os.path.abspath(__file__)] + sys.argv[1:])


# ---------------------------------------------------------------------------------------------
# Notation between the two programs.
#
# OpenSpiel: player 0 = Black, top-left, moves down/right/diag; player 1 = White, bottom-right,
# moves up/left/diag, and White always moves first. Move strings look like `W5-up*` (`*`: the
# target square is occupied). Arrangements are chance outcomes 0..719, the lexicographic rank of
# the cube sequence on the side's squares in row-major order.
# Ply: red = top-left (OpenSpiel's Black), blue = bottom-right (White); `first=blue` makes blue
# start. Moves are `5n`; arrangements list cubes from the side's own corner outward.

OS_TO_PLY_DIR = {("B", "down"): "s", ("B", "right"): "e", ("B", "diag"): "se",
                 ("W", "up"): "n", ("W", "left"): "w", ("W", "diag"): "nw"}


def unrank(index):
    """The cube sequence of arrangement `index` (lexicographic, as both programs number them)."""
    cubes, out = [1, 2, 3, 4, 5, 6], []
    for size in range(6, 0, -1):
        f = math.factorial(size - 1)
        out.append(cubes.pop(index // f))
        index %= f
    return out


def ply_setup_of(os_colour, os_index):
    cubes = unrank(os_index)
    if os_colour == "W":
        # OpenSpiel lists White's squares row-major, ending at the corner; Ply starts at it.
        cubes = list(reversed(cubes))
    return "setup:" + "".join(map(str, cubes))


def os_move_to_ply(text):
    colour, rest = text[0], text[1:].rstrip("*")
    cube, direction = rest.split("-")
    return f"{cube}{OS_TO_PLY_DIR[(colour, direction)]}"


class BridgeError(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# The Ply engine.


class PlyEngine:
    def __init__(self, binary, agent):
        self.proc = subprocess.Popen([binary, "engine", "einstein"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)
        self.command(f"agent {agent}")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read(self):
        line = self.proc.stdout.readline()
        if not line:
            raise BridgeError("ply engine exited")
        return line.rstrip("\n")

    def command(self, line):
        """Sends a command that answers one `ok ...` line; raises on `error ...`."""
        self.send(line)
        reply = self.read()
        if reply.startswith("error"):
            raise BridgeError(f"ply engine refused '{line}': {reply}")
        return reply

    def play(self, actions):
        """Plays actions; returns them as the engine spells them (for the game record)."""
        return self.command(f"play {actions}").split()[1:]

    def position(self):
        """The position in Ply's text form (`show` answers position, json and turn lines)."""
        self.send("show")
        lines = [self.read() for _ in range(3)]
        if not lines[0].startswith("position "):
            raise BridgeError(f"ply engine answered 'show' with '{lines[0]}'")
        return lines[0][len("position "):]

    def go(self, ms):
        self.send(f"go time {ms}")
        while True:
            line = self.read()
            if line.startswith("bestmove "):
                return line.split()[1]
            if line.startswith("error"):
                raise BridgeError(f"ply engine failed to move: {line}")

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


# ---------------------------------------------------------------------------------------------
# Matches.


def make_bot(pyspiel, game, ms, seed, uct_c):
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    return pyspiel.MCTSBot(game, evaluator, uct_c, 1_000_000, 1000, True, seed, False,
                           pyspiel.ChildSelectionPolicy.UCT, ms / 1000.0)


def play_game(args, index, binary):
    """One game; returns 1.0 if the Ply agent won, 0.0 if it lost, and the game's record
    (docs/formats.md) in Ply's notation."""
    import pyspiel
    pair_seed = args.seed * 1_000_003 + index // 2
    rng = random.Random(pair_seed)  # both games of a pair: same dice
    game = pyspiel.load_game("einstein_wurfelt_nicht")
    state = game.new_initial_state()
    ply_player = 1 if index % 2 == 0 else 0  # OpenSpiel player the Ply agent plays
    bot = make_bot(pyspiel, game, args.ms, args.seed * 7919 + index, args.uct_c)
    engine = PlyEngine(binary, args.agent)
    try:
        engine.command(f"new {PLY_OPTIONS}")
        black, white = rng.randrange(720), rng.randrange(720)
        state.apply_action(black)
        state.apply_action(white)
        actions = engine.play(f"{ply_setup_of('W', white)} {ply_setup_of('B', black)}")
        while not state.is_terminal():
            if state.is_chance_node():
                die = rng.randrange(1, 7)
                state.apply_action(die - 1)
                actions += engine.play(str(die))
                continue
            player = state.current_player()
            legal = {os_move_to_ply(state.action_to_string(player, a)): a for a in state.legal_actions()}
            if player == ply_player:
                move = engine.go(args.ply_ms or args.ms)
                if move not in legal:
                    raise BridgeError(f"ply chose {move}, not among OpenSpiel's legal moves {sorted(legal)}")
                action = legal[move]
            else:
                action = bot.step(state)
                move = os_move_to_ply(state.action_to_string(player, action))
            actions += engine.play(move)
            state.apply_action(action)
        result = 1.0 if state.returns()[ply_player] > 0 else 0.0
        seats = [args.agent if p == ply_player else os_seat(args) for p in (0, 1)]
        returns = [result if p == ply_player else 1.0 - result for p in (0, 1)]
        record = {"game": "einstein", "options": PLY_OPTIONS, "index": index, "seed": pair_seed,
                  "seats": seats, "opening_plies": 0, "actions": actions, "returns": returns,
                  "final_state": engine.position()}
        return result, record
    finally:
        engine.close()


# OpenSpiel's White (Ply's blue) moves first.
PLY_OPTIONS = "first=blue"


def os_seat(args):
    """OpenSpiel's bot as a seat of a game record."""
    return f"openspiel-mcts:uct_c={args.uct_c},ms={args.ms}"


def interval(wins, n):
    p = wins / n
    half = 1.959964 * math.sqrt(max(p * (1 - p), 1e-12) / n)
    return p, max(0.0, p - half), min(1.0, p + half)


def elo(p):
    if p <= 0:
        return float("-inf")
    if p >= 1:
        return float("inf")
    return -400 * math.log10(1 / p - 1)


def run_match(args):
    binary = ply_binary(args)
    wins, played = 0.0, 0
    lock = threading.Lock()
    started = time.time()

    records = [None] * args.games
    try:  # before the games, so that a bad path costs nothing
        out = open(args.out, "w", encoding="utf-8") if args.out else None
    except OSError as e:
        raise BridgeError(f"cannot write --out {args.out}: {e.strerror}")

    def one(i):
        nonlocal wins, played
        result, records[i] = play_game(args, i, binary)
        with lock:
            wins += result
            played += 1
            if not args.quiet:
                p, lo, hi = interval(wins, played)
                print(f"\r{played}/{args.games} games: {100 * p:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]",
                      end="", file=sys.stderr, flush=True)
        return result

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        list(pool.map(one, range(args.games)))
    if not args.quiet:
        print(file=sys.stderr)
    if out:
        with out:
            for record in records:
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
    p, lo, hi = interval(wins, args.games)
    print(f"ply {args.agent} vs OpenSpiel MCTS (uct_c={args.uct_c}, random rollouts), "
          f"{args.ms} ms per move" + (f" (ply {args.ply_ms} ms)" if args.ply_ms else "") +
          f", {args.games} games, colours alternated")
    print(f"ply score {100 * p:.1f}% [{100 * lo:.1f}%, {100 * hi:.1f}%]  "
          f"({int(wins)} wins, {args.games - int(wins)} losses)  "
          f"Elo {elo(p):+.0f} [{elo(lo):+.0f}, {elo(hi):+.0f}]  in {time.time() - started:.0f} s")


# ---------------------------------------------------------------------------------------------
# Speed.


def run_speed(args):
    import pyspiel
    os.sched_setaffinity(0, {0})
    binary = ply_binary(args)
    game = pyspiel.load_game("einstein_wurfelt_nicht")

    # OpenSpiel random games: whole games in C++, random arrangements included.
    bots = [pyspiel.make_uniform_random_bot(p, 100 + p) for p in range(2)]
    games, start = 0, time.process_time()
    while time.process_time() - start < args.seconds:
        for _ in range(1000):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, games)
            games += 1
    os_random = games / (time.process_time() - start)

    # OpenSpiel MCTS from a fixed position: arrangements 0 and 0, White rolled a 3.
    state = game.new_initial_state()
    for action in (0, 0, 2):
        state.apply_action(action)
    sims = 50_000
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 1), 2.0, sims, 0, False, 1, False)
    start = time.process_time()
    bot.mcts_search(state)
    os_mcts = sims / (time.process_time() - start)

    # Ply, pinned to the same core, through its own bench and engine.
    bench = subprocess.run(["taskset", "-c", "0", binary, "bench", "einstein", "--json"],
                           capture_output=True, text=True, check=True)
    import json
    report = json.loads(bench.stdout)["games"][0]
    rg = report["random_games"]
    ply_random = rg["games"] / (rg["elapsed"]["secs"] + rg["elapsed"]["nanos"] / 1e9)
    position = "r1r2r3../r4r5.../r6...b1/...b2b3/..b4b5b6 blue 3 0-0"
    session = (f"position text {position}\nagent mcts:threads=1,reuse=false,policy=random\n"
               f"go iters {sims * 4}\n")
    out = subprocess.run(["taskset", "-c", "0", binary, "engine", "einstein"], input=session,
                         capture_output=True, text=True, check=True).stdout
    info = [l for l in out.splitlines() if l.startswith("info")][-1].split()
    iterations, ms = int(info[info.index("iterations") + 1]), int(info[info.index("time") + 1])
    ply_mcts = iterations / max(ms, 1) * 1000

    print("one core (CPU 0), same run:")
    print(f"random games/s      OpenSpiel {os_random:>10,.0f}   Ply {ply_random:>12,.0f}   ratio {ply_random / os_random:5.1f}x")
    print(f"MCTS simulations/s  OpenSpiel {os_mcts:>10,.0f}   Ply {ply_mcts:>12,.0f}   ratio {ply_mcts / os_mcts:5.1f}x")


def ply_binary(args):
    binary = args.ply or os.path.join(ROOT, "target", "release", "ply")
    if not os.path.exists(binary):
        subprocess.check_call(["cargo", "build", "--release", "-p", "ply-cli"], cwd=ROOT)
    return binary


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("match", help="a Ply agent against OpenSpiel's MCTS bot")
    m.add_argument("--agent", default="mcts", help="Ply agent spec (default: mcts)")
    m.add_argument("--ms", type=int, default=100, help="milliseconds per move for both sides")
    m.add_argument("--games", type=int, default=400)
    m.add_argument("--jobs", type=int, default=2, help="games played at once")
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--ply-ms", type=int, default=None,
                   help="time per move for the Ply agent, if not --ms (for scaling experiments)")
    m.add_argument("--uct-c", type=float, default=2.0, help="OpenSpiel MCTS exploration constant")
    m.add_argument("--out", help="write every game as a JSON line (Ply's game records, docs/formats.md)")
    m.add_argument("--quiet", action="store_true")
    s = sub.add_parser("speed", help="random games/s and MCTS simulations/s, OpenSpiel vs Ply, one core")
    s.add_argument("--seconds", type=float, default=3.0)
    for p in (m, s):
        p.add_argument("--ply", help="path to the ply binary (default: target/release/ply, built if missing)")
    args = parser.parse_args()
    if args.command == "match":
        if args.games < 1 or args.ms < 1 or args.jobs < 1:
            parser.error("--games, --ms and --jobs must be positive")
    ensure_open_spiel()
    try:
        run_match(args) if args.command == "match" else run_speed(args)
    except BridgeError as e:
        sys.exit(f"bridge error: {e}")


if __name__ == "__main__":
    main()

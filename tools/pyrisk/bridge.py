"""A Ply agent as a pyrisk player (github.com/chronitis/pyrisk), through `ply engine risk`.

pyrisk is not part of this repository: `load_pyrisk(PATH)` imports a copy fetched beside it and
applies, at run time, the few changes it needs under Python 3 (see README.md). Nothing here
copies pyrisk's code.

`PlyAI` has the methods pyrisk calls on a player (`start`, `initial_placement`, `reinforce`,
`attack`, `freemove`, `event`, `end`). At every decision it writes pyrisk's world as a Ply
position (pyrisk's territory names mapped to Ply's), asks the engine for a move with `go`, and
turns Ply's actions into pyrisk's answers:

- claiming (`pick`) and the starting armies one at a time (`place T 1`);
- the draft: Ply's `place` actions collected until the turn's armies are placed, as one dict
  (each step sent as a new position: the engine's `play` takes one-word actions only);
- attacks: a generator that asks Ply for one attack at a time and yields it to pyrisk, which
  rolls the dice; the position is read again from pyrisk's world before the next question.
  Ply's `attack` (one roll) is an attack function that says yes once, `blitz` one that always
  does (roll until the territory falls or one army is left); after a conquest pyrisk asks for
  the armies to move in, and Ply answers from the `occupy` phase;
- the free move: Ply's `fortify A B N` (with `fortify=anywhere`), or none (`end-turn`).
"""

import importlib
import logging
import os
import subprocess
import sys
import types

# pyrisk's territory names (world.py) and Ply's (crates/games/risk/maps/classic.json, in
# notation). Five are spelt differently: Northwest Territories, Mexico, Venezuala, Scandanavia
# and South East Asia are Ply's northwest-territory, central-america, venezuela, scandinavia and
# siam. The two maps have the same 83 borders and continents (checked by test_bridge.py when
# pyrisk is at hand, and by the README's comparison).
PYRISK_TO_PLY = {
    "Alaska": "alaska",
    "Northwest Territories": "northwest-territory",
    "Greenland": "greenland",
    "Alberta": "alberta",
    "Ontario": "ontario",
    "Quebec": "quebec",
    "Western United States": "western-united-states",
    "Eastern United States": "eastern-united-states",
    "Mexico": "central-america",
    "Venezuala": "venezuela",
    "Peru": "peru",
    "Brazil": "brazil",
    "Argentina": "argentina",
    "Iceland": "iceland",
    "Scandanavia": "scandinavia",
    "Great Britain": "great-britain",
    "Northern Europe": "northern-europe",
    "Western Europe": "western-europe",
    "Southern Europe": "southern-europe",
    "Ukraine": "ukraine",
    "North Africa": "north-africa",
    "Egypt": "egypt",
    "East Africa": "east-africa",
    "Congo": "congo",
    "South Africa": "south-africa",
    "Madagascar": "madagascar",
    "Ural": "ural",
    "Siberia": "siberia",
    "Yakutsk": "yakutsk",
    "Kamchatka": "kamchatka",
    "Irkutsk": "irkutsk",
    "Mongolia": "mongolia",
    "Japan": "japan",
    "Afghanistan": "afghanistan",
    "China": "china",
    "Middle East": "middle-east",
    "India": "india",
    "South East Asia": "siam",
    "Indonesia": "indonesia",
    "New Guinea": "new-guinea",
    "Western Australia": "western-australia",
    "Eastern Australia": "eastern-australia",
}
PLY_TO_PYRISK = {slug: name for name, slug in PYRISK_TO_PLY.items()}
assert len(PLY_TO_PYRISK) == len(PYRISK_TO_PLY) == 42


def starting_armies(players):
    """pyrisk's starting armies (game.py, `initial_placement`): 35 - 2 x players."""
    return 35 - 2 * players


def ply_options(players, max_rounds=10000):
    """Ply's Risk options that match pyrisk's rules (README.md, "The rule set")."""
    return (
        f"players={players},setup=pick,cards=none,fortify=anywhere,"
        f"start_armies={starting_armies(players)},max_rounds={max_rounds}"
    )


# ---------------------------------------------------------------------------------------------
# Positions and actions.


def position_text(players, seat, phase, rows, round_=0, reserve=0, acted=False):
    """A Ply position: `rows` are (pyrisk name, owner seat or None, armies) for all 42
    territories; no cards in any hand (`cards=none`)."""
    if len(rows) != 42:
        raise ValueError(f"{len(rows)} territories, expected 42")
    cells = []
    for name, owner, armies in rows:
        owner_text = "open" if owner is None else str(owner)
        cells.append(f"{PYRISK_TO_PLY[name]}={owner_text}:{int(armies)}")
    hands = " ".join(f"{s}:" for s in range(players))
    return (
        f"risk players={players} round={round_} player={seat} phase={phase} reserve={reserve} "
        f"trades=0 conquered=0 acted={int(bool(acted))} dealt=42; territories {' '.join(cells)}; "
        f"hands {hands}; discard"
    )


def parse_ply_action(text):
    """Ply's action text as a tuple, territories as pyrisk names:
    ('pick', T), ('place', T, n), ('attack', A, B), ('blitz', A, B), ('occupy', n),
    ('end-attack',), ('fortify', A, B, n), ('end-turn',)."""
    words = text.split()

    def name(slug):
        if slug not in PLY_TO_PYRISK:
            raise ValueError(f"'{slug}' in '{text}' is not a territory of the classic map")
        return PLY_TO_PYRISK[slug]

    kind = words[0] if words else ""
    if kind == "pick" and len(words) == 2:
        return ("pick", name(words[1]))
    if kind == "place" and len(words) == 3:
        return ("place", name(words[1]), int(words[2]))
    if kind in ("attack", "blitz") and len(words) == 3:
        return (kind, name(words[1]), name(words[2]))
    if kind == "occupy" and len(words) == 2:
        return ("occupy", int(words[1]))
    if kind in ("end-attack", "end-turn") and len(words) == 1:
        return (kind,)
    if kind == "fortify" and len(words) == 4:
        return ("fortify", name(words[1]), name(words[2]), int(words[3]))
    raise ValueError(f"'{text}' is not a Ply action the bridge can play in pyrisk")


def attack_strategy(kind):
    """pyrisk's attack function for Ply's `attack` (one roll) or `blitz` (None: pyrisk's default,
    roll until the territory falls or one army is left)."""
    if kind == "blitz":
        return None
    rolled = []

    def once(n_atk, n_def):
        rolled.append((n_atk, n_def))
        return len(rolled) == 1

    return once


# ---------------------------------------------------------------------------------------------
# The engine.


class EngineError(RuntimeError):
    pass


class Engine:
    """`ply engine risk -o OPTIONS` as a subprocess, one command at a time."""

    def __init__(self, ply, options, agent, seed=None, log=None):
        self.args = [ply, "engine", "risk", "-o", options]
        self.proc = subprocess.Popen(
            self.args,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.log = log
        self.decisions = 0
        self.command(f"agent {agent}")
        if seed is not None:
            self.command(f"seed {seed}")

    def _send(self, line):
        if self.log is not None:
            self.log.write(f"> {line}\n")
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def _read(self):
        line = self.proc.stdout.readline()
        if not line:
            raise EngineError(f"{' '.join(self.args)} exited (code {self.proc.poll()})")
        line = line.rstrip("\n")
        if self.log is not None:
            self.log.write(f"< {line}\n")
        return line

    def command(self, line):
        """Sends a command that answers with one `ok ...` line; returns the rest of it."""
        self._send(line)
        reply = self._read()
        if not reply.startswith("ok"):
            raise EngineError(f"'{line[:200]}': {reply}")
        return reply[2:].strip()

    def go(self):
        """The agent's move (its spec's own budget)."""
        self._send("go")
        while True:
            reply = self._read()
            if reply.startswith("bestmove "):
                self.decisions += 1
                return reply[len("bestmove "):].strip()
            if reply.startswith("error"):
                raise EngineError(f"go: {reply}")

    def set_position(self, text):
        self.command(f"position text {text}")

    def close(self):
        if self.proc.poll() is None:
            try:
                self._send("quit")
                self.proc.stdin.close()
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


# ---------------------------------------------------------------------------------------------
# The player.


class BridgeError(RuntimeError):
    pass


class PlyAI:
    """A pyrisk player played by a Ply agent. pyrisk builds it as
    `PlyAI(player, game, world, **kwargs)`; `engine=` (an `Engine`, or anything with
    `set_position` and `go`) must be among the kwargs."""

    def __init__(self, player, game, world, engine=None, claims_by=None, placement_by=None, **_):
        if engine is None:
            raise BridgeError("PlyAI needs engine=...")
        self.player = player
        self.game = game
        self.world = world
        self.engine = engine
        # For experiments only: a pyrisk bot class that makes this player's claims, or its
        # starting placements, instead of Ply (run.py --claims-by / --placement-by).
        self.claims_by = claims_by and claims_by(player, game, world)
        self.placement_by = placement_by and placement_by(player, game, world)
        self.turns = 0
        self.max_rounds = 10000

    # What pyrisk's world looks like to Ply.

    def seats(self):
        """Seat of each player name: its place in pyrisk's (shuffled) turn order."""
        return {name: i for i, name in enumerate(self.game.turn_order)}

    @property
    def seat(self):
        return self.seats()[self.player.name]

    def rows(self, override=None):
        seats = self.seats()
        rows = []
        for name, t in self.world.territories.items():
            owner = None if t.owner is None else seats[t.owner.name]
            armies = t.forces
            if override and name in override:
                owner, armies = override[name]
            rows.append((name, owner, armies))
        return rows

    def ask(self, phase, round_, reserve=0, acted=False, override=None):
        players = len(self.game.turn_order)
        text = position_text(players, self.seat, phase, self.rows(override), round_, reserve, acted)
        self.engine.set_position(text)
        return parse_ply_action(self.engine.go())

    def round(self):
        return max(1, min(self.turns, self.max_rounds))

    def holds_everything(self):
        return all(t.owner == self.player for t in self.world.territories.values())

    # pyrisk's calls.

    def start(self):
        pass

    def end(self):
        pass

    def event(self, msg):
        pass

    def initial_placement(self, empty, remaining):
        if empty and self.claims_by:
            return self.claims_by.initial_placement(empty, remaining)
        if not empty and self.placement_by:
            return self.placement_by.initial_placement(empty, remaining)
        if empty:
            action = self.ask("pick", 0)
            if action[0] != "pick":
                raise BridgeError(f"expected a pick, Ply played {action}")
            return action[1]
        action = self.ask("setup", 0)
        if action[0] != "place" or action[2] != 1:
            raise BridgeError(f"expected a starting army, Ply played {action}")
        return action[1]

    def reinforce(self, available):
        # The engine's `play` reads one-word actions only, so each step of the draft is sent as
        # a new position: the armies placed so far on the board, the rest in reserve.
        self.turns += 1
        placed = {}
        left = available
        while left > 0:
            w = self.world.territories
            override = {n: (self.seat, w[n].forces + a) for n, a in placed.items()}
            action = self.ask(
                "draft", self.round(), reserve=left, acted=bool(placed), override=override
            )
            if action[0] != "place" or not 1 <= action[2] <= left:
                raise BridgeError(f"expected a draft of at most {left}, Ply played {action}")
            _, name, armies = action
            placed[name] = placed.get(name, 0) + armies
            left -= armies
        return placed

    def attack(self):
        while not self.holds_everything():
            action = self.ask("attack", self.round(), acted=True)
            if action[0] == "end-attack":
                return
            if action[0] not in ("attack", "blitz"):
                raise BridgeError(f"expected an attack, Ply played {action}")
            kind, src, dst = action
            before = self.fingerprint(src, dst)
            yield (src, dst, attack_strategy(kind), self.move_in(src, dst))
            if self.fingerprint(src, dst) == before:
                raise BridgeError(f"pyrisk did not play Ply's {kind} {src} -> {dst}")

    def fingerprint(self, *names):
        return [(self.world.territories[n].owner, self.world.territories[n].forces) for n in names]

    def move_in(self, src, dst):
        """pyrisk's move function for a conquest of `dst` from `src`: called with the attacker's
        armies left, before pyrisk updates the two territories."""

        def move(n_atk):
            least, most = min(n_atk - 1, 3), n_atk - 1
            if least == most:
                return most
            others = [t for n, t in self.world.territories.items() if n != dst]
            if all(t.owner == self.player for t in others):
                return most  # the last conquest: the game is over
            me = self.seat
            override = {src: (me, n_atk), dst: (me, 0)}
            phase = f"occupy:{PYRISK_TO_PLY[src]}>{PYRISK_TO_PLY[dst]}:{least}"
            action = self.ask(phase, self.round(), acted=True, override=override)
            if action[0] != "occupy" or not least <= action[1] <= most:
                raise BridgeError(f"expected to move in {least}-{most}, Ply played {action}")
            return action[1]

        return move

    def freemove(self):
        if self.holds_everything():
            return None
        action = self.ask("fortify", self.round(), acted=True)
        if action[0] == "end-turn":
            return None
        if action[0] != "fortify":
            raise BridgeError(f"expected a free move, Ply played {action}")
        return action[1:]


# ---------------------------------------------------------------------------------------------
# pyrisk, fetched beside the project.


class Pyrisk:
    """pyrisk's modules, imported from `path`, with the run-time changes of README.md."""

    def __init__(self, game, ai_base, classes, patches):
        self.game = game
        self.ai_base = ai_base
        self.classes = classes
        self.patches = patches

    def ai_class(self, name):
        if name not in self.classes:
            package = name[:-2].lower()
            module = importlib.import_module("ai." + package)
            self.classes[name] = getattr(module, name)
        return self.classes[name]


def integer_reinforce(original):
    """AlAI's `reinforce` splits its armies with `/`, integer division in the Python 2 it was
    written for: under Python 3 the counts are floats, whose sum may miss the total (pyrisk's
    assertion) and which pyrisk truncates. This wraps it to give what Python 2 gave: the same
    territories, in the same order, `available // k` each and the remainder on the first."""

    def reinforce(self, available):
        result = original(self, available)
        keys = list(result)
        each = available // len(keys)
        fixed = {t: each for t in keys}
        fixed[keys[0]] += available - each * len(keys)
        return fixed

    reinforce.__doc__ = "AlAI.reinforce with Python 2's integer division (tools/pyrisk)"
    return reinforce


def load_pyrisk(path, six_players=False):
    """Imports pyrisk from `path` (a checkout of github.com/chronitis/pyrisk) and applies the
    run-time changes: AlAI's integer division; with `six_players`, game.py compiled without its
    assertions (its `assert 2 <= len(self.players) <= 5` is the only thing that stops six)."""
    path = os.path.abspath(path)
    if not os.path.exists(os.path.join(path, "game.py")):
        raise SystemExit(f"{path} has no game.py: pass the path of a pyrisk checkout")
    if path not in sys.path:
        sys.path.insert(0, path)
    patches = []
    try:
        import curses  # noqa: F401  (display.py imports it; no curses window is ever opened)
    except ImportError:
        sys.modules["curses"] = types.ModuleType("curses")
        patches.append("curses: an empty stand-in module (display.py imports it; never used)")
    if six_players:
        source_path = os.path.join(path, "game.py")
        with open(source_path) as f:
            code = compile(f.read(), source_path, "exec", optimize=1)
        module = types.ModuleType("game")
        module.__file__ = source_path
        sys.modules["game"] = module
        exec(code, module.__dict__)
        patches.append("game.py compiled without assertions (six players)")
    game_module = importlib.import_module("game")
    ai_module = importlib.import_module("ai")
    al = importlib.import_module("ai.al")
    if not getattr(al.AlAI.reinforce, "_ply_patched", False):
        al.AlAI.reinforce = integer_reinforce(al.AlAI.reinforce)
        al.AlAI.reinforce._ply_patched = True
    patches.append("AlAI.reinforce: Python 2 integer division")
    return Pyrisk(game_module, ai_module.AI, {"AlAI": al.AlAI}, patches)


class WarningCounter(logging.Handler):
    """Counts pyrisk's warnings (`aiwarn`: a player broke a rule) by logger name."""

    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.counts = {}

    def emit(self, record):
        self.counts[record.name] = self.counts.get(record.name, 0) + 1

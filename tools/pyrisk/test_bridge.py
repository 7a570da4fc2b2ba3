"""Tests of the pyrisk bridge on a small stand-in for pyrisk's world; they need no pyrisk.

The translation tests use a scripted engine. The engine tests (skipped without a binary) hand
positions written from the stand-in world to the real `ply engine risk` with pyrisk's options
(PLY_BIN, else target/debug/ply or target/release/ply) and check that every phase is accepted
and answered with a move pyrisk would take.
"""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bridge  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))

# The classic map as Ply names it, in Ply's map order (crates/games/risk/maps/classic.json).
PLY_SLUGS = [
    "alaska", "northwest-territory", "greenland", "alberta", "ontario", "quebec",
    "western-united-states", "eastern-united-states", "central-america", "venezuela", "peru",
    "brazil", "argentina", "iceland", "scandinavia", "great-britain", "northern-europe",
    "western-europe", "southern-europe", "ukraine", "north-africa", "egypt", "east-africa",
    "congo", "south-africa", "madagascar", "ural", "siberia", "yakutsk", "kamchatka", "irkutsk",
    "mongolia", "japan", "afghanistan", "china", "middle-east", "india", "siam", "indonesia",
    "new-guinea", "western-australia", "eastern-australia",
]  # fmt: skip


class FakePlayer:
    def __init__(self, name):
        self.name = name

    def __eq__(self, other):
        return isinstance(other, FakePlayer) and other.name == self.name

    def __hash__(self):
        return hash(self.name)


class FakeTerritory:
    def __init__(self, name):
        self.name = name
        self.owner = None
        self.forces = 0


class FakeWorld:
    def __init__(self):
        self.territories = {name: FakeTerritory(name) for name in bridge.PYRISK_TO_PLY}


class FakeGame:
    def __init__(self, names):
        self.turn_order = list(names)
        self.world = FakeWorld()


class ScriptedEngine:
    """Answers `go` from a list and keeps the positions it was sent."""

    def __init__(self, moves):
        self.moves = list(moves)
        self.positions = []

    def set_position(self, text):
        self.positions.append(text)

    def go(self):
        return self.moves.pop(0)


def two_player_world(me_first=True):
    """ME holds the Americas (3 armies each), YOU the rest (2 each); ME is seat 0 or 1."""
    names = ["ME", "YOU"] if me_first else ["YOU", "ME"]
    game = FakeGame(names)
    me, you = FakePlayer("ME"), FakePlayer("YOU")
    for i, name in enumerate(bridge.PYRISK_TO_PLY):
        t = game.world.territories[name]
        t.owner, t.forces = (me, 3) if i < 13 else (you, 2)
    return game, me


def ai_for(game, me, engine):
    return bridge.PlyAI(me, game, game.world, engine=engine)


class Names(unittest.TestCase):
    def test_every_territory_maps_to_a_ply_territory_once(self):
        self.assertEqual(sorted(bridge.PYRISK_TO_PLY.values()), sorted(PLY_SLUGS))
        self.assertEqual(len(set(bridge.PYRISK_TO_PLY)), 42)

    def test_the_five_spellings_that_differ(self):
        self.assertEqual(bridge.PYRISK_TO_PLY["Mexico"], "central-america")
        self.assertEqual(bridge.PYRISK_TO_PLY["South East Asia"], "siam")
        self.assertEqual(bridge.PYRISK_TO_PLY["Venezuala"], "venezuela")
        self.assertEqual(bridge.PYRISK_TO_PLY["Scandanavia"], "scandinavia")
        self.assertEqual(bridge.PYRISK_TO_PLY["Northwest Territories"], "northwest-territory")
        self.assertEqual(bridge.PLY_TO_PYRISK["western-united-states"], "Western United States")

    def test_options_match_pyrisk(self):
        self.assertEqual(
            bridge.ply_options(2),
            "players=2,setup=pick,cards=none,fortify=anywhere,start_armies=31,max_rounds=10000",
        )
        self.assertIn("start_armies=25", bridge.ply_options(5))


class Translation(unittest.TestCase):
    def test_positions_name_owners_by_turn_order(self):
        game, me = two_player_world(me_first=False)
        text = bridge.position_text(2, 1, "attack", ai_for(game, me, ScriptedEngine([])).rows(), 4)
        self.assertTrue(text.startswith("risk players=2 round=4 player=1 phase=attack reserve=0 "))
        self.assertIn(" central-america=1:3 ", text)
        self.assertIn(" siam=0:2 ", text)
        self.assertTrue(text.endswith("; hands 0: 1:; discard"))

    def test_open_territories_while_claiming(self):
        game, me = two_player_world()
        game.world.territories["Alaska"].owner = None
        game.world.territories["Alaska"].forces = 0
        engine = ScriptedEngine(["pick alaska"])
        ai = ai_for(game, me, engine)
        self.assertEqual(ai.initial_placement([game.world.territories["Alaska"]], 10), "Alaska")
        self.assertIn("phase=pick", engine.positions[0])
        self.assertIn(" alaska=open:0 ", engine.positions[0])
        engine.moves.append("place central-america 1")
        self.assertEqual(ai.initial_placement(None, 9), "Mexico")
        self.assertIn("round=0 player=0 phase=setup", engine.positions[1])

    def test_the_draft_is_collected_into_one_dict(self):
        game, me = two_player_world()
        engine = ScriptedEngine(["place brazil 4", "place central-america 2", "place brazil 1"])
        ai = ai_for(game, me, engine)
        self.assertEqual(ai.reinforce(7), {"Brazil": 5, "Mexico": 2})
        # Each step is a position with the armies placed so far and the rest in reserve.
        self.assertIn("phase=draft reserve=7 ", engine.positions[0])
        self.assertIn("acted=0", engine.positions[0])
        self.assertIn("phase=draft reserve=3 ", engine.positions[1])
        self.assertIn(" brazil=0:7 ", engine.positions[1])
        self.assertIn("acted=1", engine.positions[1])
        self.assertIn(" central-america=0:5 ", engine.positions[2])

    def test_a_draft_past_the_reserve_is_refused(self):
        game, me = two_player_world()
        ai = ai_for(game, me, ScriptedEngine(["place brazil 9"]))
        with self.assertRaises(bridge.BridgeError):
            ai.reinforce(3)

    def test_attacks_are_asked_one_at_a_time(self):
        game, me = two_player_world()
        w = game.world.territories
        engine = ScriptedEngine(
            ["blitz brazil north-africa", "attack alaska kamchatka", "end-attack"]
        )
        ai = ai_for(game, me, engine)
        attacks = ai.attack()
        src, dst, f_atk, f_move = next(attacks)
        self.assertEqual((src, dst, f_atk), ("Brazil", "North Africa", None))
        # pyrisk rolls: Brazil takes North Africa and asks how many move in; with 3 armies left
        # only 2 may move, so Ply is not asked.
        self.assertEqual(f_move(3), 2)
        w["North Africa"].owner, w["North Africa"].forces, w["Brazil"].forces = me, 2, 1
        src, dst, f_atk, _ = next(attacks)
        self.assertEqual((src, dst), ("Alaska", "Kamchatka"))
        self.assertTrue(f_atk(3, 2))
        self.assertFalse(f_atk(2, 2), "one roll only")
        self.assertIn(" north-africa=0:2 ", engine.positions[1], "the position is read again")
        w["Alaska"].forces = 2
        self.assertEqual(list(attacks), [])
        self.assertEqual(len(engine.positions), 3)

    def test_an_attack_pyrisk_did_not_play_is_an_error(self):
        game, me = two_player_world()
        moves = ["blitz brazil north-africa", "blitz brazil north-africa"]
        ai = ai_for(game, me, ScriptedEngine(moves))
        attacks = ai.attack()
        next(attacks)
        with self.assertRaises(bridge.BridgeError):
            next(attacks)

    def test_moving_in_asks_from_the_occupy_phase(self):
        game, me = two_player_world()
        engine = ScriptedEngine(["blitz brazil north-africa", "occupy 6"])
        ai = ai_for(game, me, engine)
        _, _, _, f_move = next(ai.attack())
        self.assertEqual(f_move(9), 6)
        self.assertIn("phase=occupy:brazil>north-africa:3 ", engine.positions[1])
        self.assertIn(" brazil=0:9 ", engine.positions[1])
        self.assertIn(" north-africa=0:0 ", engine.positions[1])

    def test_the_free_move(self):
        game, me = two_player_world()
        engine = ScriptedEngine(["fortify alaska argentina 2", "end-turn"])
        ai = ai_for(game, me, engine)
        self.assertEqual(tuple(ai.freemove()), ("Alaska", "Argentina", 2))
        self.assertIn("phase=fortify", engine.positions[0])
        self.assertIsNone(ai.freemove())

    def test_nothing_is_asked_once_everything_is_held(self):
        game, me = two_player_world()
        for t in game.world.territories.values():
            t.owner = me
        engine = ScriptedEngine([])
        ai = ai_for(game, me, engine)
        self.assertEqual(list(ai.attack()), [])
        self.assertIsNone(ai.freemove())

    def test_ply_actions_are_read(self):
        self.assertEqual(
            bridge.parse_ply_action("blitz siam indonesia"),
            ("blitz", "South East Asia", "Indonesia"),
        )
        self.assertEqual(bridge.parse_ply_action("occupy 4"), ("occupy", 4))
        for bad in ["trade alaska peru wild1", "place narnia 3", "draw alaska", ""]:
            with self.assertRaises(ValueError):
                bridge.parse_ply_action(bad)

    def test_alai_reinforce_gets_integer_counts(self):
        def float_split(self, available):
            each = available / 3
            result = {"A": each, "B": each, "C": each}
            result["A"] += available - each * 3
            return result

        fixed = bridge.integer_reinforce(float_split)(None, 7)
        self.assertEqual(fixed, {"A": 3, "B": 2, "C": 2})
        self.assertTrue(all(isinstance(v, int) for v in fixed.values()))


class SameMap(unittest.TestCase):
    """Ply's classic map file against the names alone (always), and against pyrisk's world.py
    when PYRISK names a checkout."""

    def ply_map(self):
        import json

        with open(os.path.join(ROOT, "crates", "games", "risk", "maps", "classic.json")) as f:
            data = json.load(f)
        slug = lambda name: "-".join(name.lower().split())  # noqa: E731
        borders = {
            frozenset((slug(t["name"]), slug(n)))
            for t in data["territories"]
            for n in t["neighbours"]
        }
        continents = {slug(t["name"]): t["continent"] for t in data["territories"]}
        bonuses = {c["name"]: c["bonus"] for c in data["continents"]}
        return borders, continents, bonuses

    def test_the_slugs_are_ply_map_names(self):
        _, continents, _ = self.ply_map()
        self.assertEqual(sorted(continents), sorted(PLY_SLUGS))

    @unittest.skipUnless(os.environ.get("PYRISK"), "PYRISK=path of a pyrisk checkout")
    def test_pyrisk_world_is_the_same_map(self):
        sys.path.insert(0, os.environ["PYRISK"])
        import world

        borders, continents, bonuses = self.ply_map()
        theirs = set()
        for line in world.CONNECT.strip().splitlines():
            names = [n.strip() for n in line.split("--") if n.strip()]
            for a, b in zip(names, names[1:]):
                theirs.add(frozenset((bridge.PYRISK_TO_PLY[a], bridge.PYRISK_TO_PLY[b])))
        self.assertEqual(theirs, borders)
        self.assertEqual(len(borders), 83)
        for area, (bonus, names) in world.AREAS.items():
            self.assertEqual(bonuses[area], bonus)
            for name in names:
                self.assertEqual(continents[bridge.PYRISK_TO_PLY[name]], area)


def ply_binary():
    for path in [os.environ.get("PLY_BIN"), os.path.join(ROOT, "target", "debug", "ply"),
                 os.path.join(ROOT, "target", "release", "ply")]:  # fmt: skip
        if path and os.access(path, os.X_OK):
            return path
    return None


@unittest.skipIf(ply_binary() is None, "no ply binary (cargo build -p ply-cli, or PLY_BIN)")
class RealEngine(unittest.TestCase):
    def setUp(self):
        self.engine = bridge.Engine(ply_binary(), bridge.ply_options(2), "greedy", seed=1)

    def tearDown(self):
        self.engine.close()

    def test_every_phase_is_accepted_and_answered(self):
        game, me = two_player_world(me_first=False)
        w = game.world.territories
        ai = ai_for(game, me, self.engine)
        # Setup: two open territories to claim, then starting armies (31 each: 13 + 21 placed).
        for name in ["Alaska", "Kamchatka"]:
            w[name].owner, w[name].forces = None, 0
        empty = [w["Alaska"], w["Kamchatka"]]
        choice = ai.initial_placement(empty, 20)
        self.assertIn(choice, ["Alaska", "Kamchatka"])
        for name in ["Alaska", "Kamchatka"]:
            w[name].owner, w[name].forces = me, 1
        for t in w.values():
            if t.owner == me:
                t.forces = 1
        self.assertIn(ai.initial_placement(None, 31 - 14), bridge.PYRISK_TO_PLY)
        self.assertEqual(w[ai.initial_placement(None, 1)].owner, me)
        # A turn: the draft, attacks, a conquest and the free move.
        for t in w.values():
            t.forces = 3 if t.owner == me else 1
        draft = ai.reinforce(5)
        self.assertEqual(sum(draft.values()), 5)
        self.assertTrue(all(w[name].owner == me for name in draft))
        for name, armies in draft.items():
            w[name].forces += armies
        src, dst, f_atk, f_move = next(ai.attack())
        self.assertEqual(w[src].owner, me)
        self.assertNotEqual(w[dst].owner, me)
        moved = f_move(w[src].forces)
        self.assertTrue(min(w[src].forces - 1, 3) <= moved <= w[src].forces - 1)
        w[dst].owner, w[dst].forces, w[src].forces = me, moved, w[src].forces - moved
        move = ai.freemove()
        if move is not None:
            a, b, n = move
            self.assertTrue(w[a].owner == me and w[b].owner == me and 0 < n < w[a].forces)


if __name__ == "__main__":
    unittest.main()

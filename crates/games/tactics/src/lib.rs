//! A tactical squad game (docs/tactics.md; the source document is `../shared/docs/SEEDS.md` §4):
//! two sides of fighters, archers and sorcerers on a procedural map of earth, walls and water.
//! A side's turn is one action per living unit, in any order — a turn of several decisions in
//! the game model — so the generic searches and the whole-turn planners apply.

pub mod agents;
pub mod grid;
pub mod mapgen;
mod moves;
mod notation;
pub mod plans;
pub mod rules;
pub mod scenario;
pub mod units;
mod validate;

use ply_core::rng::Rng;
use ply_core::{AgentFactory, BenchCase, Error, Game, GameDef, ParamInfo, Params, Resource, Returns, Turn};
use rand::RngExt;

pub use grid::{Cell, Cells, Dir, Map, Terrain, cell_name, parse_cell};
pub use moves::Outcome;
pub use notation::{parse_turn, turn_text};
pub use plans::Plan;
pub use rules::{DEAL_SEEDS, Rules, Tactics, TacticsAction};
pub use units::{Kind, Team, Unit, unit_value};

impl Tactics {
    /// Checks and plays a run of actions given as text (a whole turn, say: `b2-d4>n c1 a3-a5`),
    /// all or nothing; with `whole`, the run must end the turn (or the game). Returns the actions.
    pub fn play_turn(&mut self, text: &str, whole: bool) -> Result<Vec<TacticsAction>, Error> {
        let actions = parse_turn(text)?;
        let mut next = self.clone();
        for (i, &action) in actions.iter().enumerate() {
            next.play(action)
                .map_err(|e| e.context(format!("action {} '{}'", i + 1, notation::action_text(action))))?;
        }
        if whole && next.continues_turn() {
            let left: Vec<String> = next.to_act().map(|s| cell_name(next.units[s].cell)).collect();
            return Err(Error::illegal(format!(
                "the turn is not over: the units on {} have not acted",
                left.join(", ")
            )));
        }
        *self = next;
        Ok(actions)
    }
}

/// A mid-game position (map seed 42, max_agro against itself to round 4): five units against
/// six, scattered and wounded, the side to move at the start of its turn.
const BENCH_POSITION: &str = "tactics size=10 round=4 player=0; map ........../......#.../.......~../........~./........../........../.~......../..~......./...#....../..........; side0 Wx Af3:35 Aa8:60 Aa7:60 Af2:35 Fe10:75; side1 Wi10:40 Af10:10 Ag10:60 Ah10:60 Af9:10 Fe1:75";

impl Game for Tactics {
    type Action = TacticsAction;

    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.is_dealing() {
            Turn::Chance
        } else if self.is_over() {
            Turn::Over
        } else {
            Turn::Player(self.player())
        }
    }

    fn legal_actions(&self, out: &mut Vec<TacticsAction>) {
        self.list_actions(out);
    }

    fn chance_outcomes(&self, out: &mut Vec<(TacticsAction, f64)>) {
        out.clear();
        if self.is_dealing() {
            let p = 1.0 / f64::from(DEAL_SEEDS);
            out.extend((0..DEAL_SEEDS).map(|seed| (TacticsAction::Deal(seed), p)));
        }
    }

    fn sample_chance(&self, rng: &mut Rng) -> TacticsAction {
        TacticsAction::Deal(rng.random_range(0..DEAL_SEEDS))
    }

    fn apply(&mut self, action: TacticsAction) {
        self.apply_action(action);
    }

    fn returns(&self) -> Returns {
        self.scores()
    }

    fn continues_turn(&self) -> bool {
        self.turn_goes_on()
    }

    fn decisions_left_in_turn(&self) -> Option<u32> {
        match self.turn() {
            Turn::Player(_) => Some(self.to_act().count() as u32),
            _ => Some(1),
        }
    }

    fn hash_key(&self) -> Option<u64> {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.hash(&mut hasher);
        Some(hasher.finish())
    }

    fn is_legal(&self, action: TacticsAction) -> bool {
        self.check_action(action).is_ok()
    }

    /// As the provided `play`, with the reason for a refusal in words.
    fn play(&mut self, action: TacticsAction) -> Result<(), Error> {
        self.check_action(action).map_err(|e| {
            Error::illegal(format!("{} is not legal here: {e}", notation::action_text(action)))
        })?;
        self.apply_action(action);
        Ok(())
    }

    fn action_to_text(&self, action: TacticsAction) -> String {
        notation::action_text(action)
    }

    fn parse_action(&self, text: &str) -> Result<TacticsAction, Error> {
        notation::parse_action(text)
    }

    fn action_to_json(&self, action: TacticsAction) -> serde_json::Value {
        notation::action_json(action)
    }

    fn action_from_json(&self, json: &serde_json::Value) -> Result<TacticsAction, Error> {
        notation::action_from_json(json)
    }

    fn to_text(&self) -> String {
        notation::state_text(self)
    }

    fn parse_state(&self, text: &str) -> Result<Self, Error> {
        notation::parse_state(self, text)
    }

    fn to_json(&self) -> serde_json::Value {
        notation::state_json(self)
    }

    fn state_from_json(&self, json: &serde_json::Value) -> Result<Self, Error> {
        notation::state_from_json(self, json)
    }
}

impl GameDef for Tactics {
    const NAME: &'static str = "tactics";
    const ABOUT: &'static str =
        "tactical squad battle: fighters, archers and sorcerers on a procedural map; a turn moves every unit";

    fn options() -> Vec<ParamInfo> {
        vec![
            ParamInfo::new(
                "map_seed",
                "random",
                "seed of the map and of drawn teams: 'random' (a chance event at the start draws 0-9999) or a number",
            ),
            ParamInfo::new(
                "handicap",
                0,
                "units of player 0 (who moves first): '0' as many as player 1, '1' an extra fighter, '-1' one fewer (the last)",
            ),
            ParamInfo::new("size", 10, "side of a generated board, 8-16 (a map file has its own)"),
            ParamInfo::new(
                "team",
                "random",
                "'random' (drawn from the seed) or 1-6 letters F, A, W for both sides",
            ),
            ParamInfo::new("map", "generated", "'generated' from the seed, or a map file (docs/tactics.md)")
                .costs(Resource::File { builtin: &["generated"] }),
            ParamInfo::new(
                "max_turns",
                100,
                "rounds before the game is adjudicated by the value of the units left",
            ),
        ]
    }

    fn new_game(options: &Params) -> Result<Self, Error> {
        let mut rules = Rules::new(options.get_in("size", grid::MIN_SIZE..=grid::MAX_SIZE)?);
        rules.max_turns = options.get_in("max_turns", 1..=10_000)?;
        rules.handicap = options.get_in("handicap", -1..=1)?;
        rules.team = match options.raw("team") {
            "random" => None,
            text => Some(
                Team::parse(text)
                    .map_err(|e| Error::spec(format!("{}: parameter team: {e}", options.owner())))?,
            ),
        };
        rules.seed = match options.raw("map_seed") {
            "random" => None,
            text => Some(text.parse::<u32>().map_err(|_| {
                Error::spec(format!(
                    "{}: parameter map_seed must be 'random' or a number from 0 to {}, got '{text}'",
                    options.owner(),
                    u32::MAX
                ))
            })?),
        };
        let map = match options.raw("map") {
            "generated" => Map::open(rules.size),
            path => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| Error::spec(format!("map file '{path}' cannot be read: {e}")))?;
                let map = Map::parse(&text).map_err(|e| Error::spec(format!("map file '{path}': {e}")))?;
                if options.is_set("size") && map.size() != rules.size {
                    return Err(Error::spec(format!(
                        "map file '{path}' is {0}x{0}, but size={1}",
                        map.size(),
                        rules.size
                    )));
                }
                rules.size = map.size();
                rules.map_given = true;
                map
            }
        };
        Tactics::new(rules, map).map_err(|e| Error::spec(format!("bad map: {e}")))
    }

    fn agents() -> Vec<AgentFactory<Self>> {
        agents::factories()
    }

    fn bench_cases() -> Vec<BenchCase> {
        // An iteration is one whole turn played out and judged for all three, so the lines'
        // speeds compare directly: whole-turn evaluations (and, for scenario, mutations) per
        // second; mcts's are single-action playouts cut after 6 actions.
        vec![
            BenchCase { position: BENCH_POSITION, agent: "scenario", iterations: 5_000 },
            BenchCase { position: BENCH_POSITION, agent: "oep", iterations: 5_000 },
            BenchCase { position: BENCH_POSITION, agent: "mcts", iterations: 5_000 },
        ]
    }
}

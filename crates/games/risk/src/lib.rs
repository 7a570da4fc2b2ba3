//! Risk for 2–6 players (docs/risk.md): the classic rules with cards, dice and fortifying, the
//! source document's draft-and-attack variant, custom maps, and its players — the document's
//! alpha-beta agent, a greedy baseline and the generic searches.

pub mod agents;
mod cards;
mod claims;
pub mod dice;
pub mod document;
pub mod eval;
pub mod map;
mod moves;
mod notation;
pub mod planner;
mod random_move;
pub mod rules;
mod setup;
mod validate;

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use ply_core::rng::Rng;
use ply_core::{
    AgentFactory, BenchCase, Error, Game, GameDef, ParamInfo, Params, Player, Resource, Returns, Turn,
};
use rand::seq::SliceRandom;

pub use map::Map;
pub use rules::{
    CardValues, FortifyRule, MAX_SEATS, NEUTRAL, OPEN, Phase, Risk, RiskAction, Rules, SetupRule, Variant,
};

impl Risk {
    /// Which seats' hands `viewer` may not see: every other seat's until the game is over.
    fn hidden_from(&self, viewer: Option<Player>) -> [bool; MAX_SEATS] {
        let mut hidden = [false; MAX_SEATS];
        if self.phase != Phase::Over {
            for (seat, h) in hidden.iter_mut().enumerate().take(self.players()) {
                *h = viewer != Some(seat);
            }
        }
        hidden
    }
}

impl Game for Risk {
    type Action = RiskAction;
    const HIDDEN_INFORMATION: bool = true;

    fn num_players(&self) -> usize {
        self.players()
    }

    fn turn(&self) -> Turn {
        match self.phase {
            Phase::Over => Turn::Over,
            Phase::Deal | Phase::Battle { .. } | Phase::Draw => Turn::Chance,
            _ => Turn::Player(self.current()),
        }
    }

    fn legal_actions(&self, out: &mut Vec<RiskAction>) {
        self.list_actions(out);
    }

    fn chance_outcomes(&self, out: &mut Vec<(RiskAction, f64)>) {
        self.list_outcomes(out);
    }

    fn sample_chance(&self, rng: &mut Rng) -> RiskAction {
        self.sample_outcome(rng)
    }

    fn random_action(&self, rng: &mut Rng, scratch: &mut Vec<RiskAction>) -> RiskAction {
        self.draw_random_action(rng, scratch)
    }

    fn apply(&mut self, action: RiskAction) {
        self.apply_action(action);
    }

    fn returns(&self) -> Returns {
        self.scores()
    }

    fn continues_turn(&self) -> bool {
        self.turn_goes_on()
    }

    fn decisions_left_in_turn(&self) -> Option<u32> {
        match self.phase {
            Phase::Pick | Phase::Setup => Some(1),
            _ => None,
        }
    }

    fn hash_key(&self) -> Option<u64> {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        let n = self.map().len();
        self.owner[..n].hash(&mut hasher);
        self.armies[..n].hash(&mut hasher);
        (self.phase, self.current, self.reserve, self.hands, self.discard, self.trades).hash(&mut hasher);
        (self.conquered, self.acted, self.round, self.dealt).hash(&mut hasher);
        Some(hasher.finish())
    }

    fn action_to_text(&self, action: RiskAction) -> String {
        notation::action_text(self.map(), action)
    }

    fn parse_action(&self, text: &str) -> Result<RiskAction, Error> {
        notation::parse_action(self.map(), self.players(), text)
    }

    fn to_text(&self) -> String {
        notation::state_text(self, [false; MAX_SEATS])
    }

    fn parse_state(&self, text: &str) -> Result<Self, Error> {
        notation::parse_state(self, text)
    }

    fn to_json(&self) -> serde_json::Value {
        notation::state_json(self, [false; MAX_SEATS])
    }

    fn state_from_json(&self, json: &serde_json::Value) -> Result<Self, Error> {
        notation::state_from_json(self, json)
    }

    /// The map in its file format: names, continents and bonuses, card pictures, positions for
    /// drawing and borders.
    fn board_json(&self) -> serde_json::Value {
        self.map().to_json()
    }

    fn observation_text(&self, viewer: Option<Player>) -> String {
        notation::state_text(self, self.hidden_from(viewer))
    }

    fn observation_json(&self, viewer: Option<Player>) -> serde_json::Value {
        notation::state_json(self, self.hidden_from(viewer))
    }

    fn action_observation(&self, action: RiskAction, viewer: Option<Player>) -> String {
        match action {
            RiskAction::Draw(_) if viewer != Some(self.current()) && self.phase != Phase::Over => {
                format!("player {} draws a card", self.current())
            }
            _ => self.action_to_text(action),
        }
    }

    /// The other hands drawn again, at their sizes, from the cards `viewer` has not seen (not in
    /// its hand, not discarded); the rest is the deck.
    fn resample_hidden(&self, viewer: Player, rng: &mut Rng) -> Self {
        let mut world = self.clone();
        if self.phase == Phase::Over {
            return world;
        }
        let others: Vec<Player> = (0..self.players()).filter(|&s| s != viewer).collect();
        let mut unseen: Vec<u8> = (0..128u8)
            .filter(|&c| {
                let bit = 1u128 << c;
                (self.deck() & bit != 0) || others.iter().any(|&s| self.hands[s] & bit != 0)
            })
            .collect();
        unseen.shuffle(rng);
        let mut next = unseen.into_iter();
        for &seat in &others {
            let size = self.hand_size(seat);
            world.hands[seat] = next.by_ref().take(size).fold(0, |hand, c| hand | 1u128 << c);
        }
        world
    }
}

/// Two players at the start of round 3 of a game between `greedy` players: a draft, then
/// attacks, with cards in hand.
const BENCH_POSITION: &str = "risk players=2 round=3 player=0 phase=draft reserve=5 trades=0 conquered=0 acted=0 dealt=42; territories alaska=0:1 northwest-territory=0:2 greenland=1:1 alberta=0:1 ontario=0:3 quebec=1:3 western-united-states=0:1 eastern-united-states=0:2 central-america=1:1 venezuela=1:1 peru=0:1 brazil=1:1 argentina=0:1 iceland=1:1 scandinavia=1:1 great-britain=1:1 northern-europe=1:1 western-europe=1:1 southern-europe=1:1 ukraine=1:3 north-africa=1:1 egypt=1:1 east-africa=1:1 congo=1:1 south-africa=1:1 madagascar=1:1 ural=0:1 siberia=0:1 yakutsk=0:1 kamchatka=0:1 irkutsk=1:1 mongolia=0:1 japan=1:1 afghanistan=1:1 china=0:1 middle-east=1:1 india=1:1 siam=1:1 indonesia=0:1 new-guinea=1:1 western-australia=0:1 eastern-australia=1:1; hands 0:scandinavia,great-britain 1:brazil,kamchatka; discard";
/// The same turn after the draft: the position every attack-phase search starts from.
const BENCH_ATTACK_POSITION: &str = "risk players=2 round=3 player=0 phase=attack reserve=0 trades=0 conquered=0 acted=0 dealt=42; territories alaska=0:1 northwest-territory=0:2 greenland=1:1 alberta=0:1 ontario=0:3 quebec=1:3 western-united-states=0:1 eastern-united-states=0:2 central-america=1:1 venezuela=1:1 peru=0:1 brazil=1:1 argentina=0:6 iceland=1:1 scandinavia=1:1 great-britain=1:1 northern-europe=1:1 western-europe=1:1 southern-europe=1:1 ukraine=1:3 north-africa=1:1 egypt=1:1 east-africa=1:1 congo=1:1 south-africa=1:1 madagascar=1:1 ural=0:1 siberia=0:1 yakutsk=0:1 kamchatka=0:1 irkutsk=1:1 mongolia=0:1 japan=1:1 afghanistan=1:1 china=0:1 middle-east=1:1 india=1:1 siam=1:1 indonesia=0:1 new-guinea=1:1 western-australia=0:1 eastern-australia=1:1; hands 0:scandinavia,great-britain 1:brazil,kamchatka; discard";

impl GameDef for Risk {
    const NAME: &'static str = "risk";
    const ABOUT: &'static str = "Risk for 2-6 players: conquer the world with dice, cards and armies (or the document's draft-and-attack rules)";

    fn options() -> Vec<ParamInfo> {
        vec![
            ParamInfo::new("players", 2, "number of players, 2-6"),
            ParamInfo::new("map", "classic", "'classic' (42 territories), or a map file (docs/risk.md)")
                .costs(Resource::File { builtin: &["classic"] }),
            ParamInfo::new(
                "rules",
                "classic",
                "'classic' (cards, fortify) or 'document' (draft and attack only)",
            ),
            ParamInfo::new("setup", "deal", "territories 'deal't at random or 'pick'ed in turn"),
            ParamInfo::new(
                "cards",
                "escalating",
                "set values: 'escalating' (4, 6, 8, 10, 12, 15, +5) or 'fixed', or 'none' (no cards)",
            ),
            ParamInfo::new(
                "fortify",
                "adjacent",
                "fortify to an 'adjacent' territory, any 'connected' one, or 'anywhere' (any own territory)",
            ),
            ParamInfo::new("neutral", false, "a neutral side holding territories (two players only)"),
            ParamInfo::new(
                "max_rounds",
                100,
                "rounds before the game is adjudicated by territories and armies",
            ),
            ParamInfo::new(
                "start_armies",
                "classic",
                "starting armies per player: 'classic' (40, 35, 30, 25, 20 for 2-6 players) or a number",
            ),
        ]
    }

    fn new_game(options: &Params) -> Result<Self, Error> {
        let players: u8 = options.get_in("players", 2..=6)?;
        let map = match options.raw("map") {
            "classic" => Map::classic(),
            path => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| Error::spec(format!("map file '{path}' cannot be read: {e}")))?;
                Map::from_json_text(&text).map_err(|e| e.context(format!("map file '{path}'")))?
            }
        };
        let rules = Rules {
            players,
            variant: match options.get_choice("rules", &["classic", "document"])? {
                "classic" => Variant::Classic,
                _ => Variant::Document,
            },
            fortify: match options.get_choice("fortify", &["adjacent", "connected", "anywhere"])? {
                "adjacent" => FortifyRule::Adjacent,
                "connected" => FortifyRule::Connected,
                _ => FortifyRule::Anywhere,
            },
            card_values: match options.get_choice("cards", &["escalating", "fixed", "none"])? {
                "escalating" => CardValues::Escalating,
                "fixed" => CardValues::Fixed,
                _ => CardValues::None,
            },
            setup: match options.get_choice("setup", &["deal", "pick"])? {
                "deal" => SetupRule::Deal,
                _ => SetupRule::Pick,
            },
            neutral: options.get_bool("neutral")?,
            max_rounds: options.get_in("max_rounds", 1..=10_000)?,
            start_armies: match options.raw("start_armies") {
                "classic" => None,
                _ => Some(options.get_in("start_armies", 1..=1000)?),
            },
        };
        if rules.neutral && players != 2 {
            return Err(Error::spec("a neutral side plays only in two-player games"));
        }
        // Every territory a seat gets starts with one of its armies.
        let share = map.len().div_ceil(rules.owners());
        if usize::from(rules.starting_armies()) < share {
            return Err(Error::spec(format!(
                "{} starting armies are too few: a seat gets up to {share} territories of the {} map, one army each",
                rules.starting_armies(),
                map.name
            )));
        }
        if map.len() < rules.owners() {
            return Err(Error::spec(format!(
                "the {} map has {} territories, too few for {} sides",
                map.name,
                map.len(),
                rules.owners()
            )));
        }
        Ok(Risk::new(Arc::new(map), rules))
    }

    fn agents() -> Vec<AgentFactory<Self>> {
        agents::factories()
    }

    fn bench_cases() -> Vec<BenchCase> {
        // Every agent at its default settings, deciding from the start of a turn: the lines'
        // times are the decision times (minimax plans its whole turn there; the budget is high
        // enough that its default depth, not the budget, ends the search).
        let mut cases = vec![BenchCase { position: BENCH_POSITION, agent: "mcts", iterations: 2_000 }];
        for position in [BENCH_POSITION, BENCH_ATTACK_POSITION] {
            for agent in ["minimax", "planner", "greedy"] {
                cases.push(BenchCase { position, agent, iterations: 10_000_000 });
            }
        }
        cases
    }

    fn bench_random_games() -> u64 {
        // About 4,700 actions each (most reach the 100-round cap): 200 take a tenth of a second.
        200
    }
}

//! Test games that exercise every corner of the model: random trees with chance nodes, any
//! number of players, players moving several times in a row, and transpositions.

#![allow(dead_code)]

use ply_core::rng::derive_seed;
use ply_core::{Error, Game, Player, Returns, Turn};
use serde_json::Value;

/// The notation of a test game whose actions are small numbers and whose states are never read
/// back: the same five methods in every test game.
macro_rules! numbered_actions {
    () => {
        fn action_to_text(&self, action: u8) -> String {
            action.to_string()
        }
        fn parse_action(&self, text: &str) -> Result<u8, Error> {
            text.parse().map_err(|_| Error::notation("not a number"))
        }
        fn parse_state(&self, _text: &str) -> Result<Self, Error> {
            Err(Error::notation("not supported"))
        }
        fn to_json(&self) -> Value {
            Value::Null
        }
        fn state_from_json(&self, _json: &Value) -> Result<Self, Error> {
            Err(Error::notation("not supported"))
        }
    };
}

/// A game whose tree is drawn from a seed. A state is (player decisions so far, running sum of
/// the actions taken mod 61, whether a chance event just happened), so different move orders
/// reach the same state: transpositions are common. Every path to a state has the same number of
/// player decisions, so a fixed-depth search gives each state one value, and a transposition
/// table may not change the result of plain minimax.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RandomTree {
    pub seed: u64,
    pub players: usize,
    pub max_depth: u8,
    pub depth: u8,
    pub sum: u8,
    pub after_chance: bool,
    pub with_chance: bool,
    /// Who made the last decision: a player to move again continues its turn.
    pub last_mover: Option<u8>,
}

impl RandomTree {
    pub fn new(seed: u64, players: usize, max_depth: u8, with_chance: bool) -> Self {
        RandomTree {
            seed,
            players,
            max_depth,
            depth: 0,
            sum: 0,
            after_chance: false,
            with_chance,
            last_mover: None,
        }
    }

    fn h(&self, salt: u64) -> u64 {
        derive_seed(
            derive_seed(
                self.seed,
                (self.depth as u64) << 9 | (self.sum as u64) << 1 | self.after_chance as u64,
            ),
            salt,
        )
    }

    fn branching(&self) -> usize {
        1 + (self.h(1) % 4) as usize
    }
}

impl Game for RandomTree {
    type Action = u8;
    numbered_actions!();

    fn num_players(&self) -> usize {
        self.players
    }

    fn turn(&self) -> Turn {
        if self.depth >= self.max_depth || (self.depth > 1 && self.h(2).is_multiple_of(11)) {
            Turn::Over
        } else if self.with_chance && !self.after_chance && self.h(3).is_multiple_of(3) {
            Turn::Chance
        } else {
            // Any player may be next, the same one included: multi-action turns.
            Turn::Player((self.h(4) % self.players as u64) as Player)
        }
    }

    fn legal_actions(&self, out: &mut Vec<u8>) {
        out.clear();
        if matches!(self.turn(), Turn::Player(_)) {
            out.extend(0..self.branching() as u8);
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(u8, f64)>) {
        out.clear();
        if self.turn() == Turn::Chance {
            let n = 2 + (self.h(5) % 3) as usize;
            let weights: Vec<f64> = (0..n).map(|i| 1.0 + (self.h(10 + i as u64) % 7) as f64).collect();
            let total: f64 = weights.iter().sum();
            out.extend(weights.iter().enumerate().map(|(i, w)| (i as u8 + 10, w / total)));
        }
    }

    fn continues_turn(&self) -> bool {
        matches!(self.turn(), Turn::Player(p) if self.last_mover == Some(p as u8))
    }

    fn apply(&mut self, action: u8) {
        let was_chance = self.turn() == Turn::Chance;
        if let Turn::Player(p) = self.turn() {
            self.last_mover = Some(p as u8);
        }
        self.sum = ((self.sum as u32 + action as u32 + 1) % 61) as u8;
        self.after_chance = was_chance;
        if !was_chance {
            self.depth += 1;
        }
    }

    fn returns(&self) -> Returns {
        let r = self.h(6) % (self.players as u64 + 1);
        if r as usize == self.players {
            Returns::draw(self.players)
        } else {
            Returns::win(self.players, r as usize)
        }
    }

    fn hash_key(&self) -> Option<u64> {
        Some(self.h(7) ^ self.last_mover.map_or(0, |p| derive_seed(p as u64, 0x7u64)))
    }

    fn to_text(&self) -> String {
        format!("{}:{}", self.depth, self.sum)
    }
}

/// A deterministic pseudo-random evaluation in [-1, 1], zero-sum for two players.
pub fn random_eval(state: &RandomTree, player: Player) -> f64 {
    let v = (state.h(8) % 2001) as f64 / 1000.0 - 1.0;
    if state.players == 2 && player == 1 { -v } else { derive_v(v, player) }
}

fn derive_v(v: f64, player: Player) -> f64 {
    if player == 0 { v } else { ((v * 7.0 + player as f64).sin()).clamp(-1.0, 1.0) }
}

/// Take-away: a pile of stones, each player takes 1-3 in turn, taking the last stone wins.
/// With two players the winning move from n stones is to take n mod 4 (when that is not 0).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TakeAway {
    pub stones: u8,
    pub player: u8,
    pub last: u8,
}

impl Game for TakeAway {
    type Action = u8;
    numbered_actions!();
    fn num_players(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        if self.stones == 0 { Turn::Over } else { Turn::Player(self.player as usize) }
    }
    fn legal_actions(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend((1..=3).filter(|&k| k <= self.stones));
    }
    fn chance_outcomes(&self, out: &mut Vec<(u8, f64)>) {
        out.clear();
    }
    fn apply(&mut self, k: u8) {
        self.stones -= k;
        self.last = self.player;
        self.player = 1 - self.player;
    }
    fn returns(&self) -> Returns {
        Returns::win(2, self.last as usize)
    }
    fn to_text(&self) -> String {
        self.stones.to_string()
    }
}

/// Take-away with up to `max` stones a move: the winning move from n stones is to take
/// n mod (max + 1). A broad game with a forced win, for progressive widening.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct WideTake {
    pub stones: u8,
    pub max: u8,
    pub player: u8,
    pub last: u8,
}

impl Game for WideTake {
    type Action = u8;
    numbered_actions!();
    fn num_players(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        if self.stones == 0 { Turn::Over } else { Turn::Player(self.player as usize) }
    }
    fn legal_actions(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend((1..=self.max).filter(|&k| k <= self.stones));
    }
    fn chance_outcomes(&self, out: &mut Vec<(u8, f64)>) {
        out.clear();
    }
    fn apply(&mut self, k: u8) {
        self.stones -= k;
        self.last = self.player;
        self.player = 1 - self.player;
    }
    fn returns(&self) -> Returns {
        Returns::win(2, self.last as usize)
    }
    fn to_text(&self) -> String {
        self.stones.to_string()
    }
}

/// A gamble: player 0 plays safe (a position its evaluation gives 0.1, a 55% chance) or takes a
/// risk (a die: on a one player 0 loses at once, otherwise a position worth 0.9, a 95% chance).
/// Either way player 1 then has one forced move. The risk wins 79% of the time and is right.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Gamble {
    Start,
    /// The die of the risky choice is about to be rolled.
    Rolling,
    /// Player 1 to move, then the position is worth this much (in tenths) to player 0.
    Reply(i8),
    Leaf(i8),
    Lost,
}

impl Game for Gamble {
    type Action = u8;
    numbered_actions!();
    fn num_players(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        match self {
            Gamble::Start => Turn::Player(0),
            Gamble::Rolling => Turn::Chance,
            Gamble::Reply(_) | Gamble::Leaf(_) => Turn::Player(1),
            Gamble::Lost => Turn::Over,
        }
    }
    fn legal_actions(&self, out: &mut Vec<u8>) {
        out.clear();
        match self {
            Gamble::Start => out.extend([0, 1]),
            Gamble::Reply(_) | Gamble::Leaf(_) => out.push(0),
            _ => {}
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(u8, f64)>) {
        out.clear();
        if *self == Gamble::Rolling {
            out.extend((1..=6).map(|d| (d, 1.0 / 6.0)));
        }
    }
    fn apply(&mut self, action: u8) {
        *self = match (&*self, action) {
            (Gamble::Start, 0) => Gamble::Reply(1),
            (Gamble::Start, _) => Gamble::Rolling,
            (Gamble::Rolling, 1) => Gamble::Lost,
            (Gamble::Rolling, _) => Gamble::Reply(9),
            (Gamble::Reply(v), _) => Gamble::Leaf(*v),
            (other, _) => other.clone(),
        }
    }
    fn returns(&self) -> Returns {
        Returns::win(2, 1)
    }
    fn to_text(&self) -> String {
        format!("{self:?}")
    }
}

/// Player 0's expected result in a [`Gamble`] position: `2 P(win) - 1`.
pub fn gamble_eval(state: &Gamble, player: Player) -> f64 {
    let v = match state {
        Gamble::Reply(t) | Gamble::Leaf(t) => *t as f64 / 10.0,
        _ => 0.0,
    };
    if player == 0 { v } else { -v }
}

/// `players` take turns choosing 0 or 1, for ever: no search reaches an end, so every leaf's
/// value is the evaluator's.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Endless {
    pub players: usize,
    pub moves: u32,
}

impl Game for Endless {
    type Action = u8;
    numbered_actions!();

    fn num_players(&self) -> usize {
        self.players
    }
    fn turn(&self) -> Turn {
        Turn::Player(self.moves as usize % self.players)
    }
    fn legal_actions(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend([0, 1]);
    }
    fn chance_outcomes(&self, out: &mut Vec<(u8, f64)>) {
        out.clear();
    }
    fn apply(&mut self, _action: u8) {
        self.moves += 1;
    }
    fn returns(&self) -> Returns {
        Returns::draw(self.players)
    }
    fn to_text(&self) -> String {
        self.moves.to_string()
    }
}

/// Two players take turns of `TURN_BITS` binary choices each, three turns in all; every line is
/// its own position. A turn's end is where a multi-action planner is judged.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Bits {
    pub bits: u64,
    pub moves: u32,
}

pub const TURN_BITS: u32 = 6;

impl Game for Bits {
    type Action = u8;
    numbered_actions!();

    fn num_players(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        if self.moves >= 3 * TURN_BITS {
            Turn::Over
        } else {
            Turn::Player((self.moves / TURN_BITS) as usize % 2)
        }
    }
    fn continues_turn(&self) -> bool {
        !self.moves.is_multiple_of(TURN_BITS) && self.turn() != Turn::Over
    }
    fn decisions_left_in_turn(&self) -> Option<u32> {
        Some(TURN_BITS - self.moves % TURN_BITS)
    }
    fn legal_actions(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.turn() != Turn::Over {
            out.extend([0, 1]);
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(u8, f64)>) {
        out.clear();
    }
    fn apply(&mut self, action: u8) {
        self.bits |= u64::from(action) << self.moves;
        self.moves += 1;
    }
    fn returns(&self) -> Returns {
        Returns::draw(2)
    }
    fn to_text(&self) -> String {
        format!("{}:{:b}", self.moves, self.bits)
    }
}

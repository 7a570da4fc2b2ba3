//! EinStein würfelt nicht (docs/einstein.md).
//!
//! Squares are numbered `row * 5 + col`, row 0 at the top. Red (player 0) starts in the top-left
//! triangle and races to square 24; blue (player 1) starts bottom-right and races to square 0.
//! A game is: the starter arranges its cubes, then the other side (each a player's choice or a
//! chance event, by option); then turns of a die roll (chance) and a move. A match of several
//! games ("first to N wins") continues in the same state; the starter alternates.

use ply_core::{Game, Returns, Turn};

use crate::setup::{SETUPS, arrangement};

pub const SIDE_NAMES: [&str; 2] = ["red", "blue"];
pub const RED: u8 = 0;
pub const BLUE: u8 = 1;
/// The squares each side arranges its cubes on, from its own corner outward.
pub const SETUP_SQUARES: [[u8; 6]; 2] = [[0, 1, 2, 5, 6, 10], [24, 23, 22, 19, 18, 14]];
/// The corner each side races to.
pub const GOAL: [u8; 2] = [24, 0];
pub const NO_SQUARE: u8 = u8::MAX;
/// Direction names by side: red moves east, south or south-east; blue west, north or north-west.
pub const DIRECTION_NAMES: [&str; 6] = ["e", "s", "se", "w", "n", "nw"];
const STEPS: [(i8, i8); 6] = [(0, 1), (1, 0), (1, 1), (0, -1), (-1, 0), (-1, -1)];

/// Where a cube of `side` on `square` lands in direction `dir` (0-2), if on the board.
const fn target_table() -> [[[u8; 3]; 25]; 2] {
    let mut table = [[[NO_SQUARE; 3]; 25]; 2];
    let mut side = 0;
    while side < 2 {
        let mut sq = 0;
        while sq < 25 {
            let mut d = 0;
            while d < 3 {
                let (dr, dc) = STEPS[side * 3 + d];
                let r = (sq / 5) as i8 + dr;
                let c = (sq % 5) as i8 + dc;
                if r >= 0 && r < 5 && c >= 0 && c < 5 {
                    table[side][sq][d] = (r * 5 + c) as u8;
                }
                d += 1;
            }
            sq += 1;
        }
        side += 1;
    }
    table
}

pub const TARGETS: [[[u8; 3]; 25]; 2] = target_table();

/// An action: a side's arrangement (or the chance draw of one), a die roll, or a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Arrangement number 0..720 (see [`crate::setup`]).
    Setup(u16),
    /// A die value, 1..=6.
    Roll(u8),
    /// Cube 1..=6 of the side to move, in direction 0..6 ([`DIRECTION_NAMES`]; 0-2 red, 3-5 blue).
    Move { cube: u8, dir: u8 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetupMode {
    /// Each side chooses its arrangement: 720 moves.
    Choose,
    /// Each arrangement is drawn at random: a chance event with 720 outcomes.
    Random,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// `side` arranges its cubes.
    Setup,
    /// The die is about to be rolled for `side`.
    Roll,
    /// `side` moves after rolling this value.
    Move(u8),
    /// The match is over.
    Over,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    pub setup: SetupMode,
    /// Who starts the first game; later games alternate.
    pub first: u8,
    /// Games a side must win to win the match.
    pub match_to: u8,
}

impl Default for Options {
    fn default() -> Self {
        Options { setup: SetupMode::Random, first: RED, match_to: 1 }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Einstein {
    pub(crate) options: Options,
    /// 0 empty, 1-6 red cubes, 7-12 blue cubes.
    pub(crate) board: [u8; 25],
    /// The square of every cube, [`NO_SQUARE`] once captured (or not yet placed).
    pub(crate) squares: [[u8; 6]; 2],
    /// Bit `n - 1` set while cube `n` is on the board.
    pub(crate) alive: [u8; 2],
    pub(crate) side: u8,
    pub(crate) phase: Phase,
    /// Games won in this match.
    pub(crate) score: [u8; 2],
}

pub(crate) fn piece(side: u8, cube: u8) -> u8 {
    side * 6 + cube
}

/// The cubes of a side that may move after rolling `die`: the cube with that number, or if it
/// is gone the next lower and the next higher cubes still on the board.
pub fn movable_cubes(alive: u8, die: u8) -> impl Iterator<Item = u8> {
    let bit = 1u8 << (die - 1);
    let (a, b) = if alive & bit != 0 {
        (die, 0)
    } else {
        let lower = alive & (bit - 1);
        let higher = alive & !((bit << 1) - 1);
        let lower = if lower == 0 { 0 } else { 8 - lower.leading_zeros() as u8 };
        let higher = if higher == 0 { 0 } else { higher.trailing_zeros() as u8 + 1 };
        (lower, higher)
    };
    [a, b].into_iter().filter(|&c| c != 0)
}

impl Einstein {
    pub fn new(options: Options) -> Self {
        Einstein {
            options,
            board: [0; 25],
            squares: [[NO_SQUARE; 6]; 2],
            alive: [0; 2],
            side: options.first,
            phase: Phase::Setup,
            score: [0; 2],
        }
    }

    pub fn options(&self) -> Options {
        self.options
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The side to act (or that acted last, once the match is over).
    pub fn side(&self) -> u8 {
        self.side
    }

    pub fn score(&self) -> [u8; 2] {
        self.score
    }

    /// The owner and number of the cube on `square`.
    pub fn cube_at(&self, square: usize) -> Option<(u8, u8)> {
        match self.board[square] {
            0 => None,
            p => Some(((p - 1) / 6, (p - 1) % 6 + 1)),
        }
    }

    pub fn cube_square(&self, side: u8, cube: u8) -> Option<u8> {
        let sq = self.squares[side as usize][cube as usize - 1];
        (sq != NO_SQUARE).then_some(sq)
    }

    pub fn cubes_left(&self, side: u8) -> u32 {
        self.alive[side as usize].count_ones()
    }

    /// Who started the game in progress: games alternate from the `first` option.
    pub fn starter(&self) -> u8 {
        let games_played = self.score[0] + self.score[1];
        self.options.first ^ (games_played % 2)
    }

    /// Whether this is a match of several games.
    pub fn is_match(&self) -> bool {
        self.options.match_to > 1
    }

    /// The game in progress on its own, as a one-game match with the same position: what search
    /// should look at, since winning this game is all a player can do for the match.
    pub fn current_game(&self) -> Einstein {
        let mut game = self.clone();
        game.options.match_to = 1;
        game.options.first = self.starter();
        game.score = [0; 2];
        game
    }

    pub(crate) fn place(&mut self, side: u8, arrangement_index: u16) {
        let cubes = arrangement(arrangement_index);
        for (i, &square) in SETUP_SQUARES[side as usize].iter().enumerate() {
            let cube = cubes[i];
            self.board[square as usize] = piece(side, cube);
            self.squares[side as usize][cube as usize - 1] = square;
        }
        self.alive[side as usize] = 0b11_1111;
    }

    fn finish_game(&mut self, winner: u8) {
        self.score[winner as usize] += 1;
        if self.score[winner as usize] >= self.options.match_to {
            self.phase = Phase::Over;
            self.side = winner;
            return;
        }
        self.board = [0; 25];
        self.squares = [[NO_SQUARE; 6]; 2];
        self.alive = [0; 2];
        self.phase = Phase::Setup;
        self.side = self.starter();
    }

    /// Appends the moves of `side` after rolling `die`.
    pub(crate) fn moves_for(&self, side: u8, die: u8, out: &mut Vec<Action>) {
        for cube in movable_cubes(self.alive[side as usize], die) {
            let from = self.squares[side as usize][cube as usize - 1] as usize;
            for (d, &to) in TARGETS[side as usize][from].iter().enumerate() {
                if to != NO_SQUARE {
                    out.push(Action::Move { cube, dir: side * 3 + d as u8 });
                }
            }
        }
    }

    /// The squares a move of the side to move leaves and enters (`None` for other actions).
    pub fn move_squares(&self, action: Action) -> Option<(usize, usize)> {
        let Action::Move { cube, dir } = action else { return None };
        let s = self.side as usize;
        let from = self.squares[s][cube as usize - 1] as usize;
        Some((from, TARGETS[s][from][(dir % 3) as usize] as usize))
    }

    /// Whether a move of the side to move wins at once: it reaches the goal corner or takes the
    /// opponent's last cube.
    pub fn is_winning_move(&self, action: Action) -> bool {
        let Some((_, to)) = self.move_squares(action) else { return false };
        let s = self.side as usize;
        if to == GOAL[s] as usize {
            return true;
        }
        let p = self.board[to];
        p != 0 && (p - 1) / 6 != self.side && self.alive[1 - s].count_ones() == 1
    }

    /// Whether `side` would win at once by some move after rolling `die`.
    pub fn can_win_with(&self, side: u8, die: u8) -> bool {
        let opponent_cubes = self.alive[1 - side as usize].count_ones();
        movable_cubes(self.alive[side as usize], die).any(|cube| {
            let from = self.squares[side as usize][cube as usize - 1] as usize;
            TARGETS[side as usize][from].iter().any(|&to| {
                to == GOAL[side as usize]
                    || (opponent_cubes == 1 && to != NO_SQUARE && {
                        let p = self.board[to as usize];
                        p != 0 && (p - 1) / 6 != side
                    })
            })
        })
    }
}

impl Game for Einstein {
    type Action = Action;

    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        match self.phase {
            Phase::Setup if self.options.setup == SetupMode::Choose => Turn::Player(self.side as usize),
            Phase::Setup | Phase::Roll => Turn::Chance,
            Phase::Move(_) => Turn::Player(self.side as usize),
            Phase::Over => Turn::Over,
        }
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        match self.phase {
            Phase::Move(die) => self.moves_for(self.side, die, out),
            Phase::Setup if self.options.setup == SetupMode::Choose => {
                out.extend((0..SETUPS).map(Action::Setup))
            }
            _ => {}
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(Action, f64)>) {
        out.clear();
        match self.phase {
            Phase::Roll => out.extend((1..=6).map(|d| (Action::Roll(d), 1.0 / 6.0))),
            Phase::Setup if self.options.setup == SetupMode::Random => {
                out.extend((0..SETUPS).map(|i| (Action::Setup(i), 1.0 / SETUPS as f64)))
            }
            _ => {}
        }
    }

    fn apply(&mut self, action: Action) {
        match action {
            Action::Setup(index) => {
                self.place(self.side, index);
                self.side ^= 1;
                if self.side == self.starter() {
                    self.phase = Phase::Roll;
                }
            }
            Action::Roll(die) => self.phase = Phase::Move(die),
            Action::Move { cube, dir } => {
                let side = self.side;
                let s = side as usize;
                let from = self.squares[s][cube as usize - 1];
                let to = TARGETS[s][from as usize][(dir % 3) as usize];
                let captured = self.board[to as usize];
                if captured != 0 {
                    let (owner, number) = ((captured - 1) / 6, (captured - 1) % 6);
                    self.alive[owner as usize] &= !(1 << number);
                    self.squares[owner as usize][number as usize] = NO_SQUARE;
                }
                self.board[from as usize] = 0;
                self.board[to as usize] = piece(side, cube);
                self.squares[s][cube as usize - 1] = to;
                if to == GOAL[s] || self.alive[1 - s] == 0 {
                    self.finish_game(side);
                } else {
                    self.side ^= 1;
                    self.phase = Phase::Roll;
                }
            }
        }
    }

    fn sample_chance(&self, rng: &mut ply_core::Rng) -> Action {
        use rand::RngExt;
        match self.phase {
            Phase::Setup => Action::Setup(rng.random_range(0..SETUPS)),
            _ => Action::Roll(rng.random_range(1..=6)),
        }
    }

    fn returns(&self) -> Returns {
        let leader = if self.score[0] >= self.score[1] { 0 } else { 1 };
        if self.score[0] == self.score[1] { Returns::draw(2) } else { Returns::win(2, leader) }
    }

    fn hash_key(&self) -> Option<u64> {
        Some(crate::notation::zobrist(self))
    }

    fn action_to_text(&self, action: Action) -> String {
        crate::notation::action_to_text(action)
    }

    fn parse_action(&self, text: &str) -> Result<Action, ply_core::Error> {
        crate::notation::parse_action(text)
    }

    fn to_text(&self) -> String {
        crate::notation::state_to_text(self)
    }

    fn parse_state(&self, text: &str) -> Result<Self, ply_core::Error> {
        crate::notation::parse_state(self.options, text)
    }

    fn to_json(&self) -> serde_json::Value {
        crate::notation::state_to_json(self)
    }

    fn state_from_json(&self, json: &serde_json::Value) -> Result<Self, ply_core::Error> {
        crate::notation::state_from_json(self.options, json)
    }
}

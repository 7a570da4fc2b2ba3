//! What the value network sees of a position about to be rolled for: everything from the point of
//! view of the side to roll ("us"), the board turned so that we always race from the top-left to
//! square 24. A position and its colour-swapped, half-turned twin therefore give the same inputs.
//!
//! The inputs are sparse indicator features plus one dense input, the race evaluation's log-odds:
//! - each cube of each side on its square (which cube it is: its number);
//! - each cube's square with its mobility, the number of die values that let it move;
//! - each side's set of live cubes;
//! - each cube's square with the number of die values on which the other side could step onto it;
//! - for each side, the number of die values on which it could win at once.
//!
//! (Patterns of the 2×2 blocks of squares, tried as further inputs, did not make the network
//! play better.)

use crate::race::race_win_probability;
use crate::rules::{Einstein, GOAL, NO_SQUARE, Phase, TARGETS, movable_cubes};

const CUBES: usize = 0; // side * 150 + cube * 25 + square
const MOBILITY: usize = CUBES + 300; // side * 150 + (mobility - 1) * 25 + square
const ALIVE: usize = MOBILITY + 300; // side * 64 + mask
const THREATS: usize = ALIVE + 128; // side * 175 + threats * 25 + square
const WINS: usize = THREATS + 350; // side * 7 + winning die values

/// Number of sparse inputs.
pub const INPUTS: usize = WINS + 14;
/// Most sparse inputs active at once: three per cube and two per side.
pub const MAX_ACTIVE: usize = 3 * 12 + 4;

/// For every set of live cubes and cube number: on how many die values that cube may move.
const fn mobility_table() -> [[u8; 6]; 64] {
    let mut table = [[0u8; 6]; 64];
    let mut mask: usize = 1;
    while mask < 64 {
        let mut die: usize = 1;
        while die <= 6 {
            let bit = 1usize << (die - 1);
            if mask & bit != 0 {
                table[mask][die - 1] += 1;
            } else {
                // The next lower and next higher live cubes.
                let mut lower = die - 1;
                while lower >= 1 && mask & (1 << (lower - 1)) == 0 {
                    lower -= 1;
                }
                if lower >= 1 {
                    table[mask][lower - 1] += 1;
                }
                let mut higher = die + 1;
                while higher <= 6 && mask & (1 << (higher - 1)) == 0 {
                    higher += 1;
                }
                if higher <= 6 {
                    table[mask][higher - 1] += 1;
                }
            }
            die += 1;
        }
        mask += 1;
    }
    table
}

const MOBILITY_TABLE: [[u8; 6]; 64] = mobility_table();

/// The inputs of one position, kept on the stack: search computes them at every leaf.
#[derive(Clone, Debug)]
pub struct Features {
    active: [u16; MAX_ACTIVE],
    len: usize,
    /// The race evaluation's log-odds for us, clipped.
    pub race: f32,
}

impl Default for Features {
    fn default() -> Self {
        Features { active: [0; MAX_ACTIVE], len: 0, race: 0.0 }
    }
}

/// Squares the cubes of `side` can step onto after each die value, and the die values that let
/// `side` win at once.
fn reach(state: &Einstein, side: usize) -> ([u32; 6], usize) {
    let mut reach = [0u32; 6];
    let mut wins = 0;
    let opponent_cubes = state.alive[1 - side].count_ones();
    for die in 1..=6u8 {
        let mut win = false;
        for cube in movable_cubes(state.alive[side], die) {
            let from = state.squares[side][cube as usize - 1] as usize;
            for &to in &TARGETS[side][from] {
                if to == NO_SQUARE {
                    continue;
                }
                reach[die as usize - 1] |= 1 << to;
                let enemy = state.board[to as usize] != 0 && (state.board[to as usize] - 1) / 6 != side as u8;
                win |= to == GOAL[side] || (enemy && opponent_cubes == 1);
            }
        }
        wins += win as usize;
    }
    (reach, wins)
}

impl Features {
    /// The inputs of `state`, which must be about to roll for the side to move.
    pub fn of(state: &Einstein) -> Features {
        let mut features = Features::default();
        features.fill(state);
        features
    }

    /// Inputs given directly (for tests of the network).
    pub fn from_parts(active: &[u16], race: f32) -> Features {
        let mut features = Features { race, ..Features::default() };
        active.iter().for_each(|&i| features.push(i as usize));
        features
    }

    /// The indices of the active sparse inputs.
    pub fn active(&self) -> &[u16] {
        &self.active[..self.len]
    }

    fn push(&mut self, index: usize) {
        debug_assert!(index < INPUTS);
        self.active[self.len] = index as u16;
        self.len += 1;
    }

    pub fn fill(&mut self, state: &Einstein) {
        debug_assert_eq!(state.phase(), Phase::Roll);
        self.len = 0;
        let us = state.side() as usize;
        // Turn the board so that we race to square 24.
        let view = |square: usize| if us == 0 { square } else { 24 - square };
        let reaches = [reach(state, us), reach(state, 1 - us)];
        for (rel, side) in [us, 1 - us].into_iter().enumerate() {
            let alive = state.alive[side];
            let (other_reach, _) = reaches[1 - rel];
            let mobilities = &MOBILITY_TABLE[alive as usize];
            for (cube, (&square, &mobility)) in state.squares[side].iter().zip(mobilities).enumerate() {
                if square == NO_SQUARE {
                    continue;
                }
                let sq = square as usize;
                let v = view(sq);
                let mobility = mobility as usize;
                let threats = other_reach.iter().filter(|&&r| r >> sq & 1 != 0).count();
                self.push(CUBES + rel * 150 + cube * 25 + v);
                self.push(MOBILITY + rel * 150 + (mobility - 1) * 25 + v);
                self.push(THREATS + rel * 175 + threats * 25 + v);
            }
            self.push(ALIVE + rel * 64 + alive as usize);
            self.push(WINS + rel * 7 + reaches[rel].1);
        }
        let p = race_win_probability(state, us).clamp(1e-3, 1.0 - 1e-3);
        self.race = (p / (1.0 - p)).ln() as f32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Options;
    use ply_core::Game;
    use ply_core::rng::rng_from_seed;

    /// The colour-swapped, half-turned twin of a position.
    fn mirrored(state: &Einstein) -> Einstein {
        let mut twin = state.clone();
        twin.board = [0; 25];
        twin.squares = [[NO_SQUARE; 6]; 2];
        for side in 0..2 {
            for cube in 0..6 {
                let sq = state.squares[side][cube];
                if sq != NO_SQUARE {
                    twin.squares[1 - side][cube] = 24 - sq;
                    twin.board[24 - sq as usize] = crate::rules::piece(1 - side as u8, cube as u8 + 1);
                }
            }
        }
        twin.alive = [state.alive[1], state.alive[0]];
        twin.side = state.side ^ 1;
        twin
    }

    #[test]
    fn mobility_counts_every_die_value() {
        for (mask, mobilities) in MOBILITY_TABLE.iter().enumerate().skip(1) {
            for (cube, &mobility) in mobilities.iter().enumerate() {
                let number = cube as u8 + 1;
                let dice = (1..=6u8).filter(|&d| movable_cubes(mask as u8, d).any(|c| c == number)).count();
                assert_eq!(mobility as usize, dice, "cube {number} of {mask:06b}");
            }
        }
    }

    #[test]
    fn features_do_not_depend_on_colour() {
        let mut rng = rng_from_seed(3);
        let mut seen = 0;
        for _ in 0..200 {
            let mut state = Einstein::new(Options::default());
            while state.phase() != Phase::Over {
                if state.phase() == Phase::Roll {
                    let a = Features::of(&state);
                    let b = Features::of(&mirrored(&state));
                    assert_eq!(a.active(), b.active());
                    assert!((a.race - b.race).abs() < 1e-4);
                    assert!(a.active().len() <= MAX_ACTIVE);
                    assert!(a.active().iter().all(|&i| (i as usize) < INPUTS));
                    seen += 1;
                }
                let action = match state.turn() {
                    ply_core::Turn::Player(_) => {
                        let moves = state.actions();
                        moves[rand::RngExt::random_range(&mut rng, 0..moves.len())]
                    }
                    _ => state.sample_chance(&mut rng),
                };
                state.apply(action);
            }
        }
        assert!(seen > 2000);
    }

    #[test]
    fn threats_and_wins_are_counted() {
        // Red to roll: red 1 on 18 (one step from the goal diagonally), blue 6 on 12.
        let state =
            crate::notation::parse_state(Options::default(), "...../...../..b6../...r1./..... red roll 0-0")
                .unwrap();
        let f = Features::of(&state);
        // Red wins at once on every die value: its only cube moves whatever the die.
        assert!(f.active().contains(&((WINS + 6) as u16)));
        // Blue's cube steps from 12 to 11, 7 or 6: red's cube on 18 is safe (no threatening die).
        assert!(f.active().contains(&((THREATS + 18) as u16)));
        // Red's cube reaches 19, 23 and 24, not blue's cube on 12; blue cannot win next turn.
        assert!(f.active().contains(&((THREATS + 175 + 12) as u16)));
        assert!(f.active().contains(&((WINS + 7) as u16)));
    }
}

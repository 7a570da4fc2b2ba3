//! A parameter-free evaluation from the race each side runs to its goal corner, after the idea
//! of Zweistein (Hsueh & Hsu): ignore captures, and EinStein is two independent dice races. For
//! every set of cube distances (a cube's distance is the number of moves it needs: its Chebyshev
//! distance to the corner, each move shortening it by one) dynamic programming gives the
//! distribution of the number of turns a side needs, moving the cube that minimises the
//! expected remaining turns. The side to move wins the race if it needs no more turns than the
//! other, so its winning chance is `sum_k P(A = k) * P(B >= k)`.
//!
//! Search supplies what the race ignores: captures, blocks and threats.

use std::sync::OnceLock;

use ply_core::Player;
use ply_search::Evaluator;

use crate::rules::{Action, Einstein, GOAL, NO_SQUARE, Phase, movable_cubes};

/// Longest race: six cubes, four moves each.
const MAX_TURNS: usize = 24;
/// Distances 0 (captured) to 4 for six cubes, base 5.
const STATES: usize = 15_625;

struct RaceTable {
    /// Expected turns to finish; infinite without cubes.
    expected: Vec<f32>,
    /// `cdf[code * (MAX_TURNS + 1) + k]`: probability of finishing within `k` turns.
    cdf: Vec<f32>,
    /// The last turn on which a side can still finish (its distribution ends there).
    last_turn: Vec<u8>,
}

impl RaceTable {
    fn cdf(&self, code: usize) -> &[f32] {
        &self.cdf[code * (MAX_TURNS + 1)..(code + 1) * (MAX_TURNS + 1)]
    }

    /// The distribution up to its last finishing turn: what [`first_wins`] needs of the side
    /// that leads off (nothing changes after it).
    fn finishing_cdf(&self, code: usize) -> &[f32] {
        &self.cdf[code * (MAX_TURNS + 1)..code * (MAX_TURNS + 1) + self.last_turn[code] as usize + 1]
    }
}

fn digits(code: usize) -> [u8; 6] {
    let mut d = [0u8; 6];
    let mut rest = code;
    for digit in &mut d {
        *digit = (rest % 5) as u8;
        rest /= 5;
    }
    d
}

const POWERS: [usize; 6] = [1, 5, 25, 125, 625, 3125];

fn alive_mask(d: &[u8; 6]) -> u8 {
    d.iter().enumerate().filter(|&(_, &x)| x > 0).fold(0, |m, (i, _)| m | 1 << i)
}

/// For a race state and a die value: the cube to move (1-6) and whether the move finishes.
fn best_cube(table_expected: &[f32], code: usize, d: &[u8; 6], die: u8) -> Option<(u8, usize)> {
    movable_cubes(alive_mask(d), die)
        .map(|cube| {
            let i = cube as usize - 1;
            let next = code - POWERS[i];
            let value = if d[i] == 1 { 0.0 } else { table_expected[next] };
            (value, cube, next)
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, cube, next)| (cube, next))
}

fn build() -> RaceTable {
    let mut order: Vec<usize> = (0..STATES).collect();
    order.sort_by_key(|&c| digits(c).iter().map(|&x| x as u32).sum::<u32>());
    let mut expected = vec![f32::INFINITY; STATES];
    let width = MAX_TURNS + 1;
    let mut cdf = vec![0f32; STATES * width];
    for &code in &order {
        let d = digits(code);
        if alive_mask(&d) == 0 {
            continue;
        }
        let mut e = 0.0;
        let mut dist = [0f32; MAX_TURNS + 1];
        for die in 1..=6 {
            let (cube, next) =
                best_cube(&expected, code, &d, die).expect("a side with cubes can always move");
            if d[cube as usize - 1] == 1 {
                dist[1] += 1.0 / 6.0;
            } else {
                e += expected[next] / 6.0;
                for k in 1..MAX_TURNS {
                    dist[k + 1] += (cdf[next * width + k] - cdf[next * width + k - 1]) / 6.0;
                }
            }
        }
        expected[code] = 1.0 + e;
        let mut running = 0.0;
        for (k, p) in dist.iter().enumerate() {
            running += p;
            cdf[code * width + k] = running.min(1.0);
        }
    }
    let last_turn = (0..STATES)
        .map(|code| {
            let c = &cdf[code * width..(code + 1) * width];
            (1..width).rev().find(|&k| c[k] != c[k - 1]).unwrap_or(0) as u8
        })
        .collect();
    RaceTable { expected, cdf, last_turn }
}

fn table() -> &'static RaceTable {
    static TABLE: OnceLock<RaceTable> = OnceLock::new();
    TABLE.get_or_init(build)
}

/// The race code of a side: each live cube's distance to the goal.
fn race_code(state: &Einstein, side: u8) -> usize {
    state.squares[side as usize]
        .iter()
        .enumerate()
        .filter(|&(_, &sq)| sq != NO_SQUARE)
        .map(|(i, &sq)| DISTANCE[side as usize][sq as usize] as usize * POWERS[i])
        .sum()
}

/// Chebyshev distance of every square to each side's goal corner.
const fn distance_table() -> [[u8; 25]; 2] {
    let mut table = [[0u8; 25]; 2];
    let mut side = 0;
    while side < 2 {
        let (gr, gc) = ((GOAL[side] / 5) as i32, (GOAL[side] % 5) as i32);
        let mut sq = 0;
        while sq < 25 {
            let dr = (sq as i32 / 5 - gr).abs();
            let dc = (sq as i32 % 5 - gc).abs();
            table[side][sq] = if dr > dc { dr as u8 } else { dc as u8 };
            sq += 1;
        }
        side += 1;
    }
    table
}

const DISTANCE: [[u8; 25]; 2] = distance_table();

/// Moves a cube of `side` on `square` needs to reach its goal corner.
pub(crate) fn distance_to_goal(side: u8, square: usize) -> u8 {
    DISTANCE[side as usize][square]
}

/// Scores the moves of one position by the race: the mover's winning chance after each move,
/// from both sides' race codes computed once (a playout policy asks this at every step).
pub struct RaceScorer {
    mover_code: usize,
    other_code: usize,
}

impl RaceScorer {
    pub fn new(state: &Einstein) -> Self {
        let mover = state.side();
        RaceScorer { mover_code: race_code(state, mover), other_code: race_code(state, mover ^ 1) }
    }

    /// The race winning chance of the side to move after `action` (a move of the position this
    /// scorer was made for).
    pub fn after(&self, state: &Einstein, action: Action) -> f64 {
        let Action::Move { cube, .. } = action else { return 0.5 };
        let (from, to) = state.move_squares(action).expect("a move");
        let side = state.side() as usize;
        let i = cube as usize - 1;
        if to == GOAL[side] as usize {
            return 1.0;
        }
        let mut mover_code = self.mover_code - DISTANCE[side][from] as usize * POWERS[i]
            + DISTANCE[side][to] as usize * POWERS[i];
        let mut other_code = self.other_code;
        let piece = state.board[to];
        if piece != 0 {
            let (owner, j) = (((piece - 1) / 6) as usize, ((piece - 1) % 6) as usize);
            if owner == side {
                mover_code -= DISTANCE[side][to] as usize * POWERS[j];
            } else {
                other_code -= DISTANCE[owner][to] as usize * POWERS[j];
                if other_code == 0 {
                    return 1.0;
                }
            }
        }
        let t = table();
        1.0 - first_wins(t.finishing_cdf(other_code), t.cdf(mover_code))
    }
}

/// The probability that the side to move wins the race, given that its turn number `k` comes
/// before the other side's turn `k`. `first_cdf` may stop at the first side's last finishing
/// turn; `second_cdf` must be whole.
fn first_wins(first_cdf: &[f32], second_cdf: &[f32]) -> f64 {
    let mut p = 0.0;
    for k in 1..first_cdf.len() {
        let finish_now = (first_cdf[k] - first_cdf[k - 1]) as f64;
        p += finish_now * (1.0 - second_cdf[k - 1] as f64);
    }
    p
}

/// The race winning chance of `player` in a position during play (0.5 otherwise).
pub fn race_win_probability(state: &Einstein, player: Player) -> f64 {
    let t = table();
    let mover = state.side();
    let other = mover ^ 1;
    let (mover_code, other_code) = (race_code(state, mover), race_code(state, other));
    let p_mover = match state.phase() {
        Phase::Roll => first_wins(t.finishing_cdf(mover_code), t.cdf(other_code)),
        Phase::Move(die) => {
            // The die is known: the mover's first turn is decided, the rest is the race.
            let d = digits(mover_code);
            match best_cube(&t.expected, mover_code, &d, die) {
                Some((cube, _)) if d[cube as usize - 1] == 1 => 1.0,
                Some((_, next)) => {
                    // After this move the other side leads off: the mover wins if the other needs
                    // more turns than the mover's remaining race.
                    1.0 - first_wins(t.finishing_cdf(other_code), t.cdf(next))
                }
                None => 0.0,
            }
        }
        Phase::Setup | Phase::Over => return 0.5,
    };
    if player as u8 == mover { p_mover } else { 1.0 - p_mover }
}

/// The race evaluation: `2 P(win) - 1`.
#[derive(Clone, Copy, Debug, Default)]
pub struct RaceEval;

impl Evaluator<Einstein> for RaceEval {
    fn evaluate(&self, state: &Einstein, player: Player) -> f64 {
        2.0 * race_win_probability(state, player) - 1.0
    }
}

/// Expected turns for a side to reach its corner without interference (for display and tests).
pub fn expected_turns(state: &Einstein, side: u8) -> f64 {
    table().expected[race_code(state, side)] as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scorer_agrees_with_playing_the_move() {
        use ply_core::Game;
        use ply_core::rng::rng_from_seed;
        use rand::RngExt;
        let mut rng = rng_from_seed(5);
        let mut checked = 0;
        for _ in 0..300 {
            let mut state = Einstein::new(crate::Options::default());
            let mut actions = Vec::new();
            while state.phase() != Phase::Over {
                if let Phase::Move(_) = state.phase() {
                    state.legal_actions(&mut actions);
                    let scorer = RaceScorer::new(&state);
                    for &action in &actions {
                        let mut after = state.clone();
                        after.apply(action);
                        let expected = match after.phase() {
                            Phase::Over => 1.0,
                            _ => race_win_probability(&after, state.side() as usize),
                        };
                        assert!((scorer.after(&state, action) - expected).abs() < 1e-9);
                        checked += 1;
                    }
                    let pick = actions[rng.random_range(0..actions.len())];
                    state.apply(pick);
                } else {
                    let chance = state.sample_chance(&mut rng);
                    state.apply(chance);
                }
            }
        }
        assert!(checked > 5000);
    }

    #[test]
    fn single_cubes_race_as_expected() {
        let t = table();
        // One cube one step away: finishes on the first turn whatever the die.
        assert_eq!(t.expected[POWERS[2]], 1.0);
        // One cube four steps away: exactly four turns.
        assert_eq!(t.expected[4 * POWERS[0]], 4.0);
        // Cubes 1 and 6 at distance 2 and 1: cube 6 moves on 6 (and on 2-5 as next higher of
        // cube 1? no: 2-5 have cube 1 below and cube 6 above, so either), so the first turn
        // finishes unless the die is 1: 5/6 in one turn, else two turns.
        let code = 2 * POWERS[0] + POWERS[5];
        assert!((t.expected[code] - (1.0 + 1.0 / 6.0)).abs() < 1e-6);
        let width = MAX_TURNS + 1;
        assert!((t.cdf[code * width + 1] - 5.0 / 6.0).abs() < 1e-6);
        assert!((t.cdf[code * width + 2] - 1.0).abs() < 1e-6);
        // Every distribution is complete.
        for code in 1..STATES {
            assert!((t.cdf[code * width + MAX_TURNS] - 1.0).abs() < 1e-4, "state {code}");
        }
    }
}

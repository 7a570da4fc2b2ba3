//! The document's player (SEEDS.md §2, docs/gomoku.md "The pattern player"): every empty point
//! gets an attack weight `maxa` (the value of a stone of ours there) and a defence weight `maxd`
//! (the value of an opponent stone there), each summed over the four directions from the
//! document's table of 5-point windows; then the decision rule and its 3-step pruned prediction.

use ply_core::{Agent, Decision, Game, Limits, SearchInfo};

use crate::board::{BLACK, Board, DIRECTIONS, EMPTY, Point, WALL};

pub const FIVE: u32 = 50_000;
const BLOCKED_FOUR: u32 = 2_250;
/// The document's look-ahead threshold: points above it on either weight are candidates.
const CANDIDATE: u32 = 550;
/// Attack weights from this one up are played at once.
const DIRECT_ATTACK: u32 = 2_800;

/// The weight of a window that can still grow (form a of the document), by its stones as five
/// bits (bit 4 = the window's first point).
fn open_window_weight(bits: u8, attack: bool) -> u32 {
    match bits {
        0b11110 | 0b01111 => {
            if attack {
                5_100
            } else {
                4_000
            }
        }
        0b10111 | 0b11101 => 2_500,
        0b11011 => 2_400,
        0b11100 | 0b01110 | 0b00111 => 650,
        0b11010 | 0b01011 | 0b10110 | 0b01101 => 550,
        0b11001 | 0b10011 | 0b10101 => 90,
        0b11000 | 0b01100 | 0b00110 | 0b00011 => 70,
        0b10100 | 0b01010 | 0b00101 => 65,
        0b10010 | 0b01001 => 25,
        0b10001 => 5,
        _ => 0,
    }
}

/// The weight of a stone of `color` on the empty point `p` along direction `d`: among the
/// 5-point windows through `p` holding no opponent stone and no edge, the one with the most
/// stones of `color` (ties: the higher weight), scored by its pattern and its two flanking
/// points.
pub fn direction_weight(board: &Board, p: Point, d: isize, color: u8, attack: bool) -> u32 {
    let cells = board.cells();
    let cell = |k: isize| -> u8 { if k == 0 { color } else { cells[(p as isize + k * d) as usize] } };
    let mut best: Option<(u32, u32)> = None;
    for start in -4..=0 {
        let mut bits = 0u8;
        let mut clean = true;
        for k in start..start + 5 {
            let c = cell(k);
            if c == WALL || (c != EMPTY && c != color) {
                clean = false;
                break;
            }
            bits = bits << 1 | u8::from(c == color);
        }
        if !clean {
            continue;
        }
        let count = bits.count_ones();
        let blocked = |c: u8| c == WALL || (c != EMPTY && c != color);
        let (left, right) = (blocked(cell(start - 1)), blocked(cell(start + 5)));
        let weight = if count == 5 {
            FIVE
        } else if (left && (right || bits & 0b10000 != 0)) || (right && bits & 1 != 0) {
            // Form b: the window is closed against an edge or an opponent stone.
            if count == 4 { BLOCKED_FOUR } else { 0 }
        } else {
            open_window_weight(bits, attack)
        };
        if best.is_none_or(|(c, w)| (count, weight) > (c, w)) {
            best = Some((count, weight));
        }
    }
    best.map_or(0, |(_, w)| w)
}

/// `(maxa, maxd)` of an empty point for the player `me`.
pub fn point_weights(board: &Board, p: Point, me: u8) -> (u32, u32) {
    let them = if me == BLACK { crate::board::WHITE } else { BLACK };
    let maxa = DIRECTIONS.iter().map(|&d| direction_weight(board, p, d, me, true)).sum();
    let maxd = DIRECTIONS.iter().map(|&d| direction_weight(board, p, d, them, false)).sum();
    (maxa, maxd)
}

struct Weighted {
    point: Point,
    maxa: u32,
    maxd: u32,
}

fn weigh_all(board: &Board, me: u8) -> Vec<Weighted> {
    board
        .points()
        .filter(|&p| board.at(p) == EMPTY && board.is_legal(p))
        .map(|p| {
            let (maxa, maxd) = point_weights(board, p, me);
            Weighted { point: p, maxa, maxd }
        })
        .collect()
}

/// Distance from the centre, to break ties toward the middle of the board.
fn centrality(board: &Board, p: Point) -> usize {
    let (x, y) = board.xy(p);
    let c = board.size() / 2;
    x.abs_diff(c).max(y.abs_diff(c))
}

fn best_by(board: &Board, weighted: &[Weighted], key: impl Fn(&Weighted) -> u32) -> Point {
    weighted
        .iter()
        .max_by(|a, b| key(a).cmp(&key(b)).then(centrality(board, b.point).cmp(&centrality(board, a.point))))
        .map(|w| w.point)
        .expect("a board with an empty point")
}

/// The decision rule without look-ahead: win, block a five, attack at 2800 or more, otherwise
/// the point with the largest attack plus defence weight.
fn direct_move(board: &Board) -> Option<Point> {
    let me = board.to_move();
    let weighted = weigh_all(board, me);
    if weighted.is_empty() {
        return None;
    }
    let max_a = weighted.iter().map(|w| w.maxa).max().unwrap_or(0);
    let max_d = weighted.iter().map(|w| w.maxd).max().unwrap_or(0);
    Some(if max_a >= FIVE || (max_a >= DIRECT_ATTACK && max_d < FIVE) {
        best_by(board, &weighted, |w| w.maxa)
    } else if max_d >= FIVE {
        best_by(board, &weighted, |w| w.maxd)
    } else {
        best_by(board, &weighted, |w| w.maxa + w.maxd)
    })
}

/// How good the position is for `me`: its best attack weight minus the opponent's (the
/// document: "raise Maxa, lower Maxd"); a finished game is worth everything.
fn outlook(board: &Board, me: u8) -> i64 {
    if let Some(w) = board.winner() {
        return if w == me { i64::MAX / 2 } else { i64::MIN / 2 };
    }
    let weighted = weigh_all(board, me);
    let max_a = weighted.iter().map(|w| w.maxa).max().unwrap_or(0) as i64;
    let max_d = weighted.iter().map(|w| w.maxd).max().unwrap_or(0) as i64;
    max_a - max_d
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DocumentConfig {
    /// Share of the candidates kept after the first and second prediction steps.
    pub keep: f64,
}

impl Default for DocumentConfig {
    fn default() -> Self {
        DocumentConfig { keep: 0.5 }
    }
}

/// The document's move: the decision rule, and below the direct-attack band the 3-step
/// prediction. The prediction plays each candidate, then the opponent's direct reply, then ours,
/// scoring the position after each step and dropping the worse candidates between steps.
pub fn choose_move(board: &Board, config: &DocumentConfig) -> Option<Point> {
    let me = board.to_move();
    let weighted = weigh_all(board, me);
    if weighted.is_empty() {
        return None;
    }
    if board.moves().is_empty() {
        let c = board.size() / 2;
        return board.point(c, c);
    }
    let max_a = weighted.iter().map(|w| w.maxa).max().unwrap_or(0);
    let max_d = weighted.iter().map(|w| w.maxd).max().unwrap_or(0);
    if max_a >= FIVE {
        return Some(best_by(board, &weighted, |w| w.maxa));
    }
    if max_d >= FIVE {
        return Some(best_by(board, &weighted, |w| w.maxd));
    }
    if max_a >= DIRECT_ATTACK {
        return Some(best_by(board, &weighted, |w| w.maxa));
    }
    let mut candidates: Vec<(Point, Board, i64)> = weighted
        .iter()
        .filter(|w| w.maxa > CANDIDATE || w.maxd > CANDIDATE)
        .map(|w| (w.point, board.clone(), 0))
        .collect();
    if candidates.is_empty() {
        return Some(best_by(board, &weighted, |w| w.maxa + w.maxd));
    }
    for step in 0..3 {
        for (point, line, score) in candidates.iter_mut() {
            if line.winner().is_none() && !line.is_full() {
                let next = if step == 0 { Some(*point) } else { direct_move(line) };
                if let Some(p) = next {
                    line.place(p);
                }
            }
            *score = outlook(line, me);
        }
        candidates.sort_by(|a, b| b.2.cmp(&a.2).then(centrality(board, a.0).cmp(&centrality(board, b.0))));
        if step < 2 {
            let keep = ((candidates.len() as f64 * config.keep).ceil() as usize).max(1);
            candidates.truncate(keep);
        }
    }
    candidates.first().map(|c| c.0)
}

/// The document's player as an agent. It does not search a budget: its look-ahead is fixed.
pub struct DocumentPlayer {
    config: DocumentConfig,
}

impl DocumentPlayer {
    pub fn new(config: DocumentConfig) -> Self {
        DocumentPlayer { config }
    }
}

impl Agent<Board> for DocumentPlayer {
    fn choose(
        &mut self,
        state: &Board,
        _limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo<Point>),
    ) -> Decision<Point> {
        let point = choose_move(state, &self.config)
            .or_else(|| state.actions().first().copied())
            .expect("asked to move on a finished board");
        let (maxa, maxd) = point_weights(state, point, state.to_move());
        let info = SearchInfo {
            depth: 3,
            iterations: 1,
            value: Some(((maxa as f64 - maxd as f64) / FIVE as f64).clamp(-1.0, 1.0)),
            pv: vec![point],
            ..SearchInfo::default()
        };
        report(&info);
        Decision { action: point, info }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Rule;

    #[test]
    fn the_documents_worked_example() {
        // Figure 3-2: at (6,6), black (the computer) to move, horizontally 0@@0@@0 gives 2400
        // and diagonally 000@@@0 gives 650, so maxa = 3050; vertically #@@@0@0 (white) gives a
        // defence weight of 2250, and maxd = 2250.
        // The document's coordinates are garbled, so the lines are rebuilt from its patterns:
        // horizontal 0@@0@@0 with (6,6) the second stone, diagonal 000@@@0 with (6,6) the middle
        // stone, and vertically, for white, #@@@0@0 with (6,6) the third white stone.
        let b = Board::new(15, Rule::Freestyle);
        let at = |x: usize, y: usize| b.point(x, y).unwrap();
        let white = crate::board::WHITE;
        let mut stones = vec![(at(5, 6), BLACK), (at(8, 6), BLACK), (at(9, 6), BLACK)];
        stones.extend([(at(5, 5), BLACK), (at(7, 7), BLACK)]);
        stones.extend([(at(6, 3), BLACK), (at(6, 4), white), (at(6, 5), white), (at(6, 8), white)]);
        // Balance the counts with white stones far away.
        stones.extend([(at(0, 14), white), (at(2, 14), white), (at(4, 14), white)]);
        let board = Board::from_stones(15, Rule::Freestyle, &stones).unwrap();
        assert_eq!(board.to_move(), BLACK);
        let p = at(6, 6);
        assert_eq!(direction_weight(&board, p, 1, BLACK, true), 2400);
        assert_eq!(direction_weight(&board, p, crate::board::STRIDE as isize + 1, BLACK, true), 650);
        assert_eq!(
            direction_weight(&board, p, crate::board::STRIDE as isize, crate::board::WHITE, false),
            2250
        );
        assert_eq!(point_weights(&board, p, BLACK), (3050, 2250));
    }

    #[test]
    fn wins_blocks_and_attacks_directly() {
        let b = Board::new(15, Rule::Freestyle);
        let win = b.parse_state("h8 a1 i8 a2 j8 a3 k8 b1").unwrap();
        let p = choose_move(&win, &DocumentConfig::default()).unwrap();
        assert!(["g8", "l8"].contains(&win.action_to_text(p).as_str()));
        let block = b.parse_state("h8 a1 i8 a2 j8 a3 o15 a4").unwrap();
        let p = choose_move(&block, &DocumentConfig::default()).unwrap();
        assert_eq!(block.action_to_text(p), "a5");
    }
}

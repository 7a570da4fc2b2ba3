//! Positions like the ones the search evaluates, labelled by a deeper search: the tables are
//! read at the tree's leaves, which are mostly not positions of a played game (one side has
//! just made a move the search will refute), so fitting them to game results alone teaches them
//! about positions they are seldom asked about. From a game's position, a short walk of moves —
//! some the engine's choice at a small budget, some any candidate point, as a tree's lines mix
//! good and bad moves — ends in a quiet position, and the engine's search of that position at a
//! larger budget gives its value, the target the tables are fitted to (a search bootstrapping
//! its own evaluation, as TD-leaf does). Position `j` of game `i` depends on the seed, `i` and
//! `j` only, so a labelling replays exactly however many threads run it.

use ply_core::rng::{derive_seed, rng_from_seed};
use ply_core::{Budget, Limits};
use rand::RngExt;

use ply_gomoku::{
    BLACK, Board, EMPTY, Engine, EngineConfig, EvalWeights, Point, Rule, board_to_text, parse_board,
};

use crate::train::{PlayedGame, Sample};

/// How positions are drawn and labelled.
#[derive(Clone, Debug)]
pub struct Labelling {
    /// Positions drawn from each game.
    pub per_game: usize,
    /// The most moves a walk makes (each walk makes 0 to this many).
    pub walk: usize,
    /// Nodes the engine's choice of a walk's move gets.
    pub walk_nodes: u64,
    /// Nodes the labelling search gets.
    pub nodes: u64,
    pub seed: u64,
    /// The tables the engine evaluates with, in the walks and the labelling searches.
    pub weights: EvalWeights,
}

/// A position (the moves that reach it) and its searched value for the side to move, -1 to 1.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelledPosition {
    pub moves: String,
    pub value: f32,
}

/// Empty points within two of a stone: the engine's candidates.
fn candidates(board: &Board) -> Vec<Point> {
    let size = board.size() as i32;
    board
        .points()
        .filter(|&p| board.at(p) == EMPTY)
        .filter(|&p| {
            let (x, y) = board.xy(p);
            (-2..=2).any(|dy: i32| {
                (-2..=2).any(|dx: i32| {
                    let (nx, ny) = (x as i32 + dx, y as i32 + dy);
                    (0..size).contains(&nx)
                        && (0..size).contains(&ny)
                        && board.point(nx as usize, ny as usize).is_some_and(|q| board.at(q) != EMPTY)
                })
            })
        })
        .collect()
}

impl Labelling {
    /// The positions drawn from game `index` (fewer than `per_game` when walks end in a won
    /// or unquiet position: those are dropped, as the search would not evaluate them).
    pub fn label_game(&self, game: &PlayedGame, index: u64) -> Vec<LabelledPosition> {
        let template = Board::new(15, Rule::Freestyle);
        let full = parse_board(&template, &game.moves).expect("games are checked when read");
        let config = EngineConfig { tt_bits: 16, ..EngineConfig::default() };
        let mut engine = Engine::with_weights(config, &self.weights);
        let mut out = Vec::new();
        // Positions from the fourth stone on, before the game's last move.
        if full.moves().len() < 6 {
            return out;
        }
        for j in 0..self.per_game {
            let mut rng = rng_from_seed(derive_seed(derive_seed(self.seed, index), j as u64));
            let start = rng.random_range(4..full.moves().len() - 1);
            let mut board = Board::new(15, Rule::Freestyle);
            for &p in &full.moves()[..start] {
                board.place(p);
            }
            let steps = rng.random_range(0..=self.walk);
            for _ in 0..steps {
                if board.winner().is_some() || board.is_full() {
                    break;
                }
                let p = if rng.random_bool(0.5) {
                    let limits = Limits::new(Budget::iterations(self.walk_nodes));
                    engine.think(&board, &limits, &mut |_| {}).action
                } else {
                    let points = candidates(&board);
                    points[rng.random_range(0..points.len())]
                };
                board.place(p);
            }
            if board.winner().is_some() || board.is_full() || engine.quiet_features(&board).is_none() {
                continue;
            }
            let decision = engine.think(&board, &Limits::new(Budget::iterations(self.nodes)), &mut |_| {});
            let value = match decision.info.proven {
                Some(plies) => Some(if plies > 0 { 1.0 } else { -1.0 }),
                None => decision.info.value,
            };
            if let Some(value) = value {
                // Three decimals, as the text form keeps them.
                let value = ((value as f32) * 1000.0).round() / 1000.0;
                out.push(LabelledPosition { moves: board_to_text(&board), value });
            }
        }
        out
    }
}

/// Positions as text, one a line: the value for the side to move, then the moves.
pub fn positions_to_text(positions: &[LabelledPosition]) -> String {
    positions.iter().map(|p| format!("{:.3} {}\n", p.value, p.moves)).collect()
}

/// Reads [`positions_to_text`]'s form; `#` lines are comments. A bad value or move is an error
/// naming the line.
pub fn positions_from_text(text: &str) -> Result<Vec<LabelledPosition>, String> {
    let template = Board::new(15, Rule::Freestyle);
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (value, moves) = line.split_once(' ').unwrap_or((line, ""));
        let value = match value.parse::<f32>() {
            Ok(v) if (-1.0..=1.0).contains(&v) => v,
            _ => return Err(format!("line {}: '{value}' is not a value from -1 to 1", n + 1)),
        };
        let board = parse_board(&template, moves.trim()).map_err(|e| format!("line {}: {e}", n + 1))?;
        if board.winner().is_some() {
            return Err(format!("line {}: the game is already won", n + 1));
        }
        out.push(LabelledPosition { moves: moves.trim().to_string(), value });
    }
    Ok(out)
}

/// The quiet ones among `positions`, as samples with the searched value and no result.
pub fn position_samples(positions: &[LabelledPosition]) -> Vec<Sample> {
    let template = Board::new(15, Rule::Freestyle);
    let mut engine = Engine::new(EngineConfig { tt_bits: 10, ..EngineConfig::default() });
    positions
        .iter()
        .filter_map(|p| {
            let board = parse_board(&template, &p.moves).expect("positions are checked when read");
            let features = engine.quiet_features(&board)?;
            Some(Sample {
                features,
                result: None,
                searched: Some(p.value),
                black_to_move: board.to_move() == BLACK,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::SelfPlay;

    #[test]
    fn labelling_replays_from_its_seed_and_round_trips_as_text() {
        let run = SelfPlay { nodes: 300, seed: 5, opening_stones: 4, weights: EvalWeights::hand(130) };
        let games: Vec<PlayedGame> = (0..2).map(|i| run.game(i)).collect();
        let labelling = Labelling {
            per_game: 4,
            walk: 4,
            walk_nodes: 50,
            nodes: 300,
            seed: 3,
            weights: EvalWeights::hand(130),
        };
        let label = |i: usize| labelling.label_game(&games[i], i as u64);
        let positions: Vec<LabelledPosition> = (0..2).flat_map(label).collect();
        assert!(!positions.is_empty());
        assert_eq!(positions, (0..2).flat_map(label).collect::<Vec<_>>());
        assert_eq!(positions_from_text(&positions_to_text(&positions)).unwrap(), positions);
        let samples = position_samples(&positions);
        assert_eq!(samples.len(), positions.len(), "every labelled position is quiet");
        assert!(samples.iter().all(|s| s.result.is_none() && s.searched.is_some()));
    }

    #[test]
    fn position_files_with_errors_name_the_line() {
        let err = positions_from_text("# c\n0.5 h8 h8\n").unwrap_err();
        assert!(err.starts_with("line 2:") && err.contains("taken"), "{err}");
        let err = positions_from_text("1.5 h8\n").unwrap_err();
        assert!(err.contains("'1.5' is not a value from -1 to 1"), "{err}");
        let err = positions_from_text("0.1 h8 a1 i8 a2 j8 a3 k8 a4 l8\n").unwrap_err();
        assert!(err.contains("already won"), "{err}");
    }
}

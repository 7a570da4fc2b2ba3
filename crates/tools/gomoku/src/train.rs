//! Fitting the evaluation's tables (`engine/eval.rs`) to self-play results, Texel-style: the
//! engine plays itself from random short openings at a fixed node budget (so a run replays
//! from its seed); every quiet position of those games — one the search would evaluate
//! statically: no five to make or block, no winning threat for the side to move — becomes a
//! sample, its features the count of each shape combination among the candidate points for the
//! side to move and for the opponent and the position's threat mask, its target a blend of the
//! game's result for the side to move and the value the players' search gave the position. A
//! logistic model `P(win) = 1 / (1 + e^(-eval / scale))`, with `eval` the engine's own linear
//! evaluation, is fitted by full-batch Adam on the log loss, pulled towards the starting tables
//! so that rare combinations keep their old values; or, with a hidden layer, by Adam over batches
//! (`hidden.rs`). `gomoku-train` drives it.

use ply_core::rng::{derive_seed, rng_from_seed};
use ply_core::{Budget, Limits};
use rand::RngExt;

use ply_gomoku::{
    BLACK, Board, COMBOS, EMPTY, Engine, EngineConfig, EvalWeights, HiddenLayer, Rule, THREAT_MASKS, WHITE,
    board_to_text, parse_board,
};

use crate::hidden::{HiddenOptions, fit_hidden};

/// How self-play games are made.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    /// Nodes a move (the engine's iteration budget).
    pub nodes: u64,
    /// The run's seed; game `i` uses `seed` and `i` only.
    pub seed: u64,
    /// Most random stones in the opening (at least one), placed near the centre.
    pub opening_stones: usize,
    /// The tables the players evaluate with.
    pub weights: EvalWeights,
}

/// One self-play game: its moves, the winner (`None`: a draw, the board full), and for each
/// move the engine chose, the value its search gave the position for the side to move (the
/// agent's report, -1 to 1; `None` for the opening's random stones).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame {
    pub moves: String,
    pub winner: Option<u8>,
    pub values: Vec<Option<f32>>,
}

impl SelfPlay {
    /// Game `index` of the run. The opening is a few random stones within three points of the
    /// centre (alternating colours, at most `opening_stones`); the engine plays the rest.
    pub fn game(&self, index: u64) -> PlayedGame {
        let mut rng = rng_from_seed(derive_seed(self.seed, index));
        let mut board = Board::new(15, Rule::Freestyle);
        let stones = rng.random_range(1..=self.opening_stones.max(1));
        while board.moves().len() < stones {
            let (x, y) = (rng.random_range(4..=10), rng.random_range(4..=10));
            let p = board.point(x, y).expect("on the board");
            if board.at(p) == EMPTY {
                board.place(p);
            }
        }
        let config = EngineConfig { tt_bits: 16, ..EngineConfig::default() };
        let mut engine = Engine::with_weights(config, &self.weights);
        let limits = Limits::new(Budget::iterations(self.nodes));
        let mut values = vec![None; board.moves().len()];
        while board.winner().is_none() && !board.is_full() {
            let decision = engine.think(&board, &limits, &mut |_| {});
            let value = match decision.info.proven {
                Some(plies) => Some(if plies > 0 { 1.0 } else { -1.0 }),
                None => decision.info.value.map(|v| v as f32),
            };
            // Three decimals, as the text form keeps them, so a game reads back as it was.
            values.push(value.map(|v| (v * 1000.0).round() / 1000.0));
            board.place(decision.action);
        }
        PlayedGame { moves: board_to_text(&board), winner: board.winner(), values }
    }
}

/// Games as text, one a line: `1-0` (black won), `0-1` or `1/2`, the moves, then `|` and each
/// move's search value (`-` where there was no search).
pub fn games_to_text(games: &[PlayedGame]) -> String {
    games
        .iter()
        .map(|g| {
            let result = match g.winner {
                Some(BLACK) => "1-0",
                Some(_) => "0-1",
                None => "1/2",
            };
            let values: Vec<String> =
                g.values.iter().map(|v| v.map_or("-".to_string(), |v| format!("{v:.3}"))).collect();
            format!("{result} {} | {}\n", g.moves, values.join(" "))
        })
        .collect()
}

/// Reads [`games_to_text`]'s form; `#` lines are comments. A line that starts with `{` is a
/// game record of `ply match gomoku ... --out` (freestyle 15×15): its moves, no values, and
/// only the first of identical games (the two games of an opening pair are one game twice when
/// both sides search alike). Each game is replayed, so a bad move or a result the moves do not
/// give is an error naming the line.
pub fn games_from_text(text: &str) -> Result<Vec<PlayedGame>, String> {
    let template = Board::new(15, Rule::Freestyle);
    let mut games = Vec::new();
    let mut recorded = std::collections::HashSet::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with('{') {
            let moves = record_moves(line).map_err(|e| format!("line {}: {e}", n + 1))?;
            let board = parse_board(&template, &moves).map_err(|e| format!("line {}: {e}", n + 1))?;
            if board.winner().is_none() && !board.is_full() {
                return Err(format!("line {}: the game ended without a five or a full board", n + 1));
            }
            if recorded.insert(moves.clone()) {
                games.push(PlayedGame { moves, winner: board.winner(), values: Vec::new() });
            }
            continue;
        }
        let (result, rest) = line.split_once(' ').unwrap_or((line, ""));
        let (moves, values) = rest.split_once('|').unwrap_or((rest, ""));
        let moves = moves.trim();
        let winner = match result {
            "1-0" => Some(BLACK),
            "0-1" => Some(WHITE),
            "1/2" => None,
            other => {
                // A positions file (`label`'s, `teach`'s) starts each line with a value: easy to
                // pass where games are read, as in `fit --positions a.txt b.txt` or `label`.
                let hint = if other.parse::<f32>().is_ok() {
                    "; this looks like a positions file (a value starts the line), not a game file"
                } else {
                    ""
                };
                return Err(format!("line {}: unknown result '{other}' (1-0, 0-1 or 1/2){hint}", n + 1));
            }
        };
        let board = parse_board(&template, moves).map_err(|e| format!("line {}: {e}", n + 1))?;
        if board.winner() != winner || (winner.is_none() && !board.is_full()) {
            return Err(format!("line {}: the moves do not end in the result {result}", n + 1));
        }
        let values: Vec<Option<f32>> = values
            .split_whitespace()
            .map(|v| match v {
                "-" => Ok(None),
                v => match v.parse::<f32>() {
                    Ok(x) if (-1.0..=1.0).contains(&x) => Ok(Some(x)),
                    _ => Err(format!("line {}: '{v}' is not a value from -1 to 1", n + 1)),
                },
            })
            .collect::<Result<_, _>>()?;
        if !values.is_empty() && values.len() != board.moves().len() {
            return Err(format!("line {}: {} values for {} moves", n + 1, values.len(), board.moves().len()));
        }
        games.push(PlayedGame { moves: moves.to_string(), winner, values });
    }
    Ok(games)
}

/// The moves of a `ply match` game record, checked to be a game of freestyle 15×15.
fn record_moves(line: &str) -> Result<String, String> {
    let record: serde_json::Value =
        serde_json::from_str(line).map_err(|e| format!("not a game record of ply match: {e}"))?;
    if record["game"] != "gomoku" {
        return Err(format!("a record of game {}, not of gomoku", record["game"]));
    }
    if let Some(options) = record["options"].as_str().filter(|o| !o.is_empty()) {
        return Err(format!("a game with options '{options}'; only freestyle 15x15 is read"));
    }
    let actions = record["actions"].as_array().ok_or("a game record without its actions")?;
    let moves: Option<Vec<&str>> = actions.iter().map(|a| a.as_str()).collect();
    Ok(moves.ok_or("a game record whose actions are not text")?.join(" "))
}

/// A quiet position's features and result.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The side to move's combinations over the candidate points, then the opponent's
    /// (offset by [`COMBOS`]), then the threat mask (offset by twice that) unless it is empty.
    pub features: Vec<u16>,
    /// 1 a win for the side to move, 0 a loss, ½ a draw; `None` for a position that is not
    /// from a played game (see `leaves.rs`), whose target is the searched value alone.
    pub result: Option<f32>,
    /// The search's value of the position for the side to move (-1 to 1), when the game
    /// records one.
    pub searched: Option<f32>,
    /// Whether black is to move: the fit gives the colour a term of its own (the engine's
    /// evaluation has none), so that black's first-move advantage is not read into the tables.
    pub black_to_move: bool,
}

/// The quiet positions of `games`, from the fourth stone on.
pub fn samples(games: &[PlayedGame]) -> Vec<Sample> {
    let template = Board::new(15, Rule::Freestyle);
    let mut engine = Engine::new(EngineConfig { tt_bits: 10, ..EngineConfig::default() });
    let mut out = Vec::new();
    for game in games {
        let full = parse_board(&template, &game.moves).expect("games are checked when read");
        let mut board = Board::new(15, Rule::Freestyle);
        for (i, &p) in full.moves().iter().enumerate() {
            if board.moves().len() >= 4
                && let Some(features) = engine.quiet_features(&board)
            {
                let result = Some(match game.winner {
                    None => 0.5,
                    Some(w) if w == board.to_move() => 1.0,
                    Some(_) => 0.0,
                });
                let searched = game.values.get(i).copied().flatten();
                out.push(Sample { features, result, searched, black_to_move: board.to_move() == BLACK });
            }
            board.place(p);
        }
    }
    out
}

/// How the fit runs.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// Full passes over the samples.
    pub epochs: usize,
    /// Adam's step size, in score units.
    pub learning_rate: f64,
    /// Pull towards the starting tables: `l2 * (w - w0)^2` per weight, per sample.
    pub l2: f64,
    /// The game result's share of the target; the search's value has the rest.
    pub result_weight: f64,
    /// Score units per logistic unit; `None`: chosen to fit the starting tables to the results.
    pub scale: Option<f64>,
    /// Fit a hidden layer with the tables (`hidden.rs`): then `epochs` and `learning_rate` are
    /// these options', not the ones above.
    pub hidden: Option<HiddenOptions>,
}

/// What a fit did.
#[derive(Clone, Debug)]
pub struct FitReport {
    /// Score units per logistic unit, chosen for the starting tables.
    pub scale: f64,
    pub loss_before: f64,
    pub loss_after: f64,
    /// Black's edge in score units, fitted beside the tables and not part of them.
    pub colour: f64,
}

/// Parameter `i`'s sign in the evaluation: the opponent's table is subtracted.
pub(crate) fn sign(i: usize) -> f64 {
    if (COMBOS..2 * COMBOS).contains(&i) { -1.0 } else { 1.0 }
}

/// The tables as the fit's parameters: the two tables, the threat masks, the tempo, then the
/// colour's term (0 to start with; see [`Sample::black_to_move`]).
pub(crate) fn flatten(w: &EvalWeights) -> Vec<f64> {
    w.mine
        .iter()
        .chain(&w.theirs)
        .chain(&w.threats)
        .map(|&v| f64::from(v))
        .chain([f64::from(w.tempo), 0.0])
        .collect()
}

const THREATS: usize = 2 * COMBOS;
const TEMPO: usize = THREATS + THREAT_MASKS;
const COLOUR: usize = TEMPO + 1;

pub(crate) fn colour_sign(s: &Sample) -> f64 {
    if s.black_to_move { 1.0 } else { -1.0 }
}

fn linear(params: &[f64], s: &Sample) -> f64 {
    params[TEMPO]
        + colour_sign(s) * params[COLOUR]
        + s.features.iter().map(|&f| sign(f as usize) * params[f as usize]).sum::<f64>()
}

pub(crate) fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean log loss of `params` (and a hidden layer's value beside them) over `samples` at
/// `scale`, against `targets` (one a sample).
fn loss_with(
    params: &[f64],
    hidden: Option<&HiddenLayer>,
    samples: &[Sample],
    targets: &[f64],
    scale: f64,
) -> f64 {
    let total: f64 = samples
        .iter()
        .zip(targets)
        .map(|(s, &y)| {
            let layer = hidden.map_or(0.0, |layer| f64::from(layer.value(&s.features)));
            let p = sigmoid((linear(params, s) + layer) / scale).clamp(1e-9, 1.0 - 1e-9);
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The samples from played games, and their results.
fn with_results(samples: &[Sample]) -> (Vec<Sample>, Vec<f64>) {
    samples.iter().filter_map(|s| Some((s.clone(), f64::from(s.result?)))).unzip()
}

/// What the fit aims at: `result_weight` of the game's result and the rest of the search's
/// value, read as odds at `scale` (the value is `tanh(score / 600)`, see the engine's report);
/// the result alone where no value was recorded.
fn targets(samples: &[Sample], scale: f64, result_weight: f64) -> Vec<f64> {
    samples
        .iter()
        .map(|s| {
            let searched = s.searched.map(|v| {
                let v = f64::from(v).clamp(-0.999_999, 0.999_999);
                sigmoid(600.0 * v.atanh() / scale)
            });
            match (s.result.map(f64::from), searched) {
                (Some(result), Some(searched)) => result_weight * result + (1.0 - result_weight) * searched,
                (Some(result), None) => result,
                (None, Some(searched)) => searched,
                (None, None) => 0.5,
            }
        })
        .collect()
}

/// The scale at which `params` (and `hidden`) best predict the results of `samples`: a
/// golden-section search over 10..10000 score units, on its logarithm.
fn best_scale(params: &[f64], hidden: Option<&HiddenLayer>, samples: &[Sample]) -> f64 {
    let (samples, outcomes) = with_results(samples);
    let (mut lo, mut hi) = (10f64.ln(), 10_000f64.ln());
    let golden = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - golden * (hi - lo);
        let b = lo + golden * (hi - lo);
        let at = |scale: f64| loss_with(params, hidden, &samples, &outcomes, scale);
        if at(a.exp()) < at(b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// Fits the tables to `samples`, starting from (and pulled towards) `start`. The scale that
/// links score units to odds is given, or chosen first for `start`, and held.
pub fn fit(samples: &[Sample], start: &EvalWeights, options: &FitOptions) -> (EvalWeights, FitReport) {
    let start_params = flatten(start);
    let layer = start.hidden.as_ref();
    let scale = options.scale.unwrap_or_else(|| best_scale(&start_params, layer, samples));
    let targets = targets(samples, scale, options.result_weight);
    let loss_before = loss_with(&start_params, layer, samples, &targets, scale);
    if let Some(hidden) = &options.hidden {
        let (fitted, colour) = fit_hidden(samples, &targets, start, scale, hidden);
        let mut params = flatten(&fitted);
        params[COLOUR] = colour;
        let loss_after = loss_with(&params, fitted.hidden.as_ref(), samples, &targets, scale);
        return (fitted, FitReport { scale, loss_before, loss_after, colour });
    }
    // A layer the start has is held as it is: its value is a fixed part of each sample's.
    let held: Vec<f64> =
        samples.iter().map(|s| layer.map_or(0.0, |layer| f64::from(layer.value(&s.features)))).collect();
    let mut params = start_params.clone();
    let (mut m, mut v) = (vec![0.0; params.len()], vec![0.0; params.len()]);
    let (beta1, beta2) = (0.9f64, 0.999f64);
    let n = samples.len().max(1) as f64;
    for epoch in 1..=options.epochs {
        let mut grad: Vec<f64> =
            params.iter().zip(&start_params).map(|(w, w0)| 2.0 * options.l2 * (w - w0)).collect();
        for ((s, &y), &fixed) in samples.iter().zip(&targets).zip(&held) {
            // d(log loss)/d(eval) for the logistic model.
            let err = (sigmoid((linear(&params, s) + fixed) / scale) - y) / scale / n;
            grad[TEMPO] += err;
            grad[COLOUR] += err * colour_sign(s);
            for &f in &s.features {
                grad[f as usize] += err * sign(f as usize);
            }
        }
        let (c1, c2) = (1.0 - beta1.powi(epoch as i32), 1.0 - beta2.powi(epoch as i32));
        for i in 0..params.len() {
            m[i] = beta1 * m[i] + (1.0 - beta1) * grad[i];
            v[i] = beta2 * v[i] + (1.0 - beta2) * grad[i] * grad[i];
            params[i] -= options.learning_rate * (m[i] / c1) / ((v[i] / c2).sqrt() + 1e-12);
        }
    }
    let loss_after = loss_with(&params, layer, samples, &targets, scale);
    let fitted = tables_from(&params, start.hidden.clone());
    (fitted, FitReport { scale, loss_before, loss_after, colour: params[COLOUR] })
}

/// The tables of `params` (in [`flatten`]'s order, score units), rounded, with `hidden`.
pub(crate) fn tables_from(params: &[f64], hidden: Option<HiddenLayer>) -> EvalWeights {
    let round = |x: &f64| x.round() as i32;
    EvalWeights {
        mine: params[..COMBOS].iter().map(round).collect(),
        theirs: params[COMBOS..THREATS].iter().map(round).collect(),
        threats: params[THREATS..TEMPO].iter().map(round).collect(),
        tempo: round(&params[TEMPO]),
        hidden,
    }
}

/// How well a table set predicts the games' results: its log loss at `scale`, with black's
/// edge `colour`.
pub fn log_loss(weights: &EvalWeights, samples: &[Sample], scale: f64, colour: f64) -> f64 {
    let mut params = flatten(weights);
    params[COLOUR] = colour;
    let (samples, outcomes) = with_results(samples);
    loss_with(&params, weights.hidden.as_ref(), &samples, &outcomes, scale)
}

/// How well a table set predicts the searched values of `samples` (read as odds at `scale`):
/// the log loss against them, without the colour's term, as the engine reads the tables.
pub fn value_loss(weights: &EvalWeights, samples: &[Sample], scale: f64) -> f64 {
    let samples: Vec<Sample> = samples.iter().filter(|s| s.searched.is_some()).cloned().collect();
    let values = targets(&samples, scale, 0.0);
    loss_with(&flatten(weights), weights.hidden.as_ref(), &samples, &values, scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quick_run() -> SelfPlay {
        SelfPlay { nodes: 300, seed: 5, opening_stones: 4, weights: EvalWeights::hand(130) }
    }

    #[test]
    fn self_play_replays_from_its_seed_and_round_trips_as_text() {
        let run = quick_run();
        let games: Vec<PlayedGame> = (0..3).map(|i| run.game(i)).collect();
        assert_eq!(games, (0..3).map(|i| run.game(i)).collect::<Vec<_>>());
        assert_ne!(games[0].moves, games[1].moves, "games differ by index");
        assert_eq!(games_from_text(&games_to_text(&games)).unwrap(), games);
        assert!(games.iter().all(|g| g.values.iter().flatten().count() > 0), "searched moves have values");
    }

    #[test]
    fn match_records_are_read_once_each() {
        let won = r#"{"game":"gomoku","options":"","index":0,"seats":["a","b"],"actions":["h8","a1","i8","a2","j8","a3","k8","a4","l8"],"scores":[1.0,0.0]}"#;
        let other = won.replace("\"a4\",\"l8\"", "\"a4\",\"g8\"");
        let games = games_from_text(&format!("{won}\n{won}\n{other}\n")).unwrap();
        assert_eq!(games.len(), 2, "the second copy of a game is left out");
        assert_eq!((games[0].winner, games[1].winner), (Some(BLACK), Some(BLACK)));
        assert_eq!(games[1].moves, "h8 a1 i8 a2 j8 a3 k8 a4 g8");
        let unfinished = won.replace(",\"l8\"", "");
        let err = games_from_text(&unfinished).unwrap_err();
        assert!(err.starts_with("line 1:") && err.contains("without a five"), "{err}");
        let err = games_from_text(&won.replace("\"options\":\"\"", "\"options\":\"size=19\"")).unwrap_err();
        assert!(err.contains("options 'size=19'"), "{err}");
        let err = games_from_text(&won.replace("gomoku", "connect4")).unwrap_err();
        assert!(err.contains("not of gomoku"), "{err}");
        assert!(games_from_text("{ nonsense").unwrap_err().contains("not a game record"));
    }

    #[test]
    fn game_files_with_errors_name_the_line() {
        let err = games_from_text("# c\n1-0 h8 h8\n").unwrap_err();
        assert!(err.starts_with("line 2:") && err.contains("taken"), "{err}");
        let err = games_from_text("2-0 h8\n").unwrap_err();
        assert!(err.contains("unknown result '2-0'"), "{err}");
        let err = games_from_text("0.250 h8 i9\n").unwrap_err();
        assert!(err.contains("looks like a positions file"), "{err}");
        assert!(!games_from_text("2-0 h8\n").unwrap_err().contains("positions"));
        let err = games_from_text("1-0 h8 a1 i8 a2 j8 a3 k8 a4 l8 | 2.0\n").unwrap_err();
        assert!(err.contains("'2.0' is not a value from -1 to 1"), "{err}");
        let err = games_from_text("1-0 h8 h9\n").unwrap_err();
        assert!(err.contains("do not end in the result 1-0"), "{err}");
    }

    #[test]
    fn samples_are_quiet_positions_with_the_result_for_the_side_to_move() {
        let run = quick_run();
        let games: Vec<PlayedGame> = (0..4).map(|i| run.game(i)).collect();
        let samples = samples(&games);
        assert!(!samples.is_empty());
        for s in &samples {
            assert!(s.features.iter().all(|&f| (f as usize) < 2 * COMBOS + THREAT_MASKS));
            assert!([0.0, 0.5, 1.0].contains(&s.result.unwrap()));
        }
    }

    #[test]
    fn fitting_lowers_the_loss_and_recovers_a_planted_table() {
        // Samples whose results follow a known table: the fit must move towards it.
        let games: Vec<PlayedGame> = (0..6).map(|i| quick_run().game(i)).collect();
        let mut samples = samples(&games);
        let planted = EvalWeights::hand(200);
        let scale = 200.0;
        let mut rng = rng_from_seed(3);
        for s in &mut samples {
            let p = sigmoid(linear(&flatten(&planted), s) / scale);
            s.result = Some(if rng.random::<f64>() < p { 1.0 } else { 0.0 });
            s.searched = None;
        }
        let start = EvalWeights::hand(100);
        let (fitted, report) = fit(
            &samples,
            &start,
            &FitOptions {
                epochs: 200,
                learning_rate: 2.0,
                l2: 0.0,
                result_weight: 1.0,
                scale: None,
                hidden: None,
            },
        );
        assert!(report.loss_after < report.loss_before, "{report:?}");
        assert!(
            log_loss(&fitted, &samples, report.scale, report.colour)
                < log_loss(&start, &samples, report.scale, 0.0)
        );
    }
}

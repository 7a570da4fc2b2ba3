//! Training the value network by self-play and temporal differences, as TD-Gammon learnt
//! backgammon: the network plays both sides, each move the one after which the opponent's
//! predicted chance is lowest; after each game every position about to be rolled for is moved
//! towards its λ-return, a blend of the network's own prediction one turn later and, further on,
//! the game's result. Dice and random arrangements make the games varied without exploration
//! moves. Everything follows from the seed: the same configuration trains the same network.

use ply_core::Game;
use ply_core::rng::{Rng, rng_from_seed};
use rand::RngExt;

use ply_einstein::value::best_move;
use ply_einstein::value::features::Features;
use ply_einstein::value::net::ValueNet;
use ply_einstein::{Einstein, Options, Phase};

#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    pub games: u64,
    pub seed: u64,
    /// The λ of TD(λ): 0 learns from the next prediction only, 1 from the game's result only.
    pub lambda: f32,
    /// Learning rate at the start and at the end; it falls geometrically in between.
    pub rate_start: f32,
    pub rate_end: f32,
    /// Share of moves played at random (their positions still learn; the result they lead to is
    /// not blamed on the positions before them).
    pub explore: f32,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            games: 1_000_000,
            seed: 1,
            lambda: 0.7,
            rate_start: 0.01,
            rate_end: 0.001,
            explore: 0.0,
        }
    }
}

/// How training went over the last block of games.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Progress {
    pub games: u64,
    /// Mean cross-entropy of the predictions against their λ-returns.
    pub loss: f64,
    /// Mean squared difference between a prediction and the next one (the TD error).
    pub td_error: f64,
    pub positions: u64,
}

struct Step {
    features: Features,
    /// The prediction for this position when it was reached.
    value: f32,
    /// Whether the move made from it was random.
    explored: bool,
}

/// The moves of one self-play game; the last position's mover won.
fn play_game(net: &ValueNet, config: &TrainConfig, rng: &mut Rng, steps: &mut Vec<Step>) {
    steps.clear();
    let mut state = Einstein::new(Options::default());
    while state.phase() == Phase::Setup {
        let setup = state.sample_chance(rng);
        state.apply(setup);
    }
    let mut first = Features::of(&state);
    let mut value = net.value(&first);
    let mut moves = Vec::new();
    loop {
        let roll = state.sample_chance(rng);
        state.apply(roll);
        state.legal_actions(&mut moves);
        let explored = config.explore > 0.0 && rng.random::<f32>() < config.explore;
        // The move and the opponent's predicted chance after it.
        let (action, opponent) = if explored {
            let pick = moves[rng.random_range(0..moves.len())];
            (pick, best_move(net, &state, &[pick]).1)
        } else {
            best_move(net, &state, &moves)
        };
        steps.push(Step { features: std::mem::take(&mut first), value, explored });
        if state.is_winning_move(action) {
            return;
        }
        state.apply(action);
        first.fill(&state);
        value = opponent;
    }
}

/// λ-returns of a finished game, from the point of view of each position's side to roll.
fn returns(steps: &[Step], lambda: f32) -> Vec<f32> {
    let mut out = vec![0f32; steps.len()];
    let mut next_return = 1.0; // the last mover won
    for t in (0..steps.len()).rev() {
        out[t] = if t + 1 == steps.len() {
            1.0
        } else if steps[t].explored {
            // A random move says nothing of how good the position before it was, beyond what the
            // network thought of the position it led to.
            1.0 - steps[t + 1].value
        } else {
            (1.0 - lambda) * (1.0 - steps[t + 1].value) + lambda * (1.0 - next_return)
        };
        next_return = out[t];
    }
    out
}

/// Trains `net` for `config.games` games, calling `report` every `report_every` games.
pub fn train(
    net: &mut ValueNet,
    config: &TrainConfig,
    report_every: u64,
    mut report: impl FnMut(&ValueNet, &Progress),
) {
    let mut rng = rng_from_seed(config.seed);
    let mut steps = Vec::new();
    let mut block = Progress::default();
    let ratio = (config.rate_end / config.rate_start) as f64;
    for game in 0..config.games {
        let rate = config.rate_start * ratio.powf(game as f64 / config.games.max(1) as f64) as f32;
        play_game(net, config, &mut rng, &mut steps);
        let targets = returns(&steps, config.lambda);
        for (t, (step, &target)) in steps.iter().zip(&targets).enumerate() {
            let p = net.learn(&step.features, target, rate).clamp(1e-6, 1.0 - 1e-6) as f64;
            let y = target as f64;
            block.loss += -(y * p.ln() + (1.0 - y) * (1.0 - p).ln());
            let next = if t + 1 < steps.len() { 1.0 - steps[t + 1].value } else { 1.0 };
            block.td_error += ((next - step.value) as f64).powi(2);
            block.positions += 1;
        }
        if (game + 1) % report_every.max(1) == 0 || game + 1 == config.games {
            let n = block.positions.max(1) as f64;
            report(
                net,
                &Progress { games: game + 1, loss: block.loss / n, td_error: block.td_error / n, ..block },
            );
            block = Progress::default();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lambda_returns_blend_predictions_and_the_result() {
        let step = |value: f32| Step { features: Features::default(), value, explored: false };
        let steps = vec![step(0.5), step(0.4), step(0.3)];
        // λ = 1: the result, alternating between the sides: the last mover won.
        assert_eq!(returns(&steps, 1.0), vec![1.0, 0.0, 1.0]);
        // λ = 0: one minus the next position's prediction (the last mover's result is a win).
        let r = returns(&steps, 0.0);
        assert!((r[0] - 0.6).abs() < 1e-6 && (r[1] - 0.7).abs() < 1e-6 && r[2] == 1.0);
    }

    #[test]
    fn training_is_reproducible_and_learns() {
        let config = TrainConfig { games: 300, seed: 9, ..TrainConfig::default() };
        let start = ValueNet::new(ply_einstein::value::net::HIDDEN, &mut rng_from_seed(1));
        let mut a = start.clone();
        let mut b = start.clone();
        let mut reports = Vec::new();
        train(&mut a, &config, 100, |_, p| reports.push(*p));
        train(&mut b, &config, 100, |_, _| {});
        assert_eq!(a, b);
        assert_ne!(a, start);
        assert_eq!(reports.len(), 3);
        assert!(reports.iter().all(|p| p.positions > 1000 && p.loss.is_finite()));
    }
}

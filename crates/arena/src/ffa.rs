//! Free-for-alls: N agents at one table of an N-player game.
//!
//! Games come in rounds. A round seats the agents in every cyclic rotation (N games: each agent
//! plays each seat once), or with `all_orders` in every order (N! games: each agent also sits
//! after each other one equally often). All games of a round share one seed — the same dice,
//! cards and opening — so luck is dealt to the seats, not to the agents. An agent's score is its
//! mean share of the returns (1 for a win, a split for a draw); its 95% interval comes from the
//! spread of its per-round means, since the games of one round are not independent. Each game's
//! randomness depends only on the run's seed and the game's index, and results are gathered in
//! index order, so the report is the same at any thread count.

use std::time::{Duration, Instant};

use ply_core::rng::derive_seed;
use ply_core::{AgentSpec, Error, GameDef};
use rayon::prelude::*;
use serde::Serialize;

use crate::play::{GameSetup, play_game};
use crate::record::GameRecord;
use crate::runner::{RunOptions, check_specs, pool, progress_bar};
use crate::stats::Z95;

/// The seatings of one round: `orders[g][seat]` is the agent in `seat` in the round's game `g`.
pub fn round_orders(agents: usize, all_orders: bool) -> Vec<Vec<usize>> {
    if !all_orders {
        return (0..agents).map(|shift| (0..agents).map(|seat| (seat + shift) % agents).collect()).collect();
    }
    let mut orders = Vec::new();
    let mut order: Vec<usize> = (0..agents).collect();
    permutations(&mut order, 0, &mut orders);
    orders.sort();
    orders
}

fn permutations(order: &mut Vec<usize>, from: usize, out: &mut Vec<Vec<usize>>) {
    if from == order.len() {
        out.push(order.clone());
        return;
    }
    for i in from..order.len() {
        order.swap(from, i);
        permutations(order, from + 1, out);
        order.swap(from, i);
    }
}

/// One agent's results at the table.
#[derive(Clone, Debug, Serialize)]
pub struct FfaStanding {
    pub agent: String,
    pub games: u64,
    /// Mean share of the returns: its expected score, which for games without draws is its
    /// share of wins. A fair share is `1 / players`.
    pub score: f64,
    pub low: f64,
    pub high: f64,
    /// Games it won outright (the best score, alone).
    pub wins: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct FfaReport {
    pub game: String,
    pub players: usize,
    pub rounds: u64,
    pub games: u64,
    pub all_orders: bool,
    pub fair_share: f64,
    pub standings: Vec<FfaStanding>,
    #[serde(skip)]
    pub records: Vec<GameRecord>,
    pub elapsed: Duration,
}

/// The games of a free-for-all: the seatings of a round, and how many games in all.
#[derive(Clone, Debug)]
pub struct FfaPlan {
    pub orders: Vec<Vec<usize>>,
    pub rounds: u64,
    pub games: u64,
}

/// Checks a free-for-all (a seat for every agent, at most 6 players in every order) and lists
/// its games: `ceil(options.games / round size)` rounds.
pub fn ffa_plan<G: GameDef>(
    specs: &[AgentSpec],
    all_orders: bool,
    options: &RunOptions,
) -> Result<FfaPlan, Error> {
    let players = check_specs::<G>(specs, &options.options)?;
    if specs.len() != players {
        return Err(Error::spec(format!(
            "{} with these options seats {players} players, but {} agents were given (set -o players=N)",
            G::NAME,
            specs.len()
        )));
    }
    if all_orders && players > 6 {
        return Err(Error::spec("--all-orders seats every order: at most 6 players (720 games a round)"));
    }
    let orders = round_orders(players, all_orders);
    let per_round = orders.len() as u64;
    let rounds = options.games.div_ceil(per_round).max(1);
    Ok(FfaPlan { orders, rounds, games: rounds * per_round })
}

/// Games `indices` of a free-for-all, in index order, on `options.threads` threads: each the
/// same wherever it is played (the Python package's Ray runs split a run so), to be put
/// together by [`ffa_report`].
pub fn play_ffa_batch<G: GameDef>(
    specs: &[AgentSpec],
    all_orders: bool,
    indices: std::ops::Range<u64>,
    options: &RunOptions,
) -> Result<Vec<GameRecord>, Error> {
    let plan = ffa_plan::<G>(specs, all_orders, options)?;
    pool(options.threads)?.install(|| play_ffa_games::<G>(specs, &plan.orders, indices, options, &|| {}))
}

fn play_ffa_games<G: GameDef>(
    specs: &[AgentSpec],
    orders: &[Vec<usize>],
    indices: std::ops::Range<u64>,
    options: &RunOptions,
    on_game: &(dyn Fn() + Sync),
) -> Result<Vec<GameRecord>, Error> {
    let per_round = orders.len() as u64;
    indices
        .into_par_iter()
        .map(|index| {
            let order = &orders[(index % per_round) as usize];
            let setup = GameSetup {
                options: &options.options,
                index,
                seed: derive_seed(derive_seed(options.seed, 0xFFA), index / per_round),
                seats: order.iter().map(|&agent| (&specs[agent], agent)).collect(),
                budget: options.budget,
                openings: options.openings,
                stop: options.stop.clone(),
            };
            let record = play_game::<G>(&setup);
            on_game();
            record
        })
        .collect()
}

/// Plays `ceil(options.games / round size)` rounds.
pub fn run_ffa<G: GameDef>(
    specs: &[AgentSpec],
    all_orders: bool,
    options: &RunOptions,
) -> Result<FfaReport, Error> {
    let plan = ffa_plan::<G>(specs, all_orders, options)?;
    let started = Instant::now();
    let bar = progress_bar(plan.games, options.progress);
    let games = pool(options.threads)?
        .install(|| play_ffa_games::<G>(specs, &plan.orders, 0..plan.games, options, &|| bar.inc(1)))?;
    bar.finish_and_clear();
    Ok(ffa_report(G::NAME, specs, all_orders, games, started.elapsed()))
}

/// A free-for-all's report from all its games (whole rounds, one agent a seat), in index order
/// (how [`run_ffa`] makes its own).
pub fn ffa_report(
    game: &str,
    specs: &[AgentSpec],
    all_orders: bool,
    games: Vec<GameRecord>,
    elapsed: Duration,
) -> FfaReport {
    let players = specs.len();
    let orders = round_orders(players, all_orders);
    let per_round = orders.len() as u64;
    let total = games.len() as u64;
    let rounds = total / per_round;
    let mut round_means = vec![Vec::with_capacity(rounds as usize); players];
    let mut wins = vec![0u64; players];
    for (round, chunk) in games.chunks(per_round as usize).enumerate() {
        let mut sums = vec![0.0; players];
        for (g, record) in chunk.iter().enumerate() {
            let order = &orders[g];
            for (seat, &agent) in order.iter().enumerate() {
                sums[agent] += record.returns[seat];
            }
            if let Some(seat) = sole_best(&record.returns) {
                wins[order[seat]] += 1;
            }
        }
        debug_assert_eq!(round, round_means[0].len());
        for (agent, sum) in sums.into_iter().enumerate() {
            round_means[agent].push(sum / per_round as f64);
        }
    }
    let standings = specs
        .iter()
        .enumerate()
        .map(|(agent, spec)| {
            let (score, low, high) = mean_interval(&round_means[agent]);
            FfaStanding { agent: spec.to_string(), games: total, score, low, high, wins: wins[agent] }
        })
        .collect();
    FfaReport {
        game: game.to_string(),
        players,
        rounds,
        games: total,
        all_orders,
        fair_share: 1.0 / players as f64,
        standings,
        records: games,
        elapsed,
    }
}

/// The seat with the best return, if no other seat has it too.
fn sole_best(returns: &[f64]) -> Option<usize> {
    let best = returns.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut leaders = returns.iter().enumerate().filter(|&(_, &r)| r == best);
    let first = leaders.next()?.0;
    leaders.next().is_none().then_some(first)
}

/// The mean of per-round means and its 95% interval (normal approximation), within [0, 1]. One
/// round says nothing of the spread: the interval is then all of [0, 1]. Rounds that all came
/// out the same show no spread either, which says nothing of the error: the Wilson interval of
/// the mean as a proportion over the rounds is used then, as [`crate::Score::interval`] does.
pub fn mean_interval(samples: &[f64]) -> (f64, f64, f64) {
    let n = samples.len() as f64;
    if samples.is_empty() {
        return (0.0, 0.0, 1.0);
    }
    let mean = samples.iter().sum::<f64>() / n;
    if samples.len() < 2 {
        return (mean, 0.0, 1.0);
    }
    let variance = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    if variance > 1e-12 {
        let half = Z95 * (variance / n).sqrt();
        return (mean, (mean - half).max(0.0), (mean + half).min(1.0));
    }
    let z2 = Z95 * Z95;
    let centre = (mean + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (mean * (1.0 - mean) / n + z2 / (4.0 * n * n)).sqrt();
    (mean, (centre - half).clamp(0.0, mean), (centre + half).clamp(mean, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotations_and_orders_seat_everyone_everywhere() {
        assert_eq!(round_orders(3, false), vec![vec![0, 1, 2], vec![1, 2, 0], vec![2, 0, 1]]);
        let all = round_orders(3, true);
        assert_eq!(all.len(), 6);
        for seat in 0..3 {
            for agent in 0..3 {
                assert_eq!(all.iter().filter(|o| o[seat] == agent).count(), 2);
            }
        }
    }

    #[test]
    fn the_interval_comes_from_the_rounds() {
        let (mean, low, high) = mean_interval(&[0.2, 0.4, 0.3, 0.5]);
        assert!((mean - 0.35).abs() < 1e-12 && low < mean && mean < high);
        assert_eq!(mean_interval(&[0.7]), (0.7, 0.0, 1.0));
        let (mean, low, high) = mean_interval(&[2.0 / 3.0, 2.0 / 3.0]);
        assert!(low < 0.3 && mean < high && high > 0.9, "two equal rounds say little: [{low}, {high}]");
        assert_eq!(sole_best(&[0.5, 0.5, 0.0]), None);
        assert_eq!(sole_best(&[0.0, 1.0, 0.0]), Some(1));
    }
}

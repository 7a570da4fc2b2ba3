//! Matches, round-robin tournaments and SPRT runs, played in parallel.
//!
//! Game `i` of a pairing belongs to pair `i / 2`: both games of a pair share one seed (the same
//! random opening and dice stream) and swap the seats. Each game's randomness depends only on the
//! run's seed and the game's index, and results are gathered in index order, so the same seed and
//! iteration budgets give identical results whatever the number of threads.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ply_core::rng::derive_seed;
use ply_core::{AgentSpec, Budget, Error, GameDef, StopFlag};
use rayon::prelude::*;
use serde::Serialize;

use crate::play::{GameSetup, play_game};
use crate::record::GameRecord;
use crate::stats::{Score, Sprt, SprtVerdict};

#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Game options, `key=value,...`.
    pub options: String,
    /// Games per pairing (for SPRT: the most games to play).
    pub games: u64,
    pub seed: u64,
    /// Per-move budget for agents whose spec sets none.
    pub budget: Budget,
    pub threads: usize,
    /// Draw a progress bar on the terminal.
    pub progress: bool,
    /// Random opening moves per game, if not the game's own number.
    pub openings: Option<usize>,
    /// Set from another thread to end the run early (Ctrl-C in the Python package): searches in
    /// progress stop, every game ends before its next move, and the run returns an error
    /// instead of a partial report.
    pub stop: StopFlag,
}

/// Iterations per turn when a run is given neither a time nor an iteration budget.
pub const DEFAULT_ITERATIONS: u64 = 10_000;

impl RunOptions {
    /// The options of a run as the `ply` command and the Python package take them (`--games`,
    /// `--seed`, `--time` ms or `--iters`, `--threads`, `--openings`, `-o`), checked with the
    /// same messages; no progress bar. Threads default to all cores.
    pub fn new(
        options: &str,
        games: u64,
        seed: u64,
        time_ms: Option<u64>,
        iters: Option<u64>,
        threads: Option<usize>,
        openings: Option<usize>,
    ) -> Result<Self, Error> {
        if games == 0 {
            return Err(Error::spec("--games must be at least 1"));
        }
        let budget = match (time_ms, iters) {
            (Some(0), _) => return Err(Error::spec("--time must be at least 1 ms")),
            (_, Some(0)) => return Err(Error::spec("--iters must be at least 1")),
            (Some(_), Some(_)) => return Err(Error::spec("--time and --iters cannot be used together")),
            (Some(ms), None) => Budget::millis(ms),
            (None, Some(n)) => Budget::iterations(n),
            (None, None) => Budget::iterations(DEFAULT_ITERATIONS),
        };
        let threads = match threads {
            Some(0) => return Err(Error::spec("--threads must be at least 1")),
            Some(t) => t,
            None => std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
        };
        Ok(RunOptions {
            options: options.to_string(),
            games,
            seed,
            budget,
            threads,
            progress: false,
            openings,
            stop: StopFlag::new(),
        })
    }
}

/// The results of one pairing, from the first agent's side.
#[derive(Clone, Debug, Serialize)]
pub struct PairResult {
    pub first: String,
    pub second: String,
    pub score: Score,
}

#[derive(Clone, Debug, Serialize)]
pub struct MatchReport {
    pub game: String,
    pub result: PairResult,
    #[serde(skip)]
    pub records: Vec<GameRecord>,
    pub elapsed: Duration,
}

#[derive(Clone, Debug, Serialize)]
pub struct TournamentReport {
    pub game: String,
    pub agents: Vec<String>,
    /// Each agent's results against the whole field.
    pub totals: Vec<Score>,
    pub pairs: Vec<PairResult>,
    #[serde(skip)]
    pub records: Vec<GameRecord>,
    pub elapsed: Duration,
}

#[derive(Clone, Debug, Serialize)]
pub struct SprtReport {
    pub game: String,
    pub sprt: Sprt,
    pub result: PairResult,
    pub llr: f64,
    pub bounds: (f64, f64),
    pub verdict: SprtVerdict,
    #[serde(skip)]
    pub records: Vec<GameRecord>,
    pub elapsed: Duration,
}

/// Which agent (0 or 1 of the pairing) sits in each seat of game `index`.
fn seating(index: u64, players: usize) -> Vec<usize> {
    let swap = (index % 2) as usize;
    (0..players).map(|seat| (seat + swap) % 2).collect()
}

fn pair_seed(seed: u64, pairing: u64, index: u64) -> u64 {
    derive_seed(derive_seed(seed, pairing), index / 2)
}

/// Each agent's share of the game: the returns of its seats.
fn shares(record: &GameRecord, seats: &[usize]) -> [f64; 2] {
    let mut share = [0.0; 2];
    for (seat, &agent) in seats.iter().enumerate() {
        share[agent] += record.returns[seat];
    }
    share
}

pub(crate) fn check_specs<G: GameDef>(specs: &[AgentSpec], options: &str) -> Result<usize, Error> {
    for spec in specs {
        G::build_agent(spec, 0)?;
    }
    Ok(G::new_from_text_options(options)?.num_players())
}

pub(crate) fn progress_bar(total: u64, show: bool) -> ProgressBar {
    let target = if show { ProgressDrawTarget::stderr() } else { ProgressDrawTarget::hidden() };
    let bar = ProgressBar::with_draw_target(Some(total), target);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar
}

pub(crate) fn pool(threads: usize) -> Result<rayon::ThreadPool, Error> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| Error::spec(format!("cannot start {threads} threads: {e}")))
}

/// Plays the games `indices` of pairing `pairing` (agents `a`, `b`) in parallel, in index order.
fn play_games<G: GameDef>(
    specs: [&AgentSpec; 2],
    pairing: u64,
    indices: std::ops::Range<u64>,
    options: &RunOptions,
    players: usize,
    on_game: &(dyn Fn(&GameRecord, [f64; 2]) + Sync),
) -> Result<Vec<(GameRecord, [f64; 2])>, Error> {
    indices
        .into_par_iter()
        .map(|index| {
            let seats = seating(index, players);
            let setup = GameSetup {
                options: &options.options,
                index,
                seed: pair_seed(options.seed, pairing, index),
                seats: seats.iter().map(|&agent| (specs[agent], agent)).collect(),
                budget: options.budget,
                openings: options.openings,
                stop: options.stop.clone(),
            };
            let record = play_game::<G>(&setup)?;
            let share = shares(&record, &seats);
            on_game(&record, share);
            Ok((record, share))
        })
        .collect()
}

pub fn run_match<G: GameDef>(specs: [&AgentSpec; 2], options: &RunOptions) -> Result<MatchReport, Error> {
    let players = check_specs::<G>(&[specs[0].clone(), specs[1].clone()], &options.options)?;
    let started = Instant::now();
    let bar = progress_bar(options.games, options.progress);
    let live = Mutex::new(Score::default());
    let on_game = |_: &GameRecord, share: [f64; 2]| {
        let mut score = live.lock().unwrap();
        score.add(share[0], share[1]);
        bar.set_message(format!("+{} ={} -{}", score.wins, score.draws, score.losses));
        bar.inc(1);
    };
    let games = pool(options.threads)?
        .install(|| play_games::<G>(specs, 0, 0..options.games, options, players, &on_game))?;
    bar.finish_and_clear();
    Ok(match_report(G::NAME, specs, games.into_iter().map(|(r, _)| r).collect(), started.elapsed()))
}

/// Games `indices` of pairing `pairing` of a run — a match is pairing 0, a tournament's are
/// numbered as [`tournament_pairings`] lists them — in index order: the independent pieces a
/// run can be split into (the Python package's Ray runs), each game the same wherever it is
/// played. [`match_report`] and [`tournament_report`] put them together.
pub fn play_batch<G: GameDef>(
    specs: [&AgentSpec; 2],
    pairing: u64,
    indices: std::ops::Range<u64>,
    options: &RunOptions,
) -> Result<Vec<GameRecord>, Error> {
    let players = check_specs::<G>(&[specs[0].clone(), specs[1].clone()], &options.options)?;
    let games = pool(options.threads)?
        .install(|| play_games::<G>(specs, pairing, indices, options, players, &|_, _| {}))?;
    Ok(games.into_iter().map(|(r, _)| r).collect())
}

/// The first agent's score over games of a pairing, in index order.
fn pair_score(records: &[GameRecord]) -> Score {
    let mut score = Score::default();
    for record in records {
        let share = shares(record, &seating(record.index, record.returns.len()));
        score.add(share[0], share[1]);
    }
    score
}

/// A match's report from all its games in index order (how [`run_match`] makes its own).
pub fn match_report(
    game: &str,
    specs: [&AgentSpec; 2],
    records: Vec<GameRecord>,
    elapsed: Duration,
) -> MatchReport {
    MatchReport {
        game: game.to_string(),
        result: PairResult {
            first: specs[0].to_string(),
            second: specs[1].to_string(),
            score: pair_score(&records),
        },
        records,
        elapsed,
    }
}

/// Every pairing of a round robin between `agents` agents, in the order games are seeded and
/// reported.
pub fn tournament_pairings(agents: usize) -> Vec<(usize, usize)> {
    (0..agents).flat_map(|i| (i + 1..agents).map(move |j| (i, j))).collect()
}

/// A tournament's report from every pairing's games, pairings in [`tournament_pairings`]
/// order and games in index order (how [`run_tournament`] makes its own).
pub fn tournament_report(
    game: &str,
    specs: &[AgentSpec],
    per_pairing: Vec<Vec<GameRecord>>,
    elapsed: Duration,
) -> TournamentReport {
    let mut totals = vec![Score::default(); specs.len()];
    let mut pairs = Vec::new();
    let mut records = Vec::new();
    for ((i, j), games) in tournament_pairings(specs.len()).into_iter().zip(per_pairing) {
        let mut score = Score::default();
        for record in games {
            let share = shares(&record, &seating(record.index, record.returns.len()));
            score.add(share[0], share[1]);
            totals[i].add(share[0], share[1]);
            totals[j].add(share[1], share[0]);
            records.push(record);
        }
        pairs.push(PairResult { first: specs[i].to_string(), second: specs[j].to_string(), score });
    }
    TournamentReport {
        game: game.to_string(),
        agents: specs.iter().map(|s| s.to_string()).collect(),
        totals,
        pairs,
        records,
        elapsed,
    }
}

pub fn run_tournament<G: GameDef>(
    specs: &[AgentSpec],
    options: &RunOptions,
) -> Result<TournamentReport, Error> {
    if specs.len() < 2 {
        return Err(Error::spec("a tournament needs at least two agents"));
    }
    let players = check_specs::<G>(specs, &options.options)?;
    let started = Instant::now();
    let pairings = tournament_pairings(specs.len());
    let bar = progress_bar(options.games * pairings.len() as u64, options.progress);
    let on_game = |_: &GameRecord, _: [f64; 2]| bar.inc(1);
    let per_pairing: Vec<Vec<(GameRecord, [f64; 2])>> = pool(options.threads)?.install(|| {
        pairings
            .par_iter()
            .enumerate()
            .map(|(k, &(i, j))| {
                play_games::<G>(
                    [&specs[i], &specs[j]],
                    k as u64,
                    0..options.games,
                    options,
                    players,
                    &on_game,
                )
            })
            .collect::<Result<_, _>>()
    })?;
    bar.finish_and_clear();
    let per_pairing =
        per_pairing.into_iter().map(|games| games.into_iter().map(|(r, _)| r).collect()).collect();
    Ok(tournament_report(G::NAME, specs, per_pairing, started.elapsed()))
}

/// Plays game pairs until the SPRT accepts a hypothesis or `options.games` games are played.
/// Games run in parallel in batches, but the test is applied pair by pair in index order, so the
/// stopping point does not depend on the thread count.
pub fn run_sprt<G: GameDef>(
    specs: [&AgentSpec; 2],
    sprt: Sprt,
    options: &RunOptions,
) -> Result<SprtReport, Error> {
    let players = check_specs::<G>(&[specs[0].clone(), specs[1].clone()], &options.options)?;
    let started = Instant::now();
    let bar = progress_bar(options.games, options.progress);
    let pool = pool(options.threads)?;
    let batch = (4 * options.threads.max(1) as u64).max(8);
    let mut score = Score::default();
    let mut records = Vec::new();
    let mut verdict = SprtVerdict::Continue;
    let mut next = 0;
    let on_game = |_: &GameRecord, _: [f64; 2]| bar.inc(1);
    'outer: while next < options.games {
        let end = (next + batch).min(options.games);
        let games = pool.install(|| play_games::<G>(specs, 0, next..end, options, players, &on_game))?;
        for pair in games.chunks(2) {
            for (record, share) in pair {
                score.add(share[0], share[1]);
                records.push(record.clone());
            }
            verdict = sprt.verdict(&score);
            bar.set_message(format!("LLR {:.2}", sprt.llr(&score)));
            if verdict != SprtVerdict::Continue {
                break 'outer;
            }
        }
        next = end;
    }
    bar.finish_and_clear();
    Ok(SprtReport {
        game: G::NAME.to_string(),
        sprt,
        llr: sprt.llr(&score),
        bounds: sprt.bounds(),
        verdict,
        result: PairResult { first: specs[0].to_string(), second: specs[1].to_string(), score },
        records,
        elapsed: started.elapsed(),
    })
}

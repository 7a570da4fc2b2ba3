//! `gomoku-train`: fits the Gomoku engine's evaluation tables to self-play results (see
//! `ply_gomoku::train` and docs/gomoku.md). `play` writes self-play games, `label` draws
//! positions like the search's leaves from them and labels them by a deeper search, `teach`
//! relabels positions with another engine's judgement (a Gomocup brain's), `rank` finds where
//! a player's moves fall in the engine's move ordering, `fit` fits
//! tables to game and position files, `run` does rounds of play and fit, each round's players
//! using the last round's tables.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};
use ply_gomoku::EvalWeights;
use ply_gomoku_tools::hidden::HiddenOptions;
use ply_gomoku_tools::leaves::{
    LabelledPosition, Labelling, position_samples, positions_from_text, positions_to_text,
};
use ply_gomoku_tools::rank::rank_moves;
use ply_gomoku_tools::sgf::{games_from_sgf, player_moves};
use ply_gomoku_tools::teacher::{Brain, Teacher};
use ply_gomoku_tools::train::{
    FitOptions, PlayedGame, SelfPlay, fit, games_from_text, games_to_text, log_loss, samples, value_loss,
};
use rayon::prelude::*;

#[derive(Parser)]
#[command(name = "gomoku-train", about = "Fit the Gomoku engine's evaluation tables to self-play results")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Self-play games with given tables, written one a line.
    Play {
        #[command(flatten)]
        play: PlayArgs,
        /// Tables the players use (default: the shipped ones).
        #[arg(long)]
        weights: Option<PathBuf>,
        #[arg(long)]
        out: PathBuf,
    },
    /// Positions drawn from games by short walks, labelled by the engine's search.
    Label {
        /// Game files to draw positions from: `play`'s output, `ply match --out` records, or SGF
        /// from a match manager (c-gomoku-cli's `-sgf`).
        #[arg(required = true)]
        games: Vec<PathBuf>,
        /// Positions drawn from each game.
        #[arg(long, default_value_t = 8)]
        per_game: usize,
        /// The most moves a walk from a game's position makes.
        #[arg(long, default_value_t = 4)]
        walk: usize,
        /// Nodes the engine's choice of a walk's move gets (half the walk's moves are any
        /// candidate point).
        #[arg(long, default_value_t = 300)]
        walk_nodes: u64,
        /// Nodes the labelling search gets.
        #[arg(long, default_value_t = 10000)]
        nodes: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Tables the engine uses (default: the shipped ones).
        #[arg(long)]
        weights: Option<PathBuf>,
        /// Worker threads (default: all cores).
        #[arg(short = 't', long)]
        threads: Option<usize>,
        #[arg(long)]
        out: PathBuf,
    },
    /// Positions relabelled by another engine: a Gomocup brain that reports its score as
    /// `MESSAGE ... Eval N` (or `Eval +Mk` / `-Mk` for a forced result), at a node budget.
    Teach {
        /// Position files (`label`'s output): their values are replaced by the brain's.
        #[arg(required = true)]
        positions: Vec<PathBuf>,
        /// The brain's executable (run from its own directory).
        #[arg(long)]
        brain: PathBuf,
        /// Nodes the brain searches a position (`INFO max_node`).
        #[arg(long, default_value_t = 100_000)]
        nodes: u64,
        /// The brain's score units per logistic unit (Rapfi: 200).
        #[arg(long, default_value_t = 200.0)]
        scale: f64,
        /// Seconds a position may take before the brain is given up on.
        #[arg(long, default_value_t = 30)]
        timeout: u64,
        /// Brains run at once (default: all cores).
        #[arg(short = 't', long)]
        threads: Option<usize>,
        /// Keep each brain running from position to position, its table cleared before each
        /// (`YXHASHCLEAR`), instead of starting one a position.
        #[arg(long)]
        keep_brain: bool,
        #[arg(long)]
        out: PathBuf,
    },
    /// Where a player's moves in match-manager SGF files fall among the moves a node of the
    /// engine's tree would search, best first (docs/gomoku.md, "Kept: answers on the three's
    /// line").
    Rank {
        /// SGF files as c-gomoku-cli writes them (`-sgf`).
        #[arg(required = true)]
        games: Vec<PathBuf>,
        /// The player whose moves are ranked, as `PB`/`PW` name it.
        #[arg(long)]
        player: String,
        /// Writes the positions whose move the tree would never search, one a line: the
        /// position's moves, a tab, the move.
        #[arg(long)]
        never_searched: Option<PathBuf>,
    },
    /// Fits tables to game and position files and writes them.
    Fit {
        /// Game files: `play`'s output, `ply match --out` records, or SGF from a match manager.
        games: Vec<PathBuf>,
        /// Position files (`label`'s output): each position's target is its searched value.
        #[arg(long)]
        positions: Vec<PathBuf>,
        #[command(flatten)]
        fit: FitArgs,
        /// Starting tables (default: the hand-set scores).
        #[arg(long)]
        start: Option<PathBuf>,
        #[arg(long)]
        out: PathBuf,
    },
    /// Rounds of `play` then `fit` from the hand-set scores; the last tables go to `--out`.
    Run {
        #[arg(long, default_value_t = 3)]
        rounds: usize,
        #[command(flatten)]
        play: PlayArgs,
        #[command(flatten)]
        fit: FitArgs,
        /// Where each round's games and tables are kept.
        #[arg(long)]
        dir: PathBuf,
        #[arg(long)]
        out: PathBuf,
    },
}

#[derive(Args, Clone)]
struct PlayArgs {
    #[arg(long, default_value_t = 2000)]
    games: u64,
    /// Engine nodes a move.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Most random stones in an opening.
    #[arg(long, default_value_t = 4)]
    opening_stones: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(short = 't', long)]
    threads: Option<usize>,
}

#[derive(Args, Clone)]
struct FitArgs {
    #[arg(long, default_value_t = 400)]
    epochs: usize,
    #[arg(long, default_value_t = 1.0)]
    learning_rate: f64,
    #[arg(long, default_value_t = 1e-6)]
    l2: f64,
    /// The game result's share of the target (the rest: the search's value of the position).
    #[arg(long, default_value_t = 0.5)]
    result_weight: f64,
    /// Share of the games held out to check the fit on.
    #[arg(long, default_value_t = 0.1)]
    holdout: f64,
    /// Score units per logistic unit (default: chosen to fit the starting tables to the
    /// games' results; required when only positions are given).
    #[arg(long)]
    scale: Option<f64>,
    /// Fit a hidden layer with the tables (docs/gomoku.md, "A hidden layer"): by batches of
    /// 256, `--epochs` passes (25 suit), at `--hidden-rate`; `--learning-rate` and `--l2` are
    /// the tables' fit's alone.
    #[arg(long)]
    hidden: bool,
    /// Adam's step size for the hidden fit, in logistic units.
    #[arg(long, default_value_t = 0.0005)]
    hidden_rate: f64,
    /// The hidden fit's seed: its starting units and the order of its batches.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn read_weights(path: &PathBuf) -> Result<EvalWeights> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    EvalWeights::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

fn play(args: &PlayArgs, weights: EvalWeights) -> Result<Vec<PlayedGame>> {
    if args.games == 0 || args.nodes == 0 {
        bail!("--games and --nodes must be at least 1");
    }
    let run = SelfPlay { nodes: args.nodes, seed: args.seed, opening_stones: args.opening_stones, weights };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.threads.unwrap_or(0)).build()?;
    let started = Instant::now();
    let games: Vec<PlayedGame> =
        pool.install(|| (0..args.games).into_par_iter().map(|i| run.game(i)).collect());
    let black = games.iter().filter(|g| g.winner == Some(ply_gomoku::BLACK)).count();
    let draws = games.iter().filter(|g| g.winner.is_none()).count();
    eprintln!(
        "played {} games ({} nodes a move) in {:.1} s: black won {black}, white {}, {draws} drawn",
        games.len(),
        args.nodes,
        started.elapsed().as_secs_f64(),
        games.len() - black - draws
    );
    Ok(games)
}

impl FitArgs {
    /// Checked before any game is read or played.
    fn check(&self) -> Result<()> {
        if !(0.0..1.0).contains(&self.holdout) {
            bail!("--holdout must be at least 0 and below 1");
        }
        if !(0.0..=1.0).contains(&self.result_weight) {
            bail!("--result-weight must be from 0 to 1");
        }
        if self.scale.is_some_and(|s| !(s.is_finite() && s > 0.0)) {
            bail!("--scale must be a positive number");
        }
        if !(self.hidden_rate.is_finite() && self.hidden_rate > 0.0) {
            bail!("--hidden-rate must be a positive number");
        }
        Ok(())
    }
}

fn fit_games(
    games: &[PlayedGame],
    positions: &[LabelledPosition],
    start: &EvalWeights,
    args: &FitArgs,
) -> Result<(EvalWeights, String)> {
    let held = (games.len() as f64 * args.holdout).round() as usize;
    let (test, train) = games.split_at(held);
    let held_positions = (positions.len() as f64 * args.holdout).round() as usize;
    let (test_positions, train_positions) = positions.split_at(held_positions);
    let started = Instant::now();
    let (mut train, test) = (samples(train), samples(test));
    train.extend(position_samples(train_positions));
    let test_positions = position_samples(test_positions);
    if train.is_empty() {
        bail!("no quiet positions to fit to");
    }
    if args.scale.is_none() && games.is_empty() {
        bail!("--scale is needed when only positions are given (no game results to choose it by)");
    }
    let options = FitOptions {
        epochs: args.epochs,
        learning_rate: args.learning_rate,
        l2: args.l2,
        result_weight: args.result_weight,
        scale: args.scale,
        hidden: args.hidden.then_some(HiddenOptions {
            epochs: args.epochs,
            learning_rate: args.hidden_rate,
            seed: args.seed,
        }),
    };
    let (fitted, report) = fit(&train, start, &options);
    let mut summary = format!(
        "{} samples from {} games ({} held out: {} samples); scale {:.1}; log loss {:.4} -> {:.4}, held out {:.4} -> {:.4}; black's edge {:.0}; {:.1} s",
        train.len(),
        games.len() - held,
        held,
        test.len(),
        report.scale,
        report.loss_before,
        report.loss_after,
        log_loss(start, &test, report.scale, 0.0),
        // The engine reads the tables alone: held out, both without the colour's term.
        log_loss(&fitted, &test, report.scale, 0.0),
        report.colour,
        started.elapsed().as_secs_f64()
    );
    if !positions.is_empty() {
        summary.push_str(&format!(
            "; {} labelled positions ({} held out: their values' log loss {:.4} -> {:.4})",
            positions.len(),
            held_positions,
            value_loss(start, &test_positions, report.scale),
            value_loss(&fitted, &test_positions, report.scale),
        ));
    }
    eprintln!("{summary}");
    Ok((fitted, summary))
}

fn read_positions(paths: &[PathBuf]) -> Result<Vec<LabelledPosition>> {
    let mut positions = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        positions.extend(positions_from_text(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?);
    }
    Ok(positions)
}

fn read_games(paths: &[PathBuf]) -> Result<Vec<PlayedGame>> {
    let mut games = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let error = |e: String| anyhow::anyhow!("{}: {e}", path.display());
        if text.trim_start().starts_with('(') {
            let read = games_from_sgf(&text).map_err(error)?;
            if read.unfinished > 0 {
                eprintln!(
                    "{}: skipped {} games that ended without a five or a full board",
                    path.display(),
                    read.unfinished
                );
            }
            games.extend(read.games);
        } else {
            games.extend(games_from_text(&text).map_err(error)?);
        }
    }
    Ok(games)
}

fn write(path: &PathBuf, text: &str) -> Result<()> {
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    let command_line = std::env::args().collect::<Vec<_>>().join(" ");
    match cli.command {
        Command::Play { play: args, weights, out } => {
            let weights = match &weights {
                Some(path) => read_weights(path)?,
                None => EvalWeights::learned().clone(),
            };
            let games = play(&args, weights)?;
            write(&out, &games_to_text(&games))?;
        }
        Command::Label { games, per_game, walk, walk_nodes, nodes, seed, weights, threads, out } => {
            if per_game == 0 || walk_nodes == 0 || nodes == 0 {
                bail!("--per-game, --walk-nodes and --nodes must be at least 1");
            }
            let weights = match &weights {
                Some(path) => read_weights(path)?,
                None => EvalWeights::learned().clone(),
            };
            let games = read_games(&games)?;
            let labelling = Labelling { per_game, walk, walk_nodes, nodes, seed, weights };
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads.unwrap_or(0)).build()?;
            let started = Instant::now();
            let positions: Vec<LabelledPosition> = pool.install(|| {
                games
                    .par_iter()
                    .enumerate()
                    .map(|(i, g)| labelling.label_game(g, i as u64))
                    .collect::<Vec<_>>()
                    .concat()
            });
            eprintln!(
                "labelled {} positions from {} games ({nodes} nodes each) in {:.1} s",
                positions.len(),
                games.len(),
                started.elapsed().as_secs_f64()
            );
            let header = format!("# {command_line}\n");
            write(&out, &(header + &positions_to_text(&positions)))?;
        }
        Command::Teach { positions, brain, nodes, scale, timeout, threads, keep_brain, out } => {
            if nodes == 0 || timeout == 0 || !(scale > 0.0 && scale.is_finite()) {
                bail!("--nodes and --timeout must be at least 1 and --scale a positive number");
            }
            let positions = read_positions(&positions)?;
            let teacher =
                Teacher { brain, nodes, scale, timeout: Duration::from_secs(timeout), keep: keep_brain };
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads.unwrap_or(0)).build()?;
            let started = Instant::now();
            // A brain a thread of the pool, kept (with --keep-brain) across the positions it labels.
            let brains: Vec<std::sync::Mutex<Option<Brain>>> =
                (0..pool.current_num_threads()).map(|_| Default::default()).collect();
            let answers: Vec<Result<LabelledPosition>> = pool.install(|| {
                positions
                    .par_iter()
                    .map(|p| {
                        let thread = rayon::current_thread_index().unwrap_or(0) % brains.len();
                        let mut brain = brains[thread].lock().unwrap_or_else(|e| e.into_inner());
                        teacher.label(&mut brain, p)
                    })
                    .collect()
            });
            drop(brains);
            let mut labelled = Vec::new();
            let mut failed = 0;
            let mut first_failure = None;
            for answer in answers {
                match answer {
                    Ok(p) => labelled.push(p),
                    Err(e) => {
                        failed += 1;
                        first_failure.get_or_insert(format!("{e:#}"));
                    }
                }
            }
            if labelled.is_empty()
                && let Some(first) = &first_failure
            {
                bail!("no position was labelled; the first failure: {first}");
            }
            // A brain may fail on a rare position (a full board, say): those are left out.
            eprintln!(
                "labelled {} positions ({} nodes each) in {:.1} s{}",
                labelled.len(),
                nodes,
                started.elapsed().as_secs_f64(),
                first_failure.map_or(String::new(), |e| format!("; {failed} failed, the first: {e}"))
            );
            let header = format!("# {command_line}\n");
            write(&out, &(header + &positions_to_text(&labelled)))?;
        }
        Command::Rank { games, player, never_searched } => {
            let mut moves = Vec::new();
            let mut played = 0;
            for path in &games {
                let text =
                    std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
                let read =
                    player_moves(&text, &player).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
                played += read.games;
                moves.extend(read.moves);
            }
            if moves.is_empty() {
                bail!("no moves of a player named '{player}' (PB or PW) in the games given");
            }
            let ranks = rank_moves(&moves).map_err(|e| anyhow::anyhow!(e))?;
            println!("{player}: {} moves in {played} games", moves.len());
            println!("{ranks}");
            if let Some(path) = never_searched {
                write(
                    &path,
                    &ranks.never_searched.iter().map(|line| format!("{line}\n")).collect::<String>(),
                )?;
            }
        }
        Command::Fit { games, positions, fit: args, start, out } => {
            args.check()?;
            if games.is_empty() && positions.is_empty() {
                bail!("give game files, --positions files, or both");
            }
            let start = match &start {
                Some(path) => read_weights(path)?,
                None => EvalWeights::hand(130),
            };
            let (fitted, summary) =
                fit_games(&read_games(&games)?, &read_positions(&positions)?, &start, &args)?;
            write(&out, &fitted.to_text(&format!("{command_line}\n{summary}")))?;
        }
        Command::Run { rounds, play: args, fit: fit_args, dir, out } => {
            fit_args.check()?;
            std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
            let mut weights = EvalWeights::hand(130);
            let mut all = Vec::new();
            let mut header = command_line.clone();
            for round in 1..=rounds {
                // Each round's games come from a seed of their own.
                let round_args =
                    PlayArgs { seed: args.seed.wrapping_add(round as u64 * 1_000_003), ..args.clone() };
                let games = play(&round_args, weights.clone())?;
                write(&dir.join(format!("games-{round}.txt")), &games_to_text(&games))?;
                all.extend(games);
                let (fitted, summary) = fit_games(&all, &[], &EvalWeights::hand(130), &fit_args)?;
                header.push_str(&format!("\nround {round}: {summary}"));
                write(&dir.join(format!("weights-{round}.txt")), &fitted.to_text(&header))?;
                weights = fitted;
            }
            write(&out, &weights.to_text(&header))?;
        }
    }
    Ok(())
}

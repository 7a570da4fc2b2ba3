use std::fs::File;
use std::io::{BufWriter, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};
use ply_arena::record::write_jsonl;
use ply_arena::tune::{Checkpoint, generation_line, result_json, tuned_spec};
use ply_arena::{GameRecord, RunOptions, Sprt};
use ply_cli::{engine, report};
use ply_core::AgentSpec;
use ply_search::genetic::{GenerationReport, GeneticConfig};

/// Ply: strategy-game AI engine, arena and playground.
#[derive(Parser)]
#[command(name = "ply", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the games Ply offers and their options.
    Games,
    /// List the agents a game offers, with their parameters and defaults.
    Agents {
        /// Game name (see `ply games`).
        game: String,
    },
    /// Play a match between two agents and print the score with a 95% interval.
    Match {
        game: String,
        /// First agent, `name[:key=value,...]`, e.g. `mcts:iters=2000,c=1.2`.
        first: String,
        /// Second agent.
        second: String,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Play a round robin between two or more agents and print an Elo table.
    Tournament {
        game: String,
        /// Agent specs, `name[:key=value,...]`.
        #[arg(required = true, num_args = 2..)]
        agents: Vec<String>,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Seat N agents at one table of an N-player game (-o players=N), seats rotated every game
    /// with the same dice per round; print each agent's share of the wins with a 95% interval.
    Ffa {
        game: String,
        /// Agent specs, one per seat, `name[:key=value,...]` (the same spec may sit twice).
        #[arg(required = true, num_args = 2..)]
        agents: Vec<String>,
        /// Seat the agents in every order each round (N! games) instead of every rotation (N).
        #[arg(long)]
        all_orders: bool,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Test whether the first agent is stronger than the second with a sequential probability
    /// ratio test; stops as soon as one hypothesis is accepted.
    Sprt {
        game: String,
        first: String,
        second: String,
        /// Elo difference under H0.
        #[arg(long, default_value_t = 0.0)]
        elo0: f64,
        /// Elo difference under H1.
        #[arg(long, default_value_t = 30.0)]
        elo1: f64,
        /// Probability of accepting H1 when H0 holds.
        #[arg(long, default_value_t = 0.05)]
        alpha: f64,
        /// Probability of accepting H0 when H1 holds.
        #[arg(long, default_value_t = 0.05)]
        beta: f64,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Evolve an agent's weight vector with the genetic tuner (tournaments between weight
    /// vectors; defaults: the Risk document's schedule) and print the best weights.
    Tune {
        game: String,
        /// The agent to tune, `name[:key=value,...]`; its other parameters stay fixed.
        agent: String,
        /// The agent parameter holding the weight vector.
        #[arg(long, default_value = "weights")]
        param: String,
        /// Number of weights in the vector.
        #[arg(long)]
        weights: usize,
        /// Save the run to this file after every generation (population, fitness, each
        /// generation's report), to resume it with --resume.
        #[arg(long, value_name = "FILE")]
        checkpoint: Option<PathBuf>,
        /// Go on from the --checkpoint file: plays only the games not yet played and ends as the
        /// run would have without stopping. --generations may be raised to extend a finished run.
        #[arg(long, requires = "checkpoint")]
        resume: bool,
        #[command(flatten)]
        genetic: GeneticArgs,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Search fixed positions with fixed budgets: prints the total iteration count (a signature
    /// of search behaviour) and iterations per second.
    Bench {
        /// One game; all games when omitted.
        game: Option<String>,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Count the action sequences of a given length from a position (move-generator check).
    Perft {
        game: String,
        depth: u32,
        /// Position in the game's text notation (default: the start).
        #[arg(long)]
        position: Option<String>,
        /// Game options, `key=value,...`.
        #[arg(long, short = 'o', default_value = "")]
        options: String,
    },
    /// Serve the web UI and its API (docs/web-api.md): play, watch and test games in a browser.
    Serve {
        /// Address to listen on, HOST:PORT (a name such as localhost is looked up). 0.0.0.0
        /// exposes the server to the network: see docs/web-api.md, "Security".
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: String,
        /// Directory for the game database (created if missing; one server at a time).
        #[arg(long, default_value = "ply-data")]
        data: PathBuf,
        /// Another host name the server answers to (repeatable; `*` for any). Loopback names
        /// and the --addr host are always answered; other names are refused, against DNS
        /// rebinding.
        #[arg(long = "allow-host", value_name = "NAME")]
        allow_hosts: Vec<String>,
        /// Most memory one AI built from a spec sent by a browser may take, in MiB.
        #[arg(long, default_value_t = 256)]
        agent_memory_mib: u64,
    },
    /// Speak the engine line protocol on stdin/stdout (docs/engine-protocol.md).
    Engine {
        game: String,
        /// Game options, `key=value,...`.
        #[arg(long, short = 'o', default_value = "")]
        options: String,
    },
}

#[derive(Args)]
struct RunArgs {
    /// Games per pairing (for sprt: the most games to play).
    #[arg(long, short = 'n', default_value_t = 100)]
    games: u64,
    /// Seed of all randomness: the same seed and iteration budgets replay the same games.
    #[arg(long, short = 's', default_value_t = 1)]
    seed: u64,
    /// Milliseconds per turn (one move in most games), for agents whose spec sets no budget.
    #[arg(long, conflicts_with = "iters")]
    time: Option<u64>,
    /// Iterations (nodes, simulations) per turn, for agents whose spec sets no budget.
    /// Default: 10000 when neither --time nor --iters is given.
    #[arg(long)]
    iters: Option<u64>,
    /// Games played at once (default: all cores).
    #[arg(long, short = 't')]
    threads: Option<usize>,
    /// Random opening moves at the start of every game, shared by both games of a pair
    /// (default: the game's own number, see `ply games`).
    #[arg(long)]
    openings: Option<usize>,
    /// Game options, `key=value,...` (see `ply games`).
    #[arg(long, short = 'o', default_value = "")]
    options: String,
    /// Write every game as a JSON line to this file.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Print the result as JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct GeneticArgs {
    /// Genes in the population.
    #[arg(long, default_value_t = 100)]
    population: usize,
    /// Lowest weight value.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    min: f64,
    /// Highest weight value.
    #[arg(long, default_value_t = 10.0, allow_negative_numbers = true)]
    max: f64,
    /// Tournaments per generation.
    #[arg(long, default_value_t = 10)]
    tournaments: usize,
    /// Genes drawn for each tournament (every pair plays once).
    #[arg(long, default_value_t = 10)]
    tournament_size: usize,
    /// Best genes kept from each tournament.
    #[arg(long, default_value_t = 3)]
    selected: usize,
    /// Children made by averaging pairs of kept genes.
    #[arg(long, default_value_t = 12)]
    children: usize,
    /// Mutants made by redrawing one weight of a kept gene.
    #[arg(long, default_value_t = 3)]
    mutants: usize,
    /// Generations.
    #[arg(long, default_value_t = 4)]
    generations: usize,
}

impl RunArgs {
    /// The run's options, checked by the arena (the Python package takes the same ones).
    fn options(&self) -> Result<RunOptions> {
        let mut options = RunOptions::new(
            &self.options,
            self.games,
            self.seed,
            self.time,
            self.iters,
            self.threads,
            self.openings,
        )?;
        options.progress = !self.json && std::io::stderr().is_terminal();
        Ok(options)
    }

    fn save(&self, records: &[GameRecord]) -> Result<()> {
        if let Some(path) = &self.out {
            let file = File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
            let mut out = BufWriter::new(file);
            write_jsonl(&mut out, records).with_context(|| format!("cannot write {}", path.display()))?;
        }
        Ok(())
    }
}

fn spec(text: &str) -> Result<AgentSpec> {
    Ok(AgentSpec::parse(text)?)
}

/// Writes to standard output. A closed pipe (`ply games | head`) ends the program quietly, as
/// for any Unix tool; any other write error is reported.
fn emit(args: std::fmt::Arguments) {
    use std::io::Write;
    if let Err(e) = std::io::stdout().lock().write_fmt(args) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write to standard output: {e}");
        std::process::exit(2);
    }
}

macro_rules! out {
    ($($arg:tt)*) => { emit(format_args!($($arg)*)) };
}

macro_rules! outln {
    ($($arg:tt)*) => { emit(format_args!("{}\n", format_args!($($arg)*))) };
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Games => {
            for game in ply_games::all() {
                outln!("{:<10} {}", game.name(), game.about());
                for option in game.options() {
                    outln!("    -o {}={:<8} {}", option.name, option.default, option.help);
                }
                match game.opening_plies() {
                    0 => {}
                    n => outln!("    arena games open with {n} random moves (--openings N to change)"),
                }
            }
        }
        Command::Agents { game } => {
            let game = ply_games::find(&game)?;
            outln!("agents of {} (spec: name[:key=value,...]):", game.name());
            for agent in game.agents() {
                outln!("{:<12} {}", agent.name, agent.about);
                for p in agent.params {
                    let default = if p.default.is_empty() { "-".to_string() } else { p.default.clone() };
                    outln!("    {:<10} {:<10} {}", p.name, default, p.help);
                }
            }
        }
        Command::Match { game, first, second, run } => {
            let game = ply_games::find(&game)?;
            let (a, b) = (spec(&first)?, spec(&second)?);
            let options = run.options()?;
            let report = game.run_match([&a, &b], &options)?;
            run.save(&report.records)?;
            if run.json {
                outln!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                out!("{}", report::match_table(&report, options.threads));
            }
        }
        Command::Tournament { game, agents, run } => {
            let game = ply_games::find(&game)?;
            let specs: Vec<AgentSpec> = agents.iter().map(|a| spec(a)).collect::<Result<_>>()?;
            let options = run.options()?;
            let report = game.run_tournament(&specs, &options)?;
            run.save(&report.records)?;
            if run.json {
                outln!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                out!("{}", report::tournament_table(&report, options.threads));
            }
        }
        Command::Ffa { game, agents, all_orders, run } => {
            let game = ply_games::find(&game)?;
            let specs: Vec<AgentSpec> = agents.iter().map(|a| spec(a)).collect::<Result<_>>()?;
            let options = run.options()?;
            let report = game.run_ffa(&specs, all_orders, &options)?;
            run.save(&report.records)?;
            if run.json {
                outln!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                out!("{}", report::ffa_table(&report, options.threads));
            }
        }
        Command::Sprt { game, first, second, elo0, elo1, alpha, beta, run } => {
            if !(0.0 < alpha && alpha < 0.5 && 0.0 < beta && beta < 0.5) {
                bail!("--alpha and --beta must lie strictly between 0 and 0.5");
            }
            // NaN would pass the comparison below and give a test that never decides.
            if !(elo0.is_finite() && elo1.is_finite()) {
                bail!("--elo0 and --elo1 must be finite numbers");
            }
            if elo1 <= elo0 {
                bail!("--elo1 must be greater than --elo0");
            }
            let game = ply_games::find(&game)?;
            let (a, b) = (spec(&first)?, spec(&second)?);
            let options = run.options()?;
            let report = game.run_sprt([&a, &b], Sprt { elo0, elo1, alpha, beta }, &options)?;
            run.save(&report.records)?;
            if run.json {
                outln!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                out!("{}", report::sprt_table(&report, options.threads));
            }
        }
        Command::Tune { game, agent, param, weights, checkpoint, resume, genetic: g, run } => {
            let game = ply_games::find(&game)?;
            let spec = spec(&agent)?;
            let options = run.options()?;
            let config = GeneticConfig {
                population: g.population,
                weights,
                min_weight: g.min,
                max_weight: g.max,
                tournaments: g.tournaments,
                tournament_size: g.tournament_size,
                selected_per_tournament: g.selected,
                children: g.children,
                mutants: g.mutants,
                generations: g.generations,
                seed: run.seed,
            };
            let json = run.json;
            let mut progress = |r: &GenerationReport| {
                if !json {
                    outln!("{}", generation_line(r));
                }
            };
            let checkpoint = checkpoint.map(|path| Checkpoint { path, resume });
            let result = game.tune(&spec, &param, &config, &options, checkpoint.as_ref(), &mut progress)?;
            if json {
                outln!("{}", serde_json::to_string_pretty(&result_json(&spec, &param, &result))?);
            } else {
                outln!("best: {}", tuned_spec(&spec, &param, &result.best));
            }
        }
        Command::Bench { game, json } => {
            let selected = match game {
                Some(name) => vec![ply_games::find(&name)?],
                None => ply_games::all(),
            };
            let reports = selected.iter().map(|g| g.bench()).collect::<Result<Vec<_>, _>>()?;
            if json {
                let (total, checksum) = report::bench_signature(&reports);
                let checksum = format!("{checksum:016x}");
                let json = serde_json::json!({"signature": total, "checksum": checksum, "games": reports});
                outln!("{}", serde_json::to_string_pretty(&json)?);
            } else {
                out!("{}", report::bench_table(&reports));
            }
        }
        Command::Perft { game, depth, position, options } => {
            let game = ply_games::find(&game)?;
            let mut state = game.new_state(&options)?;
            if let Some(text) = position {
                state.set_text(&text)?;
            }
            for d in 1..=depth {
                let started = std::time::Instant::now();
                let count = state.perft(d);
                outln!("perft {d}: {count} ({:.3} s)", started.elapsed().as_secs_f64());
            }
        }
        Command::Serve { addr, data, allow_hosts, agent_memory_mib } => {
            let mut config = ply_web::Config::new(&data);
            config.allowed_hosts = allow_hosts;
            config.caps.memory_bytes = agent_memory_mib.saturating_mul(1 << 20);
            ply_web::serve(ply_games::all(), &addr, config).context("ply serve")?;
        }
        Command::Engine { game, options } => {
            let game = ply_games::find(&game)?;
            engine::run(game, &options, std::io::stdin().lock(), std::io::stdout())?;
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

//! How much winning chance an agent gives away in small endgames, measured against exact play
//! ([`ply_einstein::solve`]). The agent plays games against itself, with a share of random moves
//! so that the endgames vary; every decision it makes with few cubes left and more than one move
//! to choose from is compared with the best move's exact value.

use std::process::ExitCode;

use clap::Parser;
use ply_core::rng::rng_from_seed;
use ply_core::{AgentSpec, Budget, Game, GameDef, Limits};
use ply_einstein::solve::Solver;
use ply_einstein::{Einstein, Options, Phase};
use rand::RngExt;

#[derive(Parser)]
#[command(about = "Judge an EinStein agent's endgame decisions against exact play")]
struct Args {
    /// Agent spec, e.g. 'expectimax:time=50' (default budget: 10000 iterations per move).
    agent: String,
    /// Judge decisions with at most this many cubes on the board (2 to 6; 6 takes minutes).
    #[arg(long, default_value_t = 5)]
    cubes: u32,
    /// Games to play.
    #[arg(long, default_value_t = 300)]
    games: usize,
    /// Share of random moves outside the judged endgames, in [0, 1).
    #[arg(long, default_value_t = 0.1)]
    random: f64,
    #[arg(long, default_value_t = 7)]
    seed: u64,
}

fn run(args: Args) -> Result<(), String> {
    if !(2..=6).contains(&args.cubes) {
        return Err(format!("--cubes must be 2 to 6, got {}", args.cubes));
    }
    if !(0.0..1.0).contains(&args.random) {
        return Err(format!("--random must be in [0, 1), got {}", args.random));
    }
    let spec = AgentSpec::parse(&args.agent).map_err(|e| e.to_string())?;
    let mut built = Einstein::build_agent(&spec, args.seed).map_err(|e| e.to_string())?;
    let limits = Limits::new(built.budget.or(Budget::iterations(10_000)));
    let mut rng = rng_from_seed(args.seed);
    let mut solver = Solver::new();
    let (mut decisions, mut loss, mut wrong) = (0usize, 0.0, 0usize);
    for _ in 0..args.games {
        let mut state = Einstein::new(Options::default());
        while state.phase() != Phase::Over {
            let action = match state.phase() {
                Phase::Move(_) => {
                    let moves = state.actions();
                    let judged = state.cubes_left(0) + state.cubes_left(1) <= args.cubes && moves.len() > 1;
                    if judged || rng.random::<f64>() >= args.random {
                        let chosen = built.agent.choose(&state, &limits, &mut |_| {}).action;
                        if judged {
                            let exact = solver.move_values(&state);
                            let best = exact.iter().map(|m| m.1).fold(0.0, f64::max);
                            let got = exact.iter().find(|m| m.0 == chosen).expect("a legal move").1;
                            decisions += 1;
                            loss += best - got;
                            wrong += usize::from(best - got > 1e-6);
                        }
                        chosen
                    } else {
                        moves[rng.random_range(0..moves.len())]
                    }
                }
                _ => state.sample_chance(&mut rng),
            };
            state.apply(action);
        }
    }
    let n = decisions.max(1) as f64;
    println!(
        "{}: {decisions} decisions with at most {} cubes: {:.1}% not the best move, {:.4} winning chance given away per decision",
        args.agent,
        args.cubes,
        100.0 * wrong as f64 / n,
        loss / n
    );
    Ok(())
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("einstein-endgames: {e}");
            ExitCode::FAILURE
        }
    }
}

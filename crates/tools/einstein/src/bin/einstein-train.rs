//! Trains EinStein's value network by self-play (see `ply_einstein_tools::train`) and writes it
//! to a file, after every report too, so that a long run stopped early keeps what it learnt.

use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use ply_core::rng::rng_from_seed;
use ply_einstein::value::net::ValueNet;
use ply_einstein::value::{load, shipped};
use ply_einstein_tools::train::{TrainConfig, train};

#[derive(Parser)]
#[command(about = "Train EinStein's value network by TD(λ) self-play")]
struct Args {
    /// Self-play games.
    #[arg(long, default_value_t = 1_000_000)]
    games: u64,
    /// Seed of the games (and of the starting weights).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// λ of TD(λ), in [0, 1].
    #[arg(long, default_value_t = 0.7)]
    lambda: f32,
    /// Learning rate at the start.
    #[arg(long, default_value_t = 0.01)]
    rate: f32,
    /// Learning rate at the end (it falls geometrically).
    #[arg(long, default_value_t = 0.001)]
    rate_end: f32,
    /// Share of random moves, in [0, 1).
    #[arg(long, default_value_t = 0.0)]
    explore: f32,
    /// Hidden units of a new network.
    #[arg(long, default_value_t = ply_einstein::value::net::HIDDEN)]
    hidden: usize,
    /// Continue from this network ('shipped' for the one built in) instead of fresh weights.
    #[arg(long)]
    from: Option<String>,
    /// Where to write the network.
    #[arg(long)]
    out: String,
    /// Games between progress lines (and saves).
    #[arg(long, default_value_t = 100_000)]
    report: u64,
}

fn run(args: Args) -> Result<(), String> {
    let ok = |x: f32, name: &str, max: f32| {
        if (0.0..=max).contains(&x) {
            Ok(())
        } else {
            Err(format!("--{name} must be in [0, {max}], got {x}"))
        }
    };
    ok(args.lambda, "lambda", 1.0)?;
    ok(args.explore, "explore", 0.99)?;
    if !(1..=ply_einstein::value::net::MAX_HIDDEN).contains(&args.hidden) {
        return Err(format!(
            "--hidden must be 1 to {}, got {}",
            ply_einstein::value::net::MAX_HIDDEN,
            args.hidden
        ));
    }
    if !(args.rate > 0.0 && args.rate_end > 0.0 && args.rate <= 1.0 && args.rate_end <= 1.0) {
        return Err(format!(
            "--rate and --rate-end must be in (0, 1], got {} and {}",
            args.rate, args.rate_end
        ));
    }
    let mut net = match args.from.as_deref() {
        None => ValueNet::new(args.hidden, &mut rng_from_seed(args.seed ^ 0x5EED)),
        Some("shipped") => (*shipped()).clone(),
        Some(path) => load(path).map_err(|e| e.to_string())?,
    };
    let config = TrainConfig {
        games: args.games,
        seed: args.seed,
        lambda: args.lambda,
        rate_start: args.rate,
        rate_end: args.rate_end,
        explore: args.explore,
    };
    let save = |net: &ValueNet| {
        std::fs::write(&args.out, net.to_bytes()).map_err(|e| format!("cannot write '{}': {e}", args.out))
    };
    save(&net)?;
    let started = Instant::now();
    let mut failure = None;
    train(&mut net, &config, args.report, |net, p| {
        eprintln!(
            "{:>10} games  loss {:.4}  td error {:.4}  {:.0} games/s",
            p.games,
            p.loss,
            p.td_error,
            p.games as f64 / started.elapsed().as_secs_f64()
        );
        if let Err(e) = save(net) {
            failure.get_or_insert(e);
        }
    });
    save(&net)?;
    failure.map_or(Ok(()), Err)
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("einstein-train: {e}");
            ExitCode::FAILURE
        }
    }
}

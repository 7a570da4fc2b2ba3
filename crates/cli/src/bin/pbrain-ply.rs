//! `pbrain-ply`: Ply's Gomoku engine as a Gomocup (Piskvork) brain on stdin/stdout
//! (docs/gomoku.md). The name must start with `pbrain-` for Gomocup managers.
//!
//! `pbrain-ply SPEC` plays the engine with the settings of an `alphabeta` spec, as `ply` takes
//! them (`pbrain-ply alphabeta:threatext=3`), so that a variant can be measured in a match
//! manager without a build of its own.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let config = match args.as_slice() {
        [] => ply_gomoku::EngineConfig::default(),
        [spec] => match ply_gomoku::engine_config_from_spec(spec) {
            Ok(config) => config,
            Err(e) => {
                eprintln!("pbrain-ply: {e}");
                return ExitCode::from(2);
            }
        },
        _ => {
            eprintln!(
                "usage: pbrain-ply [SPEC]   (SPEC: alphabeta or alphabeta:key=value,...; see `ply agents gomoku`)"
            );
            return ExitCode::from(2);
        }
    };
    // Not `stdin().lock()`: the input is read on a thread of its own, so STOP reaches a search.
    match ply_gomoku::gomocup::run(
        config,
        std::io::BufReader::new(std::io::stdin()),
        std::io::stdout().lock(),
    ) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pbrain-ply: {e}");
            ExitCode::FAILURE
        }
    }
}

//! EinStein würfelt nicht (docs/einstein.md): a 5×5 dice race with captures. The die says which
//! cube may move (or, if that cube is gone, its nearest neighbours in number); a cube steps
//! toward the opponent's corner and takes whatever stands there; reaching the corner or taking
//! every enemy cube wins.

mod agents;
mod notation;
mod race;
mod rules;
mod setup;
pub mod solve;
mod threat;
mod uct;
pub mod value;

pub use agents::{
    EinsteinAgent, EinsteinOrder, EinsteinPlayout, EinsteinRollout, PLAYOUT_NOISE, choose_setup,
};
pub use race::{RaceEval, expected_turns, race_win_probability};
pub use rules::{
    Action, BLUE, DIRECTION_NAMES, Einstein, GOAL, Options, Phase, RED, SETUP_SQUARES, SIDE_NAMES, SetupMode,
    movable_cubes,
};
pub use setup::{SETUPS, arrangement, rank};
pub use threat::QuiescentRaceEval;
pub use uct::{FinalRule, PatentUct, PatentUctConfig};

use ply_core::{AgentFactory, BenchCase, Error, GameDef, ParamInfo, Params};

impl GameDef for Einstein {
    const NAME: &'static str = "einstein";
    const ABOUT: &'static str = "EinStein würfelt nicht: 5x5, a die picks the cube, race to the far corner";

    fn options() -> Vec<ParamInfo> {
        vec![
            ParamInfo::new(
                "setup",
                "random",
                "arrangements: 'random' (drawn by chance) or 'choose' (each side picks)",
            ),
            ParamInfo::new(
                "first",
                "red",
                "who starts the first game: 'red' or 'blue' (games of a match alternate)",
            ),
            ParamInfo::new("match", 1, "games needed to win the match (first to N)"),
        ]
    }

    fn new_game(options: &Params) -> Result<Self, Error> {
        let setup = match options.get_choice("setup", &["random", "choose"])? {
            "random" => SetupMode::Random,
            _ => SetupMode::Choose,
        };
        let first = if options.get_choice("first", &["red", "blue"])? == "red" { RED } else { BLUE };
        Ok(Einstein::new(Options { setup, first, match_to: options.get_in("match", 1..=99)? }))
    }

    fn agents() -> Vec<AgentFactory<Self>> {
        agents::all()
    }

    fn bench_cases() -> Vec<BenchCase> {
        const OPENING: &str = "r1r2r3../r4r5.../r6...b6/...b5b4/..b3b2b1 red 3 0-0";
        const MIDDLE: &str = "r1.r3../..r5r2./r6..b6./.r4.b5b4/..b3.b1 blue 2 0-0";
        const LATE: &str = "....r3/...r5./..b6r6./.b5.../..... red 5 0-0";
        let mut cases = Vec::new();
        for position in [OPENING, MIDDLE, LATE] {
            cases.push(BenchCase { position, agent: "mcts", iterations: 100_000 });
            cases.push(BenchCase { position, agent: "uct", iterations: 20_000 });
            cases.push(BenchCase {
                position,
                agent: "expectimax:depth=5,eval=race,scale=rank",
                iterations: 50_000_000,
            });
            cases.push(BenchCase { position, agent: "expectimax:depth=4", iterations: 50_000_000 });
        }
        cases
    }

    fn bench_random_games() -> u64 {
        200_000
    }
}

//! Connect Four: 7 columns, 6 rows, two players drop stones in turn; four in a row
//! (horizontally, vertically or diagonally) wins, a full board is a draw.
//!
//! This crate is also the template for adding a game to Ply (docs/adding-a-game.md): rules in
//! `rules.rs` (the [`ply_core::Game`] implementation), text and JSON forms in `notation.rs`, a
//! heuristic in `eval.rs`, and here the [`ply_core::GameDef`] that names the game, its options
//! and its agents.

mod eval;
mod notation;
mod rules;

pub use eval::Connect4Eval;
pub use rules::{CENTRE_FIRST, Column, Connect4, HEIGHT, WIDTH};

use ply_core::{AgentFactory, BenchCase, Error, GameDef, ParamInfo, Params};
use ply_search::{GeneratedOrder, UniformRollout, factories};

fn weights_param() -> ParamInfo {
    ParamInfo::new("weights", Connect4Eval::DEFAULT_WEIGHTS, "evaluation weights: threat,centre")
}

impl GameDef for Connect4 {
    const NAME: &'static str = "connect4";
    const ABOUT: &'static str = "Connect Four on the 7x6 board: four in a row wins";

    fn options() -> Vec<ParamInfo> {
        Vec::new()
    }

    fn new_game(_options: &Params) -> Result<Self, Error> {
        Ok(Connect4::new())
    }

    fn agents() -> Vec<AgentFactory<Self>> {
        vec![
            factories::alphabeta(
                "alphabeta",
                "alpha-beta with iterative deepening, threat/centre evaluation, centre-first ordering",
                vec![weights_param()],
                |p| Ok((Connect4Eval::from_weights(&p.get_list("weights")?)?, GeneratedOrder)),
            ),
            factories::mcts("mcts", "UCT with random playouts", vec![weights_param()], |p| {
                Ok((Connect4Eval::from_weights(&p.get_list("weights")?)?, UniformRollout))
            }),
            factories::random(),
        ]
    }

    fn bench_cases() -> Vec<BenchCase> {
        const MIDGAME: &str = "......./......./...o.../..xx.../..ox.../..xoxo.";
        const LATE: &str = "......./......./......./....o../.xoox../.oxxox.";
        // Alpha-beta to a fixed depth: its node count changes whenever pruning or ordering does.
        let cap = 50_000_000;
        vec![
            BenchCase { position: "", agent: "alphabeta:depth=14", iterations: cap },
            BenchCase { position: MIDGAME, agent: "alphabeta:depth=14", iterations: cap },
            BenchCase { position: LATE, agent: "alphabeta:depth=14", iterations: cap },
            BenchCase { position: "", agent: "mcts", iterations: 20_000 },
            BenchCase { position: MIDGAME, agent: "mcts", iterations: 20_000 },
            BenchCase { position: LATE, agent: "mcts", iterations: 20_000 },
        ]
    }

    fn opening_plies(&self) -> usize {
        2
    }
}

//! The generic agents on Connect Four: alpha-beta equals plain minimax from random positions
//! (with undo, table and ordering), and both search agents find forced wins and blocks.

use ply_connect4::{Connect4, Connect4Eval};
use ply_core::rng::rng_from_seed;
use ply_core::{Agent, Budget, Game, GameDef, Limits, random_playout};
use ply_search::minimax::expectiminimax;
use ply_search::value::EvalScale;
use ply_search::{AlphaBeta, AlphaBetaConfig, GeneratedOrder};

fn random_positions(count: usize, seed: u64) -> Vec<Connect4> {
    let mut rng = rng_from_seed(seed);
    let mut positions = Vec::new();
    while positions.len() < count {
        let mut state = Connect4::new();
        let plies = 4 + positions.len() % 30;
        random_playout(&mut state, &mut rng, plies);
        if !state.is_over() {
            positions.push(state);
        }
    }
    positions
}

#[test]
fn alphabeta_equals_minimax_from_random_positions() {
    let mut search = AlphaBeta::new(AlphaBetaConfig::default(), Connect4Eval::default(), GeneratedOrder);
    let mut plain = AlphaBeta::new(
        AlphaBetaConfig { tt_bits: 0, killers: false, history: false, ..AlphaBetaConfig::default() },
        Connect4Eval::default(),
        GeneratedOrder,
    );
    for (i, state) in random_positions(120, 5).iter().enumerate() {
        let root = state.current_player().unwrap();
        for depth in 1..=4 {
            let expected = expectiminimax(state, depth, root, &Connect4Eval::default(), EvalScale::Rank);
            for searcher in [&mut search, &mut plain] {
                let got = searcher.value_at_depth(state, depth, root);
                assert!(
                    (got - expected).abs() < 1e-9,
                    "position {i} ({}) depth {depth}: {got} vs {expected}",
                    state.to_text()
                );
            }
        }
    }
}

fn best(spec: &str, position: &str) -> String {
    let state = Connect4::new().parse_state(position).unwrap();
    let mut agent = Connect4::build_agent(&ply_core::AgentSpec::parse(spec).unwrap(), 1).unwrap().agent;
    let d = agent.choose(&state, &Limits::new(Budget::iterations(20_000)), &mut |_| {});
    state.action_to_text(d.action)
}

#[test]
fn agents_take_wins_and_block_losses() {
    // x to move wins in column 4 (horizontal).
    let win = "......./......./......./......./......./xxx.oo.";
    // o has three on top of each other in column 4: x must block there.
    let block = "......./......./......./...o.../...o.../xx.o..x";
    for agent in ["alphabeta", "mcts"] {
        assert_eq!(best(agent, win), "4", "{agent} takes the win");
        assert_eq!(best(agent, block), "4", "{agent} blocks");
    }
}

#[test]
fn alphabeta_proves_a_forced_win() {
    // x to move: column 2 makes three in a row open at both ends.
    let state = Connect4::new().parse_state("......./......./......./......./......./..xx.oo").unwrap();
    let mut agent = AlphaBeta::new(AlphaBetaConfig::default(), Connect4Eval::default(), GeneratedOrder);
    let d = agent.choose(&state, &Limits::new(Budget::iterations(200_000)), &mut |_| {});
    assert_eq!(state.action_to_text(d.action), "2");
    assert!(d.info.proven.is_some_and(|p| p > 0), "{:?}", d.info);
}

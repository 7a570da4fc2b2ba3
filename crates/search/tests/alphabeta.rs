//! Alpha-beta (with its table, killers, history and Star1 chance pruning) must give exactly the
//! value of plain expectiminimax, on random trees with chance, several players and multi-action
//! turns.

mod common;

use common::{Gamble, RandomTree, TakeAway, gamble_eval, random_eval};
use ply_core::{Agent, Budget, Game, Limits};
use ply_search::minimax::{expectiminimax, expectiminimax_in};
use ply_search::value::{DISCOUNT, DepthUnit, EvalScale};
use ply_search::{AlphaBeta, AlphaBetaConfig, GeneratedOrder, NeutralEval};

fn configs() -> Vec<AlphaBetaConfig> {
    let base = AlphaBetaConfig {
        max_depth: 64,
        depth_unit: DepthUnit::Actions,
        tt_bits: 12,
        killers: true,
        history: true,
        eval_scale: EvalScale::Rank,
    };
    vec![
        base.clone(),
        AlphaBetaConfig { tt_bits: 0, ..base.clone() },
        AlphaBetaConfig { killers: false, history: false, ..base.clone() },
        // A tiny table: constant replacement and collisions of slots.
        AlphaBetaConfig { tt_bits: 2, ..base.clone() },
        // Heuristic leaves on the scale of results: Star1's bounds are then tight, and cut.
        AlphaBetaConfig { eval_scale: EvalScale::Expected, ..base.clone() },
        AlphaBetaConfig { eval_scale: EvalScale::Expected, tt_bits: 0, ..base },
    ]
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs()))
}

#[test]
fn equals_expectiminimax_on_random_trees() {
    let mut checked = 0;
    for seed in 0..150u64 {
        for players in [2, 3] {
            for with_chance in [false, true] {
                let game = RandomTree::new(seed, players, 9, with_chance);
                let Some(root) = game.current_player() else { continue };
                for config in configs() {
                    // One searcher across depths: its table carries entries between searches.
                    let mut search = AlphaBeta::new(config.clone(), random_eval, GeneratedOrder);
                    for depth in 1..=6 {
                        let expected = expectiminimax(&game, depth, root, &random_eval, config.eval_scale);
                        let got = search.value_at_depth(&game, depth, root);
                        assert!(
                            close(got, expected),
                            "seed {seed} players {players} chance {with_chance} depth {depth} {config:?}: \
                             alpha-beta {got}, minimax {expected}"
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 5000, "only {checked} comparisons");
}

/// Depth in whole turns: the decisions within a turn are free and no half-made turn is judged.
/// The same state can then be reached with different depths left, so the table (which may use a
/// deeper result) is off here.
#[test]
fn counting_whole_turns_equals_expectiminimax_in_turns() {
    let mut checked = 0;
    let mut differs = 0;
    for seed in 0..150u64 {
        for players in [2, 3] {
            for with_chance in [false, true] {
                let game = RandomTree::new(seed, players, 9, with_chance);
                let Some(root) = game.current_player() else { continue };
                for eval_scale in [EvalScale::Rank, EvalScale::Expected] {
                    let config = AlphaBetaConfig {
                        depth_unit: DepthUnit::Turns,
                        tt_bits: 0,
                        eval_scale,
                        ..AlphaBetaConfig::default()
                    };
                    let mut search = AlphaBeta::new(config, random_eval, GeneratedOrder);
                    for depth in 1..=4 {
                        let expected =
                            expectiminimax_in(&game, depth, DepthUnit::Turns, root, &random_eval, eval_scale);
                        let got = search.value_at_depth(&game, depth, root);
                        assert!(
                            close(got, expected),
                            "seed {seed} players {players} depth {depth}: {got} vs {expected}"
                        );
                        let by_actions = expectiminimax(&game, depth, root, &random_eval, eval_scale);
                        differs += usize::from(!close(expected, by_actions));
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} comparisons");
    assert!(
        differs > checked / 10,
        "turns and actions differ often enough to test anything: {differs} of {checked}"
    );
}

#[test]
fn expected_scale_weighs_a_chance_of_losing_by_its_probability() {
    // On the rank scale the one-in-six loss outweighs any evaluation, and the search plays safe;
    // on the expected scale it takes the risk that wins more often.
    for (scale, wanted) in [(EvalScale::Rank, 0), (EvalScale::Expected, 1)] {
        let config = AlphaBetaConfig { max_depth: 2, eval_scale: scale, ..AlphaBetaConfig::default() };
        let mut agent = AlphaBeta::new(config, gamble_eval, GeneratedOrder);
        let decision = agent.choose(&Gamble::Start, &Limits::default(), &mut |_| {});
        assert_eq!(decision.action, wanted, "{scale:?}");
        let value = expectiminimax(&Gamble::Start, 2, 0, &gamble_eval, scale);
        assert!(close(agent.value_at_depth(&Gamble::Start, 2, 0), value));
    }
}

#[test]
fn chosen_move_has_the_minimax_value() {
    for seed in 0..100u64 {
        let game = RandomTree::new(seed, 2, 10, seed % 2 == 0);
        let Some(root) = game.current_player() else { continue };
        let actions = game.actions();
        if actions.len() < 2 {
            continue;
        }
        let depth = 5;
        let config = AlphaBetaConfig { max_depth: depth, ..AlphaBetaConfig::default() };
        let mut agent = AlphaBeta::new(config, random_eval, GeneratedOrder);
        let decision = agent.choose(&game, &Limits::default(), &mut |_| {});
        let value_of = |a: u8| {
            let mut child = game.clone();
            child.apply(a);
            DISCOUNT * expectiminimax(&child, depth - 1, root, &random_eval, EvalScale::Rank)
        };
        let best = actions.iter().map(|&a| value_of(a)).fold(f64::NEG_INFINITY, f64::max);
        let stopped_early = decision.info.proven.is_some() && decision.info.depth < depth;
        if !stopped_early {
            assert!(
                close(value_of(decision.action), best),
                "seed {seed}: chose a move worth less than the best"
            );
        }
    }
}

#[test]
fn node_budget_is_deterministic_and_respected() {
    let game = RandomTree::new(5, 2, 30, true);
    let run = || {
        let mut agent = AlphaBeta::new(AlphaBetaConfig::default(), random_eval, GeneratedOrder);
        let d = agent.choose(&game, &Limits::new(Budget::iterations(3000)), &mut |_| {});
        (d.action, d.info.iterations, d.info.depth)
    };
    let first = run();
    assert_eq!(first, run());
    // The search stops on the node that reaches the budget: the tree is far bigger, so a search
    // that ended below it would not have been stopped by it.
    assert_eq!(first.1, 3000, "searched {} nodes", first.1);
}

#[test]
fn solves_take_away() {
    for stones in [5u8, 6, 7, 9, 10, 11, 13] {
        let game = TakeAway { stones, player: 0, last: 0 };
        let mut agent = AlphaBeta::new(AlphaBetaConfig::default(), NeutralEval, GeneratedOrder);
        let d = agent.choose(&game, &Limits::default(), &mut |_| {});
        assert_eq!(d.action, stones % 4, "from {stones} stones");
        assert!(d.info.proven.is_some_and(|p| p > 0), "a forced win is proven: {:?}", d.info);
    }
    // A lost position is proven lost, and the loss put off as long as possible.
    let game = TakeAway { stones: 8, player: 0, last: 0 };
    let mut agent = AlphaBeta::new(AlphaBetaConfig::default(), NeutralEval, GeneratedOrder);
    let d = agent.choose(&game, &Limits::default(), &mut |_| {});
    assert_eq!(d.info.proven, Some(-4));
}

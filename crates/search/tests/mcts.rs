mod common;

use common::{Endless, RandomTree, TakeAway, WideTake, random_eval};
use ply_core::{Agent, Budget, Game, Limits, Params};
use ply_search::factories::{mcts_config, mcts_params};
use ply_search::{
    FinalChoice, Ismcts, IsmctsConfig, Mcts, MctsConfig, NeutralEval, UniformRollout, Widening,
};

fn limits(iterations: u64) -> Limits {
    Limits::new(Budget::iterations(iterations))
}

#[test]
fn converges_to_the_winning_move() {
    for stones in [5u8, 6, 7, 9, 10, 11] {
        let game = TakeAway { stones, player: 0, last: 0 };
        let mut agent = Mcts::new(MctsConfig::default(), NeutralEval, UniformRollout, stones as u64);
        let d = agent.choose(&game, &limits(20_000), &mut |_| {});
        assert_eq!(d.action, stones % 4, "from {stones} stones: {:?}", d.info);
        assert!(d.info.value.unwrap() > 0.5, "the win is recognised: {:?}", d.info);
    }
}

#[test]
fn same_seed_same_search_and_threads_merge() {
    let game = (0..)
        .map(|seed| RandomTree::new(seed, 3, 12, true))
        .find(|g| g.current_player().is_some() && g.actions().len() > 1)
        .unwrap();
    for threads in [1, 3] {
        let config = MctsConfig { threads, ..MctsConfig::default() };
        let run = |seed| {
            let mut agent = Mcts::new(config.clone(), random_eval, UniformRollout, seed);
            let d = agent.choose(&game, &limits(3000), &mut |_| {});
            (d.action, d.info.iterations, d.info.pv.clone(), d.info.value.map(f64::to_bits))
        };
        let first = run(1);
        assert_eq!(first, run(1));
        assert_eq!(first.1, 3000, "the iteration budget is split exactly over {threads} threads");
        assert!(game.actions().contains(&first.0));
    }
}

#[test]
fn tree_reuse_finds_the_new_root_and_keeps_playing_legally() {
    // After a long search, the position a move and the expected reply later was explored deeply.
    // Asked there for one more iteration, a reusing agent answers from that subtree, a line of
    // several moves; a fresh tree after one iteration knows at most one.
    let start = TakeAway { stones: 21, player: 0, last: 0 };
    let config = MctsConfig { final_choice: FinalChoice::MostVisits, ..MctsConfig::default() };
    let mut depths = Vec::new();
    for reuse in [true, false] {
        let mut agent = Mcts::new(MctsConfig { reuse, ..config.clone() }, NeutralEval, UniformRollout, 1);
        let first = agent.choose(&start, &limits(20_000), &mut |_| {});
        assert!(first.info.pv.len() >= 2, "{:?}", first.info);
        let mut game = start.clone();
        game.apply(first.action);
        game.apply(first.info.pv[1]);
        let again = agent.choose(&game, &limits(1), &mut |_| {});
        assert!(game.is_legal(again.action));
        depths.push(again.info.depth);
    }
    let [reused, fresh] = depths[..] else { unreachable!() };
    assert!(reused >= 4 && fresh <= 1, "a line of {reused} from the kept tree, {fresh} from a new one");

    // Whole games, one side reusing and the other not: every move legal.
    let mut game = start;
    let mut agents = [
        Mcts::new(config.clone(), NeutralEval, UniformRollout, 1),
        Mcts::new(MctsConfig { reuse: false, ..config }, NeutralEval, UniformRollout, 2),
    ];
    while !game.is_over() {
        let p = game.current_player().unwrap();
        let d = agents[p].choose(&game, &limits(2000), &mut |_| {});
        assert!(game.is_legal(d.action));
        game.apply(d.action);
    }
}

#[test]
fn playout_cut_off_uses_the_evaluator() {
    // Playouts cut at once score only by the evaluator, which favours player 0 everywhere, and
    // no game ends within reach of the tree: the root value must be the evaluator's.
    let game = TakeAway { stones: 60, player: 0, last: 0 };
    let config = MctsConfig { rollout_limit: Some(0), ..MctsConfig::default() };
    let favour_first = |_: &TakeAway, p: usize| if p == 0 { 0.8 } else { -0.8 };
    let mut agent = Mcts::new(config, favour_first, UniformRollout, 0);
    let d = agent.choose(&game, &limits(500), &mut |_| {});
    assert!((d.info.value.unwrap() - 0.8).abs() < 1e-9, "{:?}", d.info);
}

#[test]
fn evaluator_priors_steer_a_short_search() {
    // 61 stones: only taking 1 leaves a multiple of 4. An evaluator that knows this, given as
    // 1000 virtual visits per new move, decides a 30-playout search whose random playouts
    // from so far away say nothing.
    let game = TakeAway { stones: 61, player: 0, last: 0 };
    let knows_the_rule = |s: &TakeAway, p: usize| {
        if s.stones.is_multiple_of(4) == (s.last as usize == p) { 1.0 } else { -1.0 }
    };
    for seed in 0..5 {
        let config = MctsConfig { prior_visits: 1000, ..MctsConfig::default() };
        let mut agent = Mcts::new(config, knows_the_rule, UniformRollout, seed);
        let d = agent.choose(&game, &limits(30), &mut |_| {});
        assert_eq!(d.action, 1, "seed {seed}: {:?}", d.info);
        assert_eq!(d.info.iterations, 30, "virtual visits are not playouts");
    }
}

#[test]
fn leaf_mix_blends_the_evaluator_into_playouts() {
    // Random playouts from 60 stones give about even results; an evaluator that favours player
    // 0 (0.8 on the -1..1 scale, 0.9 as a score) moves the root value by the mixed-in share.
    let game = TakeAway { stones: 60, player: 0, last: 0 };
    let favour_first = |_: &TakeAway, p: usize| if p == 0 { 0.8 } else { -0.8 };
    let value = |leaf_mix| {
        let config = MctsConfig { leaf_mix, ..MctsConfig::default() };
        let mut agent = Mcts::new(config, favour_first, UniformRollout, 0);
        agent.choose(&game, &limits(4000), &mut |_| {}).info.value.unwrap()
    };
    assert!((value(1.0) - 0.8).abs() < 1e-9);
    let (none, half) = (value(0.0), value(0.5));
    assert!(none.abs() < 0.15, "{none}");
    assert!((half - (0.5 * none + 0.4)).abs() < 0.1, "{half} vs {none}");
}

#[test]
fn a_node_limit_of_one_still_expands_the_root() {
    // Found by fuzzing (`mcts:nodes=1`): the root alone filled the tree, was never expanded, and
    // choosing a move panicked for want of children.
    let game = TakeAway { stones: 9, player: 0, last: 0 };
    for (threads, reuse) in [(1, true), (2, false)] {
        let config = MctsConfig { max_nodes: 1, threads, reuse, ..MctsConfig::default() };
        let mut agent = Mcts::new(config, NeutralEval, UniformRollout, 3);
        for _ in 0..2 {
            let d = agent.choose(&game, &limits(50), &mut |_| {});
            assert!(game.actions().contains(&d.action));
        }
    }
}

/// With more than two players an unfinished leaf is worth a share of the result that sums to 1
/// with the others', like a finished game's: an even leaf gives each of n players 1/n, not 1/2.
#[test]
fn leaf_values_and_reported_scores_sum_to_one_for_any_number_of_players() {
    for players in [2usize, 3, 5] {
        let game = Endless { players, moves: 0 };
        // Playouts cut at once: every leaf is the evaluator's.
        let config = MctsConfig { rollout_limit: Some(0), ..MctsConfig::default() };
        let mut agent = Mcts::new(config, NeutralEval, UniformRollout, 3);
        let d = agent.choose(&game, &limits(2000), &mut |_| {});
        assert_eq!(d.info.scores.len(), players, "{:?}", d.info);
        let sum: f64 = d.info.scores.iter().sum();
        assert!((sum - 1.0).abs() < 1e-9, "{players} players: scores {:?} sum to {sum}", d.info.scores);
        for share in &d.info.scores {
            assert!((share - 1.0 / players as f64).abs() < 1e-9, "an even leaf: {:?}", d.info.scores);
        }
        let mover_mean = (d.info.value.unwrap() + 1.0) / 2.0;
        assert!((mover_mean - 1.0 / players as f64).abs() < 1e-9, "the chosen move's mean: {mover_mean}");
    }
}

#[test]
fn widening_still_finds_a_forced_win_among_many_moves() {
    // Up to 20 stones a move: from n stones, taking n mod 21 leaves the opponent a lost 21. The
    // root has 20 moves and so has every reply; widening opens them a few at a time. (The
    // narrowest schedule, sqrt(n), needs more playouts here: the refuting replies wait longer.)
    for (stones, widening) in [(30u8, (2.0, 0.5)), (35, (4.0, 0.5)), (40, (1.0, 0.7))] {
        let game = WideTake { stones, max: 20, player: 0, last: 0 };
        let (base, exponent) = widening;
        let config = MctsConfig { widening: Some(Widening { base, exponent }), ..MctsConfig::default() };
        for seed in 0..3 {
            let mut agent = Mcts::new(config.clone(), NeutralEval, UniformRollout, seed);
            let d = agent.choose(&game, &limits(20_000), &mut |_| {});
            assert_eq!(d.action, stones % 21, "{stones} stones, {widening:?}, seed {seed}: {:?}", d.info);
            assert!(d.info.value.unwrap() > 0.5, "the win is recognised: {:?}", d.info);
        }
    }
}

#[test]
fn widening_ismcts_finds_the_forced_win_too() {
    let game = WideTake { stones: 30, max: 20, player: 0, last: 0 };
    let widening = Some(Widening { base: 2.0, exponent: 0.5 });
    for seed in 0..3 {
        let mut agent =
            Ismcts::new(IsmctsConfig { widening, ..IsmctsConfig::default() }, UniformRollout, seed);
        let d = agent.choose(&game, &limits(20_000), &mut |_| {});
        assert_eq!(d.action, 9, "seed {seed}: {:?}", d.info);
    }
}

#[test]
fn widening_is_off_unless_a_spec_asks_for_it() {
    let config = |spec: &str| mcts_config(&Params::parse("mcts", mcts_params::<TakeAway>(), spec)?);
    assert_eq!(config("").unwrap().widening, None);
    assert_eq!(config("widen=0").unwrap().widening, None);
    assert_eq!(config("widen=2").unwrap().widening, Some(Widening { base: 2.0, exponent: 0.5 }));
    assert_eq!(
        config("widen=1.5,widen_exp=0.25").unwrap().widening,
        Some(Widening { base: 1.5, exponent: 0.25 })
    );
    assert!(config("widen=-1").is_err() && config("widen=1,widen_exp=2").is_err());
}

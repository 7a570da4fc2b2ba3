//! Risk's own players: every agent returns a legal action wherever it is asked, on every rule
//! set; the planner's outlook is a share of the wins; and each beats the one below it.

use ply_core::rng::rng_from_seed;
use ply_core::{AgentSpec, Budget, Game, GameDef, Limits, Turn};
use ply_risk::planner::Outlook;
use ply_risk::{Phase, Risk};

fn game(options: &str) -> Risk {
    Risk::new_from_text_options(options).unwrap_or_else(|e| panic!("{options}: {e}"))
}

/// Plays a game with `spec` in every seat (chance drawn from `seed`), checking each choice.
fn play_through(options: &str, spec: &str, seed: u64, iterations: u64) -> Risk {
    let mut state = game(options);
    let mut agents: Vec<_> = (0..state.num_players())
        .map(|seat| Risk::build_agent(&AgentSpec::parse(spec).unwrap(), seed + seat as u64).unwrap().agent)
        .collect();
    let mut rng = rng_from_seed(seed);
    let limits = Limits::new(Budget { iterations: Some(iterations), time: None });
    while !state.is_over() {
        match state.turn() {
            Turn::Chance => state.apply(state.sample_chance(&mut rng)),
            Turn::Player(p) => {
                let seen = state.resample_hidden(p, &mut rng);
                let action = agents[p].choose(&seen, &limits, &mut |_| {}).action;
                assert!(
                    state.is_legal(action),
                    "{spec} chose {} in {}",
                    state.action_to_text(action),
                    state.to_text()
                );
                state.apply(action);
            }
            Turn::Over => unreachable!(),
        }
    }
    state
}

#[test]
fn every_agent_plays_legal_actions_on_every_rule_set() {
    for (options, spec) in [
        ("players=2,max_rounds=30", "planner"),
        ("players=3,max_rounds=15", "planner:depth=2,breadth=3"),
        ("players=6,max_rounds=10", "planner"),
        ("players=3,rules=document,max_rounds=15", "planner"),
        ("players=2,neutral=true,setup=pick,max_rounds=15", "planner"),
        ("players=4,fortify=connected,cards=fixed,max_rounds=10", "planner"),
        ("players=3,max_rounds=10", "greedy"),
        ("players=2,max_rounds=4", "mcts"),
    ] {
        let end = play_through(options, spec, 5, 60);
        assert_eq!(end.phase(), Phase::Over, "{options} {spec}");
        let sum: f64 = end.returns().as_slice().iter().sum();
        assert!((sum - 1.0).abs() < 1e-9, "{options}: returns sum to {sum}");
    }
}

#[test]
fn the_outlook_is_a_share_of_the_wins() {
    let mut state = game("players=4");
    let mut rng = rng_from_seed(9);
    ply_core::random_playout(&mut state, &mut rng, 400);
    let outlook = Outlook::default();
    let shares: Vec<f64> = (0..4).map(|p| outlook.share(&state, p)).collect();
    assert!((shares.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{shares:?}");
    assert!(shares.iter().all(|&s| (0.0..=1.0).contains(&s)), "{shares:?}");
}

#[test]
fn the_planner_beats_greedy_and_greedy_beats_random() {
    // Fixed seeds: a handful of two-player games each way, well inside what the arena measures
    // (planner about 70% against greedy, greedy all but every game against random).
    let mut planner_wins = 0.0;
    let mut greedy_wins = 0.0;
    for seed in 0..6u64 {
        for first in 0..2 {
            let specs = if first == 0 { ["planner", "greedy"] } else { ["greedy", "planner"] };
            planner_wins += duel("players=2,max_rounds=60", specs, seed).get(first);
            let specs = if first == 0 { ["greedy", "random"] } else { ["random", "greedy"] };
            greedy_wins += duel("players=2,max_rounds=60", specs, seed).get(first);
        }
    }
    assert!(planner_wins >= 7.0, "planner scored {planner_wins} of 12 against greedy");
    assert!(greedy_wins >= 11.0, "greedy scored {greedy_wins} of 12 against random");
}

fn duel(options: &str, specs: [&str; 2], seed: u64) -> ply_core::Returns {
    let mut state = game(options);
    let mut agents: Vec<_> = specs
        .iter()
        .enumerate()
        .map(|(i, s)| Risk::build_agent(&AgentSpec::parse(s).unwrap(), seed * 2 + i as u64).unwrap().agent)
        .collect();
    let mut rng = rng_from_seed(seed);
    let limits = Limits::new(Budget { iterations: Some(100), time: None });
    while !state.is_over() {
        match state.turn() {
            Turn::Chance => state.apply(state.sample_chance(&mut rng)),
            Turn::Player(p) => {
                let seen = state.resample_hidden(p, &mut rng);
                let action = agents[p].choose(&seen, &limits, &mut |_| {}).action;
                state.apply(action);
            }
            Turn::Over => unreachable!(),
        }
    }
    state.returns()
}

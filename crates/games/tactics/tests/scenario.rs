//! The document's scenario AI: the evaluation's terms on positions worked by hand, every strategy
//! and every mutation writing legal whole turns, every level and personality playing legal games,
//! runs on an iteration budget replaying exactly, and bad parameters refused.

mod common;

use common::{game, open, pos};
use ply_core::rng::rng_from_seed;
use ply_core::{Agent, AgentSpec, Budget, Game, GameDef, Limits, Turn};
use ply_tactics::scenario::search::{Scenario, Search};
use ply_tactics::scenario::strategies::{Context, generate};
use ply_tactics::scenario::{Config, Personality, Switches, Weights, evaluate};
use ply_tactics::{Tactics, TacticsAction};
use proptest::prelude::*;
use rand::RngExt;

fn only(f: impl FnOnce(&mut Switches)) -> Switches {
    let mut s = Switches::level(10);
    f(&mut s);
    s
}

#[test]
fn material_follows_the_documents_values_and_wounded_formula() {
    let state = pos(&open(10), "Fa1:100 Ab1:30 Wc1:40", "Fj10:50 Aj9:60", 0);
    let t = evaluate(&state, 0, 0, &Weights::hand_set(), &Switches::level(10));
    assert_eq!(t.ours, 100_000.0 + 70_000.0 * (0.5 + 0.5 * 30.0 / 60.0) + 85_000.0);
    assert_eq!(t.theirs, 75_000.0 + 70_000.0);
    let w = Weights::hand_set();
    assert_eq!(t.score(&w, false), t.ours - t.theirs);
    assert_eq!(t.score(&w, true), t.ours / t.theirs);
}

#[test]
fn the_threat_is_the_value_the_enemy_can_take_next_turn() {
    // Their fighter can reach our archer (60 hit points): a 50-point hit takes 70000 * 50 / 120.
    let state = pos(&open(12), "Ad8:60", "Fh8:100", 0);
    let t = evaluate(&state, 0, 0, &Weights::hand_set(), &only(|s| s.threat = true));
    assert!((t.threat - 70_000.0 * 50.0 / 120.0).abs() < 1e-6, "{t:?}");
    // Our archer can shoot their fighter from a cell in line: 25 of 100 is 100000 * 25 / 200.
    assert!((t.threatened - 100_000.0 * 25.0 / 200.0).abs() < 1e-6, "{t:?}");
    let w = Weights::hand_set();
    assert!((t.ours_total(&w) - (t.ours - 0.2 * t.threat + 0.1 * t.threatened)).abs() < 1e-6);
}

#[test]
fn bait_rewards_one_exposed_survivor_and_two_punishers() {
    let on = only(|s| s.bait = true);
    // Only the archer on d8 can be hit, only by the fighter, and it survives (60 > 50); the
    // archers on c1 and a8 cover e8, the one cell the fighter would strike from.
    let state = pos(&open(12), "Ad8:60 Ac1:60 Aa8:60", "Fh8:100", 0);
    assert_eq!(evaluate(&state, 0, 0, &Weights::hand_set(), &on).bait_punishers, 2);
    let w = Weights::hand_set();
    let t = evaluate(&state, 0, 0, &w, &on);
    assert_eq!(t.ours_total(&w) - t.ours, 2.0 * w.bait);
    // The bait would die: no bait.
    let state = pos(&open(12), "Ad8:40 Ac1:60 Aa8:60", "Fh8:100", 0);
    assert_eq!(evaluate(&state, 0, 0, &w, &on).bait_punishers, 0);
    // One punisher is not enough.
    let state = pos(&open(12), "Ad8:60 Ac1:60", "Fh8:100", 0);
    assert_eq!(evaluate(&state, 0, 0, &w, &on).bait_punishers, 0);
    // Two units exposed: no bait.
    let state = pos(&open(12), "Ad8:60 Ac1:60 Aa8:60 Ff9:100", "Fh8:100", 0);
    assert_eq!(evaluate(&state, 0, 0, &w, &on).bait_punishers, 0);
}

#[test]
fn engagement_follows_the_documents_numbers() {
    let on = only(|s| s.engagement = true);
    let w = Weights::hand_set();
    // The fighter on h8 can strike the archer on d8 from e8 only: N = 1.
    // The archer attacked this turn (+1500); the fighter on a1 can punish nothing (-1000).
    let state = pos(&open(12), "Ad8:60 Fa1:100", "Fh8:100", 0);
    let t = evaluate(&state, 0, 0b01, &w, &on);
    assert_eq!(t.firing_positions, 1);
    assert_eq!(t.engagement, 1500.0 - 1000.0);
    // From c10 the fighter reaches e9 and covers e8: n = N, +1200.
    let state = pos(&open(12), "Ad8:60 Fc10:100", "Fh8:100", 0);
    assert_eq!(evaluate(&state, 0, 0b01, &w, &on).engagement, 1500.0 + 1200.0);
    // Losing (material 145000 against 300000), the wounded fighter that hides pays double.
    let state = pos(&open(12), "Ad8:60 Fa1:50", "Fh8:100 Fl12:100 Fl11:100", 0);
    assert_eq!(evaluate(&state, 0, 0b01, &w, &on).engagement, 1500.0 - 2000.0);
    // Unhurt, it pays the plain penalty even when losing.
    let state = pos(&open(12), "Ad8:60 Fa1:100", "Fh8:100 Fl12:100 Fl11:100", 0);
    assert_eq!(evaluate(&state, 0, 0b01, &w, &on).engagement, 1500.0 - 1000.0);
}

/// The trial forms of step 12 (`engagement=`; docs/tactics.md, "The upper levels"), on the
/// position above where the document's form gives +1500 + 1200.
#[test]
fn engagement_forms_count_what_they_say() {
    use ply_tactics::scenario::EngagementForm;
    let on = only(|s| s.engagement = true);
    let form = |engagement_form| Weights { engagement_form, ..Weights::hand_set() };
    let state = pos(&open(12), "Ad8:60 Fc10:100", "Fh8:100", 0);
    // Exchange: from e8 the enemy fighter's blow takes 29167 of the archer's value, ours on it
    // 25000 — the exchange is theirs, so the fighter on c10 counts n = 0.
    assert_eq!(evaluate(&state, 0, 0b01, &form(EngagementForm::Exchange), &on).engagement, 1500.0 - 1000.0);
    // Balance: material 170000 against 100000 scales the document's points by 1.7.
    let t = evaluate(&state, 0, 0b01, &form(EngagementForm::Balance), &on);
    assert!((t.engagement - 2700.0 * 1.7).abs() < 1e-6, "{}", t.engagement);
    // Reply (the enemy to move): max_agro's fighter kills the 40-hp archer from e8, so the
    // archer's attack earns nothing; the fighter on c10 covers e8, the one cell fired from.
    let state = pos(&open(12), "Ad8:40 Fc10:100", "Fh8:100", 1);
    assert_eq!(evaluate(&state, 0, 0b01, &form(EngagementForm::Reply), &on).engagement, 1200.0);
    assert_eq!(evaluate(&state, 0, 0b01, &Weights::hand_set(), &on).engagement, 1500.0 + 1200.0);
}

#[test]
fn cohesion_penalises_spread_edges_and_distance() {
    let on = only(|s| s.cohesion = true);
    let w = Weights::hand_set();
    let close = pos(&open(12), "Fe5:100 Ff5:100", "Fh8:100", 0);
    let apart = pos(&open(12), "Fa1:100 Fl1:100", "Fh8:100", 0);
    let c = evaluate(&close, 0, 0, &w, &on).cohesion;
    let a = evaluate(&apart, 0, 0, &w, &on).cohesion;
    assert!(c < 0.0 && a < c, "close {c}, apart {a}");
}

/// Positions along random games: the start of a turn and the middle of one.
fn positions(seed: u64) -> Vec<Tactics> {
    let options =
        ["max_turns=30", "size=8,max_turns=30", "size=13,handicap=1,max_turns=30"][seed as usize % 3];
    let mut state = game(&format!("{options},map_seed={seed}"));
    let mut rng = rng_from_seed(seed);
    let mut out = Vec::new();
    for i in 0..120 {
        if state.turn() != Turn::Player(state.player()) {
            break;
        }
        if i % 7 == 3 {
            out.push(state.clone());
        }
        let legal = state.actions();
        state.apply(legal[rng.random_range(0..legal.len())]);
    }
    out
}

/// Plays `scenario` from `state` with the checked rules: every act legal, the turn over at the
/// end (or the game).
fn assert_whole_legal_turn(state: &Tactics, scenario: &Scenario) {
    let mut s = state.clone();
    for step in &scenario.steps {
        if s.is_over() {
            break;
        }
        if !s.unit(step.slot as usize).alive() {
            continue;
        }
        let action: TacticsAction = step.action(&s);
        s.play(action).unwrap_or_else(|e| panic!("{:?}: {e} in {}", scenario.origin, state.to_text()));
    }
    assert!(s.is_over() || s.player() != state.player(), "{:?} left the turn unfinished", scenario.origin);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn every_strategy_and_mutation_writes_legal_whole_turns(seed in 0u64..10_000) {
        let config = Config::default();
        for state in positions(seed) {
            let mut search = Search::new(&config, &state, rng_from_seed(seed));
            let population = search.generate();
            prop_assert_eq!(population.len(), config.strategies().len() - usize::from(
                !population.iter().any(|s| s.origin == ply_tactics::scenario::Strategy::SorcererClear)));
            for scenario in &population {
                prop_assert_eq!(scenario.steps.len(), state.to_act().count());
                assert_whole_legal_turn(&state, scenario);
                for _ in 0..4 {
                    let child = search.mutate(scenario);
                    prop_assert_eq!(child.steps.len(), scenario.steps.len());
                    assert_whole_legal_turn(&state, &child);
                }
            }
        }
    }
}

#[test]
fn the_generator_is_deterministic_for_a_seed() {
    let state = positions(7).pop().unwrap();
    let mut ctx = Context::new(&state);
    let strategy = ply_tactics::scenario::Strategy::Random;
    let a = generate(strategy, &state, &mut ctx, &mut rng_from_seed(3)).unwrap().0;
    let b = generate(strategy, &state, &mut ctx, &mut rng_from_seed(3)).unwrap().0;
    assert_eq!(a, b);
}

fn agent(spec: &str, seed: u64) -> Box<dyn Agent<Tactics>> {
    Tactics::build_agent(&AgentSpec::parse(spec).unwrap(), seed)
        .unwrap_or_else(|e| panic!("{spec}: {e}"))
        .agent
}

/// A game between two agents on an iteration budget per decision; every choice checked.
fn play_game(start: &Tactics, agents: &mut [Box<dyn Agent<Tactics>>; 2], iters: u64) -> Vec<TacticsAction> {
    let mut state = start.clone();
    let mut rng = rng_from_seed(1);
    let mut actions = Vec::new();
    let limits = Limits::new(Budget::iterations(iters));
    loop {
        match state.turn() {
            Turn::Over => return actions,
            Turn::Chance => state.apply(state.sample_chance(&mut rng)),
            Turn::Player(p) => {
                let action = agents[p].choose(&state, &limits, &mut |_| {}).action;
                state.play(action).unwrap_or_else(|e| panic!("{e} in {}", state.to_text()));
                actions.push(action);
            }
        }
    }
}

#[test]
fn every_level_and_personality_plays_legal_games() {
    let start = game("map_seed=11,max_turns=3");
    for level in (0..=140).step_by(10) {
        for personality in ["cyborg", "orc", "zombie"] {
            let spec = format!("scenario:level={level},personality={personality}");
            let mut agents = [agent(&spec, level), agent("max_agro", 0)];
            play_game(&start, &mut agents, 40);
            let mut agents = [agent("random", 0), agent(&spec, level)];
            play_game(&start, &mut agents, 40);
        }
    }
}

#[test]
fn the_baselines_play_legal_games() {
    let start = game("map_seed=12,max_turns=2");
    let mut agents = [agent("oep:population=10", 1), agent("mcts", 2)];
    play_game(&start, &mut agents, 60);
}

#[test]
fn an_iteration_budget_replays_exactly() {
    let start = game("map_seed=13,max_turns=4");
    let run = || {
        let mut agents = [agent("scenario", 5), agent("scenario:level=90", 6)];
        play_game(&start, &mut agents, 150)
    };
    assert_eq!(run(), run());
}

/// The default evaluation is the tuned one (docs/tactics.md, "Tuning"): the default agent plays
/// exactly as with the tuned vector spelt out, and `weights=1,...` (the hand-set evaluation)
/// plays another game.
#[test]
fn the_default_weights_are_the_tuned_multipliers() {
    let start = game("map_seed=14,max_turns=4");
    let run = |spec: &str| {
        let mut agents = [agent(spec, 5), agent("max_agro", 0)];
        play_game(&start, &mut agents, 150)
    };
    let tuned = run("scenario");
    assert_eq!(tuned, run("scenario:weights=2.257,0.534,1.428,1.024,1.044,1.901,0.292,2.49"));
    assert_ne!(tuned, run("scenario:weights=1,1,1,1,1,1,1,1"));
    // Step 12's default form is the document's; the trial forms play legal games.
    assert_eq!(tuned, run("scenario:engagement=document,corrective=2"));
    for form in ["exchange", "balance", "reply"] {
        run(&format!("scenario:engagement={form}"));
    }
}

#[test]
fn a_position_handed_in_mid_turn_gets_a_legal_answer() {
    // The agent's kept scenarios belong to another game: it must notice and think afresh.
    let a = positions(21);
    let b = positions(22);
    let mut scenario = agent("scenario", 1);
    let limits = Limits::new(Budget::iterations(50));
    for state in a.iter().chain(&b).chain(&a) {
        let action = scenario.choose(state, &limits, &mut |_| {}).action;
        assert!(state.is_legal(action), "{}", state.to_text());
    }
}

#[test]
fn bad_parameters_are_refused_with_reasons() {
    for (spec, words) in [
        ("scenario:level=15", "steps of 10"),
        ("scenario:level=150", "level"),
        ("scenario:personality=elf", "personality"),
        ("scenario:off=bait+foo", "'foo' is not a step"),
        ("scenario:off=random", "cannot be switched off"),
        ("scenario:weights=1,2", "weights needs 8 numbers"),
        ("scenario:weights=1,1,1,1,1,1,1,-1", "between 0 and 100"),
        ("scenario:engagement=later", "engagement"),
        ("scenario:corrective=0.5", "between 1 and 10"),
    ] {
        let err = match Tactics::build_agent(&AgentSpec::parse(spec).unwrap(), 0) {
            Ok(_) => panic!("{spec} was accepted"),
            Err(e) => e.to_string(),
        };
        assert!(err.contains(words), "{spec}: {err}");
    }
}

#[test]
fn levels_switch_steps_on_cumulatively() {
    assert_eq!(Switches::level(0), {
        let mut s = Switches::level(140);
        s.set("values+max_agro+least_damage+hide_flee+mutation+bait+cohesion+type_orders+mutation_kinds+semi_random+sorcerer+engagement+keep_best+ratio", false).unwrap();
        s
    });
    let sizes: Vec<usize> = (0..=140)
        .step_by(10)
        .map(|l| Config { switches: Switches::level(l), ..Config::default() }.strategies().len())
        .collect();
    assert_eq!(sizes, vec![3, 3, 5, 6, 8, 8, 8, 8, 14, 14, 17, 18, 18, 18, 18]);
    let zombie = Config { personality: Personality::Zombie, ..Config::default() };
    assert_eq!(zombie.strategies().len(), 8);
    assert!(!zombie.mutates());
    let orc = Config { personality: Personality::Orc, ..Config::default() };
    assert_eq!(orc.strategies().len(), 15);
}

/// Timings for docs/tactics.md (`cargo test --release -p ply-tactics --test scenario -- --ignored
/// --nocapture`): the evaluation alone, and a mutation (a whole turn replayed and judged).
#[test]
#[ignore]
fn evaluation_and_mutation_speed() {
    let state = positions(42).into_iter().find(|s| !s.continues_turn()).unwrap();
    let config = Config::default();
    let mut search = Search::new(&config, &state, rng_from_seed(1));
    let population = search.generate();
    let (w, on) = (Weights::default(), Switches::all());
    let n = 100_000;
    let started = std::time::Instant::now();
    let mut sum = 0.0;
    for _ in 0..n {
        sum += evaluate(std::hint::black_box(&state), 0, 0, &w, &on).score(&w, true);
    }
    let eval = started.elapsed().as_secs_f64() / f64::from(n);
    let started = std::time::Instant::now();
    for i in 0..n / 2 {
        sum += search.mutate(&population[i as usize % population.len()]).score;
    }
    let mutation = started.elapsed().as_secs_f64() / f64::from(n / 2);
    println!(
        "evaluation {:.1} us ({:.0}/s); mutation with its whole-turn replay {:.1} us ({:.0}/s) [{sum:.0}]",
        eval * 1e6,
        1.0 / eval,
        mutation * 1e6,
        1.0 / mutation
    );
}

/// How the personalities play (docs/tactics.md, "Measured"; `-- --ignored --nocapture`): over
/// games against max_agro, each personality's mean distance to the nearest enemy after its turns,
/// attacks per turn and units lost per game.
#[test]
#[ignore]
fn personalities_differ() {
    for personality in ["cyborg", "orc", "zombie"] {
        let (mut distance, mut turns, mut attacks, mut lost, mut score) = (0.0, 0.0, 0.0, 0.0, 0.0);
        let games = 20u64;
        for seed in 0..games {
            let start = game(&format!("map_seed={},max_turns=40", 100 + seed));
            let seat = (seed % 2) as usize;
            let me = agent(&format!("scenario:personality={personality}"), seed);
            let mut agents = if seat == 0 { [me, agent("max_agro", 0)] } else { [agent("max_agro", 0), me] };
            let mut state = start.clone();
            let limits = Limits::new(Budget::iterations(300));
            while let Turn::Player(p) = state.turn() {
                let action = agents[p].choose(&state, &limits, &mut |_| {}).action;
                if p == seat && matches!(action, TacticsAction::Unit { attack: Some(_), .. }) {
                    attacks += 1.0;
                }
                state.play(action).unwrap();
                if p == seat && state.player() != seat && !state.is_over() {
                    turns += 1.0;
                    let enemies: Vec<u8> =
                        state.team(1 - seat).iter().filter(|u| u.alive()).map(|u| u.cell).collect();
                    let mine: Vec<u8> =
                        state.team(seat).iter().filter(|u| u.alive()).map(|u| u.cell).collect();
                    let d: f64 = mine
                        .iter()
                        .map(|&c| {
                            enemies
                                .iter()
                                .map(|&e| f64::from(ply_tactics::grid::manhattan(c, e)))
                                .fold(f64::MAX, f64::min)
                        })
                        .sum();
                    distance += d / mine.len() as f64;
                }
            }
            lost += state.team(seat).iter().filter(|u| !u.alive()).count() as f64;
            score += state.returns().get(seat);
        }
        println!(
            "{personality}: distance to the nearest enemy {:.2}, attacks per turn {:.2}, units lost per game {:.2}, score {:.0}%",
            distance / turns,
            attacks / turns.max(1.0),
            lost / games as f64,
            100.0 * score / games as f64
        );
    }
}

/// Pondering during the opponent's turn writes the next turn's scenarios: if the opponent's
/// units then stay where they were, the first decision starts from them and finds a better turn
/// than the same agent (same seed) without pondering, on the same small budget.
#[test]
fn pondering_prepares_the_next_turn() {
    let start = game("map_seed=3");
    assert_eq!(start.current_player(), Some(0));
    let mut after = start.clone();
    while after.current_player() == Some(0) {
        let stay = after
            .actions()
            .into_iter()
            .find(|a| matches!(a, TacticsAction::Unit { from, to, attack: None } if from == to));
        after.apply(stay.expect("a unit may always stay"));
    }
    assert_eq!(after.current_player(), Some(1));
    let small = Limits::new(Budget::iterations(10));
    let mut pondering = agent("scenario", 9);
    assert!(pondering.ponders());
    pondering.ponder(&start, &Limits::new(Budget::iterations(20_000)));
    let prepared = pondering.choose(&after, &small, &mut |_| {});
    let fresh = agent("scenario", 9).choose(&after, &small, &mut |_| {});
    assert!(after.is_legal(prepared.action));
    let (prepared, fresh) = (prepared.info.value.unwrap(), fresh.info.value.unwrap());
    assert!(prepared > fresh, "pondered {prepared} against {fresh}");
}

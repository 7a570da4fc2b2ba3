//! What the upper levels' steps (11 sorcerer, 12 engagement, 13 keep_best, 14 ratio) change in
//! the scenario AI's choice of a turn (docs/tactics.md, "The upper levels"): over turn starts of
//! real games, the first decision of the turn is searched as the agent searches it, and each
//! step's part in the choice is counted.

mod common;

use common::game;
use ply_core::rng::rng_from_seed;
use ply_core::{Agent, AgentSpec, Budget, Game, GameDef, Limits, Turn};
use ply_tactics::Tactics;
use ply_tactics::scenario::search::{Scenario, Search};
use ply_tactics::scenario::{Config, Strategy};

/// Turn starts (no unit has acted) from games of the default agent against level 120.
fn turn_starts(games: u64) -> Vec<Tactics> {
    let mut out = Vec::new();
    for seed in 0..games {
        let mut state = game(&format!("map_seed={},max_turns=30", 300 + seed));
        let spec = |s: &str| AgentSpec::parse(s).unwrap();
        let mut agents: [Box<dyn Agent<Tactics>>; 2] = [
            Tactics::build_agent(&spec("scenario"), seed).unwrap().agent,
            Tactics::build_agent(&spec("scenario:level=120"), seed).unwrap().agent,
        ];
        let limits = Limits::new(Budget::iterations(60));
        while let Turn::Player(p) = state.turn() {
            if !state.continues_turn() {
                out.push(state.clone());
            }
            let action = agents[p].choose(&state, &limits, &mut |_| {}).action;
            state.play(action).unwrap();
        }
    }
    out
}

/// The agent's first decision of a turn, unsorted at the end: the population after generation
/// (best first), cut to `keep` if given, then mutated until `budget` evaluations. Mutation
/// replaces a scenario in place, so a final index is the scenario's rank after generation.
fn search(config: &Config, state: &Tactics, budget: u64, seed: u64) -> Vec<Scenario> {
    let mut search = Search::new(config, state, rng_from_seed(seed));
    let mut population = search.generate();
    population.sort_by(|a, b| b.score.total_cmp(&a.score));
    if config.switches.keep_best {
        population.truncate(config.keep);
    }
    search.improve(&mut population, |done| done >= budget);
    population
}

fn best(population: &[Scenario]) -> usize {
    // The first of the best, as the agent's stable sort picks it.
    let top = population.iter().map(|s| s.score).fold(f64::MIN, f64::max);
    population.iter().position(|s| s.score == top).unwrap()
}

/// The index of the best scenario when `population` is judged again by `config`.
fn best_under(config: &Config, state: &Tactics, population: &[Scenario]) -> usize {
    let mut search = Search::new(config, state, rng_from_seed(0));
    let mut again = population.to_vec();
    for s in &mut again {
        search.rescore(s);
    }
    best(&again)
}

/// The counts (`cargo test --release -p ply-tactics --test levels -- --ignored --nocapture`):
/// per-decision budgets 50, 333 and 2000 — a turn's first decision (six units) under 300, 2000
/// and 12000 iterations a turn.
#[test]
#[ignore]
fn what_the_upper_steps_change() {
    let positions = turn_starts(20);
    let full = Config::default();
    let mut no_ratio = full;
    no_ratio.switches.ratio = false;
    let mut no_engagement = full;
    no_engagement.switches.engagement = false;
    let mut no_keep = full;
    no_keep.switches.keep_best = false;
    println!("{} turn starts", positions.len());
    for budget in [50u64, 333, 2000] {
        let (mut sorcerer_best, mut sorcerer_kept, mut sorcerer_written) = (0, 0, 0);
        let (mut ratio_changes, mut engagement_changes, mut beyond_keep) = (0, 0, 0);
        for (i, state) in positions.iter().enumerate() {
            let seed = i as u64;
            let population = search(&full, state, budget, seed);
            let chosen = best(&population);
            let origin = population[chosen].origin;
            sorcerer_best += usize::from(origin == Strategy::SorcererClear);
            sorcerer_kept += usize::from(population.iter().any(|s| s.origin == Strategy::SorcererClear));
            let mut probe = Search::new(&full, state, rng_from_seed(seed));
            sorcerer_written +=
                usize::from(probe.generate().iter().any(|s| s.origin == Strategy::SorcererClear));
            // Steps 14 and 12: the same scenarios, judged without the step.
            let steps = &population[chosen].steps;
            ratio_changes +=
                usize::from(&population[best_under(&no_ratio, state, &population)].steps != steps);
            engagement_changes +=
                usize::from(&population[best_under(&no_engagement, state, &population)].steps != steps);
            // Step 13: without the cut, how often the winner ranked below the 8 kept.
            let all = search(&no_keep, state, budget, seed);
            beyond_keep += usize::from(best(&all) >= full.keep);
        }
        let n = positions.len() as f64;
        let pct = |k: usize| 100.0 * k as f64 / n;
        println!(
            "budget {budget}: sorcerer scenario written {:.1}%, kept past the cut {:.1}%, chosen {:.1}%; \
             the chosen turn changes judged without ratio {:.1}%, without engagement {:.1}%; \
             without keep_best the winner ranked below 8th {:.1}%",
            pct(sorcerer_written),
            pct(sorcerer_kept),
            pct(sorcerer_best),
            pct(ratio_changes),
            pct(engagement_changes),
            pct(beyond_keep),
        );
        // The steps the docs call live must act somewhere: a dead switch would read 0 here.
        assert!(sorcerer_written > 0 && engagement_changes > 0, "steps 11 and 12 changed nothing");
    }
}

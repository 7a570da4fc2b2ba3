//! Online Evolutionary Planning (OEP; Justesen, Mahlmann & Togelius, "Online Evolution for
//! Multi-Action Adversarial Games", EvoApplications 2016): for games whose turn is many actions
//! by one player, evolve whole turns instead of searching action by action.
//!
//! A genome is a turn: the actions of the player to move from now until its turn ends
//! ([`Game::continues_turn`]) or the game does. A population of random legal turns is scored by
//! the evaluator on the position each leaves; every generation the worst share (the kill rate) is
//! replaced by children of two survivors — uniform crossover, then with some probability a
//! mutation of one action — each child repaired as it is replayed: an action no longer legal
//! where it now falls is replaced by a random legal one, and the turn is played out to its end.
//! The agent plays the first action of the best turn and keeps the rest: the turn's next decisions
//! follow the plan without searching, as long as the position is the one the plan expected.
//! Chance events inside a turn are drawn anew at each replay.

use ply_core::rng::{Rng, derive_seed, rng_from_seed};
use ply_core::{Agent, Decision, Game, Limits, SearchInfo, Turn};
use rand::RngExt;

use crate::heuristics::Evaluator;

#[derive(Clone, Debug, PartialEq)]
pub struct EvolutionConfig {
    pub population: usize,
    /// Share of the population replaced each generation.
    pub kill_rate: f64,
    /// Probability that a child has one action mutated.
    pub mutation_rate: f64,
    /// Most actions in a turn (a guard for games whose turns could go on for ever).
    pub max_turn: usize,
}

impl Default for EvolutionConfig {
    fn default() -> Self {
        EvolutionConfig { population: 100, kill_rate: 0.5, mutation_rate: 0.1, max_turn: 64 }
    }
}

pub struct Evolution<G: Game, E> {
    config: EvolutionConfig,
    eval: E,
    seed: u64,
    decisions: u64,
    /// The rest of the best turn, and the position where its next action is due.
    plan: Option<(G, Vec<G::Action>)>,
}

impl<G: Game, E: Evaluator<G>> Evolution<G, E> {
    pub fn new(config: EvolutionConfig, eval: E, seed: u64) -> Self {
        Evolution { config, eval, seed, decisions: 0, plan: None }
    }
}

struct Genome<A> {
    actions: Vec<A>,
    fitness: f64,
}

/// Replays `genes` from `start` for the mover's turn, repairing as it goes (and drawing the
/// action at `mutate` afresh), and plays the turn out to its end; returns the turn as played and
/// the position it leaves.
fn replay<G: Game>(
    start: &G,
    genes: &[G::Action],
    mutate: Option<usize>,
    max_turn: usize,
    rng: &mut Rng,
) -> (Vec<G::Action>, G) {
    let mover = start.current_player();
    let mut state = start.clone();
    let mut played = Vec::with_capacity(genes.len());
    let mut legal = Vec::new();
    let mut outcomes = Vec::new();
    while played.len() < max_turn {
        match state.turn() {
            Turn::Over => break,
            Turn::Chance => {
                state.chance_outcomes(&mut outcomes);
                let outcome = ply_core::sample_outcome(&outcomes, rng);
                state.apply(outcome);
                continue;
            }
            Turn::Player(p) if Some(p) != mover || (!played.is_empty() && !state.continues_turn()) => break,
            Turn::Player(_) => {}
        }
        state.legal_actions(&mut legal);
        let wanted =
            genes.get(played.len()).copied().filter(|a| Some(played.len()) != mutate && legal.contains(a));
        let action = wanted.unwrap_or_else(|| legal[rng.random_range(0..legal.len())]);
        state.apply(action);
        played.push(action);
    }
    (played, state)
}

impl<G: Game + PartialEq, E: Evaluator<G>> Agent<G> for Evolution<G, E> {
    fn choose(
        &mut self,
        state: &G,
        limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo<G::Action>),
    ) -> Decision<G::Action> {
        let clock = limits.start();
        let mover = state.current_player().expect("asked to move when no player is to move");
        // The turn goes on as planned: no search.
        if let Some((expected, rest)) = self.plan.take()
            && state.continues_turn()
            && &expected == state
            && let Some((&next, later)) = rest.split_first()
            && state.is_legal(next)
        {
            let mut after = state.clone();
            after.apply(next);
            self.plan = Some((after, later.to_vec()));
            return Decision { action: next, info: SearchInfo { pv: rest, ..SearchInfo::default() } };
        }
        let legal = state.actions();
        if legal.len() == 1 && !state.continues_turn() && state.decisions_left_in_turn() == Some(1) {
            return Decision::new(legal[0]);
        }
        let mut rng = rng_from_seed(derive_seed(self.seed, self.decisions));
        self.decisions += 1;
        let config = &self.config;
        let eval = &self.eval;
        let score = |s: &G| match s.turn() {
            Turn::Over => 2.0 * s.returns().get(mover) - 1.0,
            _ => eval.evaluate(s, mover).clamp(-1.0, 1.0),
        };
        let evaluations = std::cell::Cell::new(0u64);
        let evaluate = |genes: &[G::Action], mutate: Option<usize>, rng: &mut Rng| {
            let (actions, end) = replay(state, genes, mutate, config.max_turn, rng);
            evaluations.set(evaluations.get() + 1);
            Genome { fitness: score(&end), actions }
        };
        let size = config.population.max(2);
        let mut population: Vec<Genome<G::Action>> =
            (0..size).map(|_| evaluate(&[], None, &mut rng)).collect();
        let budget = limits.budget.iterations;
        let out_of_budget = |done: u64| {
            budget.is_some_and(|n| done >= n)
                || clock.time_is_up()
                || clock.stopped()
                || (budget.is_none() && !clock.has_deadline() && done >= 10_000)
        };
        let mut generations = 0;
        while !out_of_budget(evaluations.get()) {
            population.sort_by(|a, b| b.fitness.total_cmp(&a.fitness));
            let survivors = ((size as f64 * (1.0 - config.kill_rate)).round() as usize).clamp(1, size);
            for slot in survivors..size {
                let (a, b) = (rng.random_range(0..survivors), rng.random_range(0..survivors));
                let (pa, pb) = (&population[a].actions, &population[b].actions);
                let genes: Vec<G::Action> = (0..pa.len().max(pb.len()))
                    .filter_map(|i| {
                        if rng.random::<bool>() { pa.get(i).or(pb.get(i)) } else { pb.get(i).or(pa.get(i)) }
                    })
                    .copied()
                    .collect();
                let mutate = (!genes.is_empty() && rng.random::<f64>() < config.mutation_rate)
                    .then(|| rng.random_range(0..genes.len()));
                population[slot] = evaluate(&genes, mutate, &mut rng);
                if out_of_budget(evaluations.get()) {
                    break;
                }
            }
            generations += 1;
        }
        population.sort_by(|a, b| b.fitness.total_cmp(&a.fitness));
        let best = &population[0];
        let action = best.actions.first().copied().filter(|a| legal.contains(a)).unwrap_or(legal[0]);
        let mut after = state.clone();
        after.apply(action);
        self.plan = Some((after, best.actions.get(1..).unwrap_or(&[]).to_vec()));
        let info = SearchInfo {
            depth: generations,
            iterations: evaluations.get(),
            value: Some(best.fitness),
            pv: best.actions.clone(),
            elapsed: clock.elapsed(),
            ..SearchInfo::default()
        };
        report(&info);
        Decision { action, info }
    }
}

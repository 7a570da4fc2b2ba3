//! The anytime loop (SEEDS.md §4, "AI loop", steps 5, 9 and 13): write ~20 scenarios, mutate
//! them while the budget lasts keeping the better of parent and mutant, play the best one's first
//! act, and at the next decision of the same turn go on from the scenarios kept.

use ply_core::rng::{Rng, derive_seed, rng_from_seed};
use ply_core::{Agent, Decision, Game, Limits, SearchInfo};
use rand::RngExt;

use crate::rules::{Tactics, TacticsAction};

use super::Config;
use super::eval::evaluate;
use super::strategies::{Context, Rule, Step, Strategy, generate, play};

/// A scenario with its score.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub steps: Vec<Step>,
    pub score: f64,
    pub origin: Strategy,
}

pub struct ScenarioAgent {
    config: Config,
    seed: u64,
    decisions: u64,
    /// The scenarios of the turn under way, and the position their next act is due in.
    kept: Option<(Tactics, Vec<Scenario>)>,
    /// Scenarios for the next turn, written while the opponent was moving (pondering).
    pondered: Vec<Scenario>,
}

/// Mixed into the seeds of pondering: a decision's random stream is never shifted by it.
const PONDER_SALT: u64 = 0x5041_4E44;

/// The search of one decision: the position, the rules' context, the generator, the count of
/// evaluations.
pub struct Search<'a> {
    pub config: &'a Config,
    pub root: &'a Tactics,
    pub ctx: Context,
    pub rng: Rng,
    pub evaluations: u64,
    repairs: Vec<Rule>,
}

impl<'a> Search<'a> {
    pub fn new(config: &'a Config, root: &'a Tactics, rng: Rng) -> Search<'a> {
        Search { config, root, ctx: Context::new(root), rng, evaluations: 0, repairs: config.repairs() }
    }

    fn score(&mut self, end: &Tactics, attacked: u8) -> f64 {
        self.evaluations += 1;
        if !self.config.switches.values {
            return self.rng.random::<f64>();
        }
        let c = self.config;
        evaluate(end, self.ctx.side, attacked, &c.weights, &c.switches).score(&c.weights, c.switches.ratio)
    }

    fn repair_rule(&mut self) -> Rule {
        self.repairs[self.rng.random_range(0..self.repairs.len())]
    }

    /// Every strategy's scenario from the root.
    pub fn generate(&mut self) -> Vec<Scenario> {
        let mut out = Vec::new();
        for origin in self.config.strategies() {
            if let Some((steps, end, attacked)) = generate(origin, self.root, &mut self.ctx, &mut self.rng) {
                let score = self.score(&end, attacked);
                out.push(Scenario { steps, score, origin });
            }
        }
        out
    }

    /// Plays `steps` again (positions may differ from when they were written) and scores them.
    pub fn rescore(&mut self, scenario: &mut Scenario) {
        let repair = self.repair_rule();
        let (end, attacked) =
            play(self.root, &mut scenario.steps, |_| None, repair, &mut self.ctx, &mut self.rng);
        scenario.score = self.score(&end, attacked);
    }

    /// A mutant of `parent`, played and scored: step 5's kind (1-3 acts redrawn at random, the
    /// order kept) or, with step 9, one of three kinds drawn evenly — that one, two units'
    /// places swapped with their acts kept (broken ones repaired), or two units swapped and
    /// their acts written anew by a standard rule (later breaks repaired by one drawn at random).
    pub fn mutate(&mut self, parent: &Scenario) -> Scenario {
        let mut steps = parent.steps.clone();
        let n = steps.len();
        let kind =
            if self.config.switches.mutation_kinds && n >= 2 { self.rng.random_range(0..3) } else { 0 };
        let mut fresh: [Option<Rule>; 8] = [None; 8];
        match kind {
            0 => {
                for _ in 0..self.rng.random_range(1..=3usize) {
                    fresh[self.rng.random_range(0..n)] = Some(Rule::Random);
                }
            }
            _ => {
                let i = self.rng.random_range(0..n);
                let j = (i + self.rng.random_range(1..n)) % n;
                steps.swap(i, j);
                if kind == 2 {
                    let rule = self.repair_rule();
                    fresh[i] = Some(rule);
                    fresh[j] = Some(rule);
                }
            }
        }
        let repair = self.repair_rule();
        let (end, attacked) = play(self.root, &mut steps, |i| fresh[i], repair, &mut self.ctx, &mut self.rng);
        let score = self.score(&end, attacked);
        Scenario { steps, score, origin: parent.origin }
    }

    /// Mutation rounds over the population until `done` says stop: each scenario gets 5-15
    /// mutants, each replacing it if it scores better.
    pub fn improve(&mut self, population: &mut [Scenario], mut done: impl FnMut(u64) -> bool) -> u32 {
        let mut rounds = 0;
        if population.is_empty() || population[0].steps.is_empty() {
            return 0;
        }
        'outer: loop {
            for scenario in population.iter_mut() {
                for _ in 0..self.rng.random_range(5..=15) {
                    if done(self.evaluations) {
                        break 'outer;
                    }
                    let child = self.mutate(scenario);
                    if child.score > scenario.score {
                        *scenario = child;
                    }
                }
            }
            rounds += 1;
        }
        rounds
    }
}

/// Best first; equal scores keep their order, so runs replay exactly.
fn sort(population: &mut [Scenario]) {
    population.sort_by(|a, b| b.score.total_cmp(&a.score));
}

impl ScenarioAgent {
    pub fn new(config: Config, seed: u64) -> ScenarioAgent {
        ScenarioAgent { config, seed, decisions: 0, kept: None, pondered: Vec::new() }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }
}

impl Agent<Tactics> for ScenarioAgent {
    fn choose(
        &mut self,
        state: &Tactics,
        limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo<TacticsAction>),
    ) -> Decision<TacticsAction> {
        let clock = limits.start();
        let rng = rng_from_seed(derive_seed(self.seed, self.decisions));
        self.decisions += 1;
        let config = self.config;
        let mut search = Search::new(&config, state, rng);
        // The turn goes on: the scenarios kept lose the act just played and are played again.
        let mut population = Vec::new();
        if let Some((expected, kept)) = self.kept.take()
            && &expected == state
            && state.continues_turn()
        {
            for mut s in kept {
                s.steps.retain(|step| state.to_act().any(|slot| slot == step.slot as usize));
                if s.steps.len() == state.to_act().count() {
                    search.rescore(&mut s);
                    population.push(s);
                }
            }
        }
        // The first decision of a turn: the scenarios pondered during the opponent's turn, played
        // again on the position the opponent really left.
        if population.is_empty() {
            for mut s in std::mem::take(&mut self.pondered) {
                if s.steps.len() == state.to_act().count()
                    && s.steps.iter().all(|step| state.to_act().any(|slot| slot == step.slot as usize))
                {
                    search.rescore(&mut s);
                    population.push(s);
                }
            }
        }
        population.extend(search.generate());
        sort(&mut population);
        if config.switches.keep_best {
            population.truncate(config.keep);
        }
        let budget = limits.budget.iterations.unwrap_or(if clock.has_deadline() {
            u64::MAX
        } else {
            config.default_evals
        });
        let mut rounds = 0;
        if config.mutates() {
            let mut checks = 0u32;
            rounds = search.improve(&mut population, |done| {
                checks += 1;
                done >= budget || (checks.is_multiple_of(16) && (clock.time_is_up() || clock.stopped()))
            });
            sort(&mut population);
        }
        let legal = |a: TacticsAction| state.check_action(a).is_ok();
        let best = population.first();
        let action = best
            .and_then(|s| s.steps.first())
            .map(|step| step.action(state))
            .filter(|&a| legal(a))
            .unwrap_or_else(|| {
                // Cannot happen with a scenario from this position; a legal act all the same.
                state.actions()[0]
            });
        let mut pv = Vec::new();
        let mut line = state.clone();
        if let Some(best) = best {
            for step in &best.steps {
                if line.current_player() != Some(state.player()) || !line.units[step.slot as usize].alive() {
                    break;
                }
                let a = step.action(&line);
                if line.check_action(a).is_err() {
                    break;
                }
                pv.push(a);
                line.apply_action(a);
            }
        }
        let value = best.map(|b| b.score);
        let mut after = state.clone();
        after.apply_action(action);
        self.kept = after.continues_turn().then_some((after, population));
        let info = SearchInfo {
            depth: rounds,
            iterations: search.evaluations,
            value,
            pv,
            elapsed: clock.elapsed(),
            ..SearchInfo::default()
        };
        report(&info);
        Decision { action, info }
    }

    /// The document's background thinking during the human's turn: the position is taken as
    /// if the opponent's units still to act stayed where they are, and the next turn's
    /// scenarios are written and mutated for it until the opponent moves; its first decision
    /// starts from them (re-played, and repaired, on the real position).
    fn ponder(&mut self, state: &Tactics, limits: &Limits) {
        let Some(opponent) = state.current_player() else { return };
        let mut ahead = state.clone();
        while ahead.current_player() == Some(opponent) {
            let Some(slot) = ahead.to_act().next() else { return };
            let here = ahead.units[slot].cell;
            ahead.apply_action(TacticsAction::Unit { from: here, to: here, attack: None });
        }
        if ahead.current_player().is_none() {
            return;
        }
        let clock = limits.start();
        let rng = rng_from_seed(derive_seed(self.seed ^ PONDER_SALT, self.decisions));
        let config = self.config;
        let mut search = Search::new(&config, &ahead, rng);
        let mut population = search.generate();
        sort(&mut population);
        if config.switches.keep_best {
            population.truncate(config.keep);
        }
        if config.mutates() {
            let (mut checks, most) = (0u32, limits.budget.iterations.unwrap_or(u64::MAX));
            search.improve(&mut population, |done| {
                checks += 1;
                done >= most || (checks.is_multiple_of(16) && (clock.time_is_up() || clock.stopped()))
            });
            sort(&mut population);
        }
        self.pondered = population;
    }

    fn ponders(&self) -> bool {
        true
    }
}

//! The tactics players: the document's `scenario` AI and its `max_agro` (step 2: everyone runs
//! at the enemy and deals the most damage it can), the generic Online Evolutionary Planning and
//! MCTS with the scenario AI's evaluation, and the generic random player.

use ply_core::{Agent, AgentFactory, Decision, Limits, ParamInfo, Params, Player, SearchInfo};
use ply_search::factories;
use ply_search::heuristics::{Evaluator, UniformRollout};

use crate::plans::Scratch;
use crate::rules::{Tactics, TacticsAction};
use crate::scenario::{self, Config, DEFAULT_MULTIPLIERS, ScenarioAgent, Switches, Weights};

/// Which unit acts next: the first of the side's units that has not acted, counted in team
/// order (`original`) or from the end (`reversed`) — the document's two orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Original,
    Reversed,
}

impl Order {
    /// The unit of the side to move that acts next in this order.
    pub fn next_unit(self, state: &Tactics) -> Option<usize> {
        match self {
            Order::Original => state.to_act().next(),
            Order::Reversed => state.to_act().last(),
        }
    }
}

/// The document's max_agro: each unit in turn, in a fixed order, makes the attack that deals the
/// most damage from any cell it can reach (enemy damage less friendly fire, then kills; fewest
/// steps on a tie), or if it can hurt no enemy, moves as near the enemy as it can.
pub struct MaxAgro {
    pub order: Order,
    scratch: Scratch,
}

impl MaxAgro {
    pub fn new(order: Order) -> Self {
        MaxAgro { order, scratch: Scratch::default() }
    }

    pub fn act(&mut self, state: &Tactics) -> Option<TacticsAction> {
        let slot = self.order.next_unit(state)?;
        let plan = state.aggressive_plan(slot, &mut self.scratch);
        Some(state.action_for(slot, &plan))
    }
}

impl Agent<Tactics> for MaxAgro {
    fn choose(
        &mut self,
        state: &Tactics,
        _limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo<TacticsAction>),
    ) -> Decision<TacticsAction> {
        let action = self.act(state).unwrap_or_else(|| {
            use ply_core::Game;
            state.actions()[0]
        });
        let decision = Decision::new(action);
        report(&decision.info);
        decision
    }
}

/// The scenario AI's evaluation (every step on) for the generic searches: our points against
/// theirs as `(ours - theirs) / (|ours| + theirs)`, in [-1, 1]. Nothing records which units
/// attacked in the turn, so the engagement term counts no attack.
#[derive(Clone, Copy, Debug, Default)]
pub struct ScenarioEval {
    pub weights: Weights,
}

impl Evaluator<Tactics> for ScenarioEval {
    fn evaluate(&self, state: &Tactics, player: Player) -> f64 {
        let terms = scenario::evaluate(state, player, 0, &self.weights, &Switches::all());
        let (ours, theirs) = (terms.ours_total(&self.weights), terms.theirs);
        ((ours - theirs) / (ours.abs() + theirs).max(1.0)).clamp(-1.0, 1.0)
    }
}

fn scenario_factory() -> AgentFactory<Tactics> {
    let d = Config::default();
    AgentFactory::new(
        "scenario",
        "the document's AI: whole-turn scenarios from hand-made strategies, mutated while the budget lasts, judged by unit values, threats, bait, cohesion and engagement",
        vec![
            ParamInfo::new(
                "level",
                140,
                "the document's difficulty, 0-140 in steps of 10: step k of 15 is on from level 10k",
            ),
            ParamInfo::new(
                "personality",
                "cyborg",
                "'cyborg' (every strategy), 'orc' (aggressive strategies only) or 'zombie' (run forward and attack, no mutation)",
            ),
            ParamInfo::new(
                "off",
                "none",
                "steps switched off beyond the level, names joined by '+' (docs/tactics.md: values, max_agro, least_damage, hide_flee, mutation, bait, cohesion, type_orders, mutation_kinds, semi_random, sorcerer, engagement, keep_best, ratio)",
            ),
            ParamInfo::new("on", "none", "steps switched on beyond the level, names joined by '+'"),
            ParamInfo::new(
                "weights",
                DEFAULT_MULTIPLIERS.map(|m| m.to_string()).join(","),
                "multipliers of the evaluation's hand-set main terms (threat, threatened, bait, cohesion, advance, out of reach, terrain, engagement); the default is the tuned vector, 1,1,1,1,1,1,1,1 the hand-set evaluation",
            ),
            ParamInfo::new(
                "engagement",
                "document",
                "step 12's form: 'document' (n counts every enemy firing position the unit reaches), 'exchange' (only those where its hit on the enemy is worth the enemy's shot) 'balance' (the term scaled by ours/theirs material) or 'reply' (judged after the enemy's max_agro reply)",
            ),
            ParamInfo::new(
                "corrective",
                d.weights.losing_factor,
                "step 12's corrective rule (ours; the document lost its text): on the losing side a wounded unit that attacks and covers nothing pays the engagement penalty this many times; 1 switches the rule off",
            ),
            ParamInfo::new("keep", d.keep, "scenarios kept by step 13"),
            ParamInfo::new(
                "evals",
                d.default_evals,
                "evaluations per decision when the budget sets no limit",
            ),
        ],
        |params: &Params, seed| Ok(Box::new(ScenarioAgent::new(Config::from_params(params)?, seed))),
    )
}

/// The generic MCTS over unit actions: uniform playouts cut after one turn's worth of actions
/// and judged by the scenario evaluation (a whole random game is hundreds of actions of noise).
fn mcts() -> AgentFactory<Tactics> {
    let mut factory = factories::mcts(
        "mcts",
        "MCTS over single unit actions: uniform playouts cut short and judged by the scenario AI's evaluation",
        vec![],
        |_| Ok((ScenarioEval::default(), UniformRollout)),
    );
    for p in &mut factory.params {
        if p.name == "rollout" {
            p.default = "6".into();
        }
    }
    factory
}

pub fn factories() -> Vec<AgentFactory<Tactics>> {
    vec![
        scenario_factory(),
        factories::evolution(
            "oep",
            "Online Evolutionary Planning: whole turns evolved and judged by the scenario AI's evaluation",
            |_| Ok(ScenarioEval::default()),
        ),
        mcts(),
        AgentFactory::new(
            "max_agro",
            "the document's max_agro: every unit in turn runs at the enemy and makes the attack that deals the most damage",
            vec![ParamInfo::new(
                "order",
                "original",
                "the order the units act in: 'original' (team order) or 'reversed'",
            )],
            |params, _seed| {
                let order = match params.get_choice("order", &["original", "reversed"])? {
                    "original" => Order::Original,
                    _ => Order::Reversed,
                };
                Ok(Box::new(MaxAgro::new(order)))
            },
        ),
        factories::random(),
    ]
}

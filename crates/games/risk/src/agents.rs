//! Risk's players: the greedy baseline (also the playout policy of the searches) and the
//! generic searches set up for Risk.

use ply_core::rng::Rng;
use ply_core::{Agent, AgentFactory, Decision, Game, Limits, ParamInfo, Params, SearchInfo};
use ply_search::{Mcts, RolloutPolicy, factories};
use rand::RngExt;

use crate::claims::claim_value;
use crate::dice::conquest_probability;
use crate::eval::StrengthShare;
use crate::map::bits;
use crate::planner::{Outlook, Planner, PlannerAgent};
use crate::rules::{Phase, Risk, RiskAction};

/// The conquest chance below which `greedy` stops attacking.
const ATTACK_ODDS: f64 = 0.6;

/// A player of simple, sound habits: it trades whenever it can, puts its whole draft where it
/// can take the most valuable territory (or on a threatened border of a continent it holds),
/// attacks while the odds table gives it at least 60% to take the territory, most valuable
/// target first (completing continents, breaking others'), moves armies to the front and
/// fortifies from the interior.
#[derive(Clone, Copy, Debug, Default)]
pub struct Greedy;

impl Greedy {
    pub fn choose(state: &Risk, actions: &[RiskAction]) -> RiskAction {
        let mut best = actions[0];
        let mut best_score = f64::NEG_INFINITY;
        for &action in actions {
            let score = Self::score(state, action);
            if score > best_score {
                best_score = score;
                best = action;
            }
        }
        best
    }

    fn score(state: &Risk, action: RiskAction) -> f64 {
        let me = state.current() as u8;
        match action {
            RiskAction::Pick(t) => claim_value(state, t as usize),
            RiskAction::Place { territory, armies } => {
                let t = territory as usize;
                let front = front_value(state, t);
                // The whole draft in one place, unless it is setup's single army.
                front + if state.phase() == Phase::Setup { 0.0 } else { f64::from(armies) * 1e-3 }
            }
            RiskAction::Trade(cards) => {
                let bonus =
                    cards.iter().any(|&c| (c as usize) < state.map().len() && state.owner(c as usize) == me);
                100.0 + f64::from(state.set_value(cards).unwrap_or(0)) + if bonus { 2.0 } else { 0.0 }
            }
            RiskAction::Attack { from, to, blitz } => {
                if !blitz {
                    return f64::NEG_INFINITY;
                }
                let odds = conquest_probability(
                    u32::from(state.armies(from as usize)) - 1,
                    u32::from(state.armies(to as usize)),
                );
                if odds < ATTACK_ODDS {
                    return f64::NEG_INFINITY;
                }
                odds * target_value(state, to as usize)
            }
            RiskAction::EndAttack | RiskAction::EndTurn => 0.0,
            RiskAction::Occupy(armies) => {
                let Phase::Occupy { from, to, min } = state.phase() else { return 0.0 };
                let most = state.armies(from as usize) - 1;
                let (from_front, to_front) =
                    (enemy_neighbours(state, from as usize), enemy_neighbours(state, to as usize));
                let wanted = match (from_front > 0, to_front > 0) {
                    (false, _) => most,
                    (true, false) => min,
                    (true, true) => min + (most - min).div_ceil(2),
                };
                -(f64::from(armies) - f64::from(wanted)).abs()
            }
            RiskAction::Fortify { from, to, armies } => {
                let (from, to) = (from as usize, to as usize);
                if enemy_neighbours(state, from) > 0 || enemy_neighbours(state, to) == 0 {
                    return f64::NEG_INFINITY;
                }
                1.0 + f64::from(armies) * 1e-3
            }
            RiskAction::Deal { .. } | RiskAction::Dice { .. } | RiskAction::Draw(_) => 0.0,
        }
    }
}

fn enemy_neighbours(state: &Risk, t: usize) -> u32 {
    let own = state.territories_of(state.owner(t));
    (state.map().territories[t].border & !own).count_ones()
}

/// How much taking `t` is worth to the player to move: more the closer it brings a continent
/// (weighted by its bonus), more again if it breaks a continent someone else holds whole.
fn target_value(state: &Risk, t: usize) -> f64 {
    let me = state.current() as u8;
    let map = state.map();
    let continent = &map.continents[map.territories[t].continent];
    let size = f64::from(continent.territories.count_ones());
    let mine = f64::from((continent.territories & state.territories_of(me)).count_ones());
    let owner = state.owner(t);
    let held_by_owner = continent.territories & !state.territories_of(owner) == 0;
    let per_army = f64::from(continent.bonus) / size;
    1.0 + (mine + 1.0) / size * (1.0 + per_army) + if held_by_owner { 1.0 + per_army } else { 0.0 }
}

/// How much an army placed on `t` is worth: a territory facing no enemy is worth nothing; one
/// on the border of a continent the player holds and outnumbered is worth defending; otherwise
/// what it can take next, by the best target in reach.
fn front_value(state: &Risk, t: usize) -> f64 {
    let map = state.map();
    let me = state.current() as u8;
    let own = state.territories_of(me);
    let enemies = map.territories[t].border & !own;
    if enemies == 0 {
        return -1.0;
    }
    let armies = f64::from(state.armies(t));
    let threat: f64 = bits(enemies).map(|e| f64::from(state.armies(e))).sum();
    let continent = &map.continents[map.territories[t].continent];
    let defending = continent.territories & !own == 0 && threat > armies;
    let best_target = bits(enemies)
        .map(|e| target_value(state, e) / (1.0 + f64::from(state.armies(e)) / 10.0))
        .fold(0.0, f64::max);
    best_target + if defending { 2.0 + f64::from(continent.bonus) / 5.0 } else { 0.0 }
}

/// `greedy` as an agent.
pub struct GreedyAgent;

impl Agent<Risk> for GreedyAgent {
    fn choose(
        &mut self,
        state: &Risk,
        _limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo<RiskAction>),
    ) -> Decision<RiskAction> {
        let decision = Decision::new(Greedy::choose(state, &state.actions()));
        report(&decision.info);
        decision
    }
}

/// Playouts by `greedy`, with a share of random moves so that they do not all run alike.
#[derive(Clone, Copy, Debug)]
pub struct GreedyRollout {
    pub noise: f64,
}

impl RolloutPolicy<Risk> for GreedyRollout {
    fn choose(&self, state: &Risk, actions: &[RiskAction], rng: &mut Rng) -> RiskAction {
        if self.noise > 0.0 && rng.random::<f64>() < self.noise {
            return actions[rng.random_range(0..actions.len())];
        }
        Greedy::choose(state, actions)
    }
}

/// MCTS for Risk: greedy playouts cut after `rollout` actions and judged by the share of
/// strength (a whole game of playout is thousands of actions).
fn mcts() -> AgentFactory<Risk> {
    let mut params = factories::mcts_params::<Risk>();
    for p in &mut params {
        if p.name == "rollout" {
            p.default = "200".into();
        }
    }
    params.push(ParamInfo::new("noise", 0.1, "share of random moves in playouts"));
    params.push(ParamInfo::new(
        "eval",
        "share",
        "how a cut playout is judged: 'share' (of territories, armies and income) or 'outlook' (the planner's judgement)",
    ));
    AgentFactory::new(
        "mcts",
        "MCTS with real dice: greedy playouts (with some random moves), cut after 'rollout' actions and judged by the share of territories, armies and income",
        params,
        |params: &Params, seed| {
            let config = factories::mcts_config(params)?;
            let rollout = GreedyRollout { noise: params.get_in("noise", 0.0..=1.0)? };
            Ok(match params.get_choice("eval", &["share", "outlook"])? {
                "share" => Box::new(Mcts::new(config, StrengthShare, rollout, seed)),
                _ => Box::new(Mcts::new(config, Outlook::default(), rollout, seed)),
            })
        },
    )
}

fn planner() -> AgentFactory<Risk> {
    let d = Planner::default();
    let params = vec![
        ParamInfo::new("depth", d.depth, "attacks planned ahead, 1-6"),
        ParamInfo::new("breadth", d.breadth, "attacks followed at each step, 1-20"),
        ParamInfo::new("odds", d.min_odds, "least chance of taking a territory worth considering"),
        ParamInfo::new(
            "weights",
            d.outlook.weights.iter().map(f64::to_string).collect::<Vec<_>>().join(","),
            "weights of income, armies, territories (less threatened ones) and safe continent bonuses",
        ),
        ParamInfo::new("sharpness", d.outlook.sharpness, "strength^sharpness is a seat's share of the wins"),
    ];
    AgentFactory::new(
        "planner",
        "Ply's Risk player: plans attacks a few ahead with their exact odds and judges the end of its turn by income, armies and territories less what its neighbours threaten",
        params,
        |params: &Params, _seed| {
            let weights = params.get_list("weights")?;
            let weights: [f64; 4] = weights.try_into().map_err(|w: Vec<f64>| {
                ply_core::Error::spec(format!("planner: weights needs 4 numbers, got {}", w.len()))
            })?;
            if weights.iter().any(|w| !(0.0..=1000.0).contains(w)) {
                return Err(ply_core::Error::spec("planner: weights are between 0 and 1000"));
            }
            let planner = Planner {
                outlook: Outlook { weights, sharpness: params.get_in("sharpness", 0.1..=10.0)? },
                depth: params.get_in("depth", 1..=6)?,
                breadth: params.get_in("breadth", 1..=20)?,
                min_odds: params.get_in("odds", 0.0..=1.0)?,
            };
            Ok(Box::new(PlannerAgent { planner }))
        },
    )
}

pub fn factories() -> Vec<AgentFactory<Risk>> {
    vec![
        planner(),
        mcts(),
        crate::document::factory(),
        AgentFactory::new(
            "greedy",
            "baseline: trades, drafts to the best front, attacks at 60% odds or better, fortifies the front",
            vec![],
            |_, _| Ok(Box::new(GreedyAgent)),
        ),
        factories::random(),
    ]
}

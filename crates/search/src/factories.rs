//! Agent factories for the generic agents, so that a game offers them by name with a few lines:
//! the game supplies its evaluator, move ordering or rollout policy; the parameters of the search
//! itself (depth, exploration constant, threads...) are declared here once for every game.

use ply_core::{AgentFactory, Error, Game, ParamInfo, Params, Resource};

use crate::alphabeta::{AlphaBeta, AlphaBetaConfig};
use crate::determinized::Determinized;
use crate::evolution::{Evolution, EvolutionConfig};
use crate::heuristics::{Evaluator, MoveOrderer, RolloutPolicy};
use crate::ismcts::{Ismcts, IsmctsConfig};
use crate::mcts::{ChanceDescent, FinalChoice, Mcts, MctsConfig, Widening, node_bytes};
use crate::random::RandomAgent;
use crate::tt::TranspositionTable;
use crate::value::{DepthUnit, EvalScale};
use ply_core::rng::derive_seed;

pub fn random<G: Game>() -> AgentFactory<G> {
    AgentFactory::new("random", "plays a uniformly random legal move", vec![], |_, seed| {
        Ok(Box::new(RandomAgent::new(seed)))
    })
}

pub fn alphabeta_params<G: Game>() -> Vec<ParamInfo> {
    let d = AlphaBetaConfig::default();
    vec![
        ParamInfo::new("depth", d.max_depth, "deepest iteration of iterative deepening, in moves (or turns)"),
        ParamInfo::new(
            "turns",
            d.depth_unit == DepthUnit::Turns,
            "count depth in whole turns and judge positions only between turns (for games whose turns are several actions)",
        ),
        ParamInfo::new("tt", d.tt_bits, "transposition table size as a power of two (0 = off)")
            .costs(Resource::TableBits { entry_bytes: TranspositionTable::<G::Action>::SLOT_BYTES }),
        ParamInfo::new("killers", d.killers, "killer-move ordering"),
        ParamInfo::new("history", d.history, "history-heuristic ordering"),
        ParamInfo::new(
            "scale",
            d.eval_scale.name(),
            "evaluation next to results: 'rank' (any result outweighs it) or 'expected' (it is the expected result, as games with chance need)",
        ),
    ]
}

pub fn alphabeta_config(params: &Params) -> Result<AlphaBetaConfig, Error> {
    Ok(AlphaBetaConfig {
        max_depth: params.get_in("depth", 1..=1000)?,
        depth_unit: if params.get_bool("turns")? { DepthUnit::Turns } else { DepthUnit::Actions },
        tt_bits: params.get_in("tt", 0..=30)?,
        killers: params.get_bool("killers")?,
        history: params.get_bool("history")?,
        eval_scale: EvalScale::from_name(params.get_choice("scale", &EvalScale::NAMES)?)
            .expect("a listed name"),
    })
}

/// An alpha-beta agent (expectimax through chance events). `make` builds the game's evaluator
/// and move orderer from the parameters, `extra` declares the parameters it reads.
pub fn alphabeta<G, E, O>(
    name: &'static str,
    about: &'static str,
    extra: Vec<ParamInfo>,
    make: impl Fn(&Params) -> Result<(E, O), Error> + Send + Sync + 'static,
) -> AgentFactory<G>
where
    G: Game,
    E: Evaluator<G> + 'static,
    O: MoveOrderer<G> + 'static,
{
    let mut params = alphabeta_params::<G>();
    params.extend(extra);
    AgentFactory::new(name, about, params, move |params, _seed| {
        let config = alphabeta_config(params)?;
        let (eval, orderer) = make(params)?;
        Ok(Box::new(AlphaBeta::new(config, eval, orderer)))
    })
}

/// Information-Set MCTS ([`crate::ismcts`]) with the game's rollout policy.
pub fn ismcts<G, R>(
    name: &'static str,
    about: &'static str,
    make: impl Fn(&Params) -> Result<R, Error> + Send + Sync + 'static,
) -> AgentFactory<G>
where
    G: Game,
    R: RolloutPolicy<G> + 'static,
{
    let d = IsmctsConfig::default();
    let mut params = vec![ParamInfo::new("c", d.exploration, "UCB exploration constant")];
    params.extend(widening_params());
    AgentFactory::new(name, about, params, move |params, seed| {
        let config = IsmctsConfig {
            exploration: params.get_in("c", 0.0..=100.0)?,
            widening: widening_config(params)?,
        };
        Ok(Box::new(Ismcts::new(config, make(params)?, seed)))
    })
}

/// Determinized search ([`crate::determinized`]): `inner` searches several re-dealt worlds and
/// they vote. Takes `inner`'s parameters and `worlds`.
pub fn determinized<G: Game>(
    name: &'static str,
    about: &'static str,
    inner: AgentFactory<G>,
) -> AgentFactory<G> {
    let mut params = inner.params.clone();
    params.push(ParamInfo::new("worlds", 8, "re-dealt worlds searched, each with a share of the budget"));
    AgentFactory::new(name, about, params, move |params, seed| {
        let worlds = params.get_in("worlds", 1..=1000)?;
        let agent = inner.build_from(params, derive_seed(seed, 1))?;
        Ok(Box::new(Determinized::new(agent, worlds, seed)))
    })
}

/// Online Evolutionary Planning ([`crate::evolution`]): whole turns evolved and judged by the
/// game's evaluator at the turn's end.
pub fn evolution<G, E>(
    name: &'static str,
    about: &'static str,
    make: impl Fn(&Params) -> Result<E, Error> + Send + Sync + 'static,
) -> AgentFactory<G>
where
    G: Game + PartialEq,
    E: Evaluator<G> + 'static,
{
    let d = EvolutionConfig::default();
    let params = vec![
        ParamInfo::new("population", d.population, "turns in the population"),
        ParamInfo::new("kill", d.kill_rate, "share of the population replaced each generation"),
        ParamInfo::new("mutation", d.mutation_rate, "probability that a child has one action drawn anew"),
        ParamInfo::new("max_turn", d.max_turn, "most actions in one turn"),
    ];
    AgentFactory::new(name, about, params, move |params, seed| {
        let config = EvolutionConfig {
            population: params.get_in("population", 2..=100_000)?,
            kill_rate: params.get_in("kill", 0.0..=0.99)?,
            mutation_rate: params.get_in("mutation", 0.0..=1.0)?,
            max_turn: params.get_in("max_turn", 1..=100_000)?,
        };
        Ok(Box::new(Evolution::new(config, make(params)?, seed)))
    })
}

pub fn mcts_params<G: Game>() -> Vec<ParamInfo> {
    let d = MctsConfig::default();
    let mut params = vec![
        ParamInfo::new("c", d.exploration, "UCB exploration constant"),
        ParamInfo::new("expand", d.expand_threshold, "visits before a leaf is expanded"),
        ParamInfo::new("rollout", "end", "playout length before the evaluator scores it: a number, or 'end'"),
        ParamInfo::new("final", "visits", "final move: 'visits' (most visited) or 'mean' (best mean)"),
        ParamInfo::new("threads", d.threads, "trees searched in parallel (root parallelism)")
            .costs(Resource::Threads),
        ParamInfo::new("reuse", d.reuse, "keep the relevant subtree between moves"),
        ParamInfo::new("nodes", d.max_nodes, "most nodes per tree")
            .costs(Resource::PerThreadItems { item_bytes: node_bytes::<G::Action>() }),
        ParamInfo::new(
            "chance",
            "sample",
            "descent through chance nodes: 'sample' (by probability) or 'balanced' (each outcome visited in proportion to its probability)",
        ),
        ParamInfo::new(
            "prior",
            d.prior_visits,
            "virtual visits scored by the evaluator for every new move (0: none)",
        ),
        ParamInfo::new(
            "mix",
            d.leaf_mix,
            "weight of the evaluator's score of a leaf in its playout result (0: none)",
        ),
    ];
    params.extend(widening_params());
    params
}

/// Progressive widening's parameters, the same for MCTS and ISMCTS; off unless `widen` is set.
fn widening_params() -> Vec<ParamInfo> {
    vec![
        ParamInfo::new(
            "widen",
            0,
            "progressive widening: a node on its n-th visit has at most max(1, widen * n^widen_exp) children, its other actions wait untried (0: off, every child at once)",
        ),
        ParamInfo::new("widen_exp", 0.5, "the exponent of progressive widening (with widen > 0)"),
    ]
}

fn widening_config(params: &Params) -> Result<Option<Widening>, Error> {
    let base: f64 = params.get_in("widen", 0.0..=1e9)?;
    let exponent = params.get_in("widen_exp", 0.0..=1.0)?;
    Ok((base > 0.0).then_some(Widening { base, exponent }))
}

pub fn mcts_config(params: &Params) -> Result<MctsConfig, Error> {
    let rollout_limit = match params.raw("rollout") {
        "end" => None,
        _ => Some(params.get_in("rollout", 0..=u32::MAX)?),
    };
    let final_choice = match params.get_choice("final", &["visits", "mean"])? {
        "visits" => FinalChoice::MostVisits,
        _ => FinalChoice::BestMean,
    };
    Ok(MctsConfig {
        exploration: params.get_in("c", 0.0..=100.0)?,
        expand_threshold: params.get_in("expand", 0..=1_000_000)?,
        rollout_limit,
        final_choice,
        threads: params.get_in("threads", 1..=256)?,
        reuse: params.get_bool("reuse")?,
        max_nodes: params.get_in("nodes", 1..=1usize << 32)?,
        chance: match params.get_choice("chance", &["sample", "balanced"])? {
            "sample" => ChanceDescent::Sample,
            _ => ChanceDescent::Balanced,
        },
        prior_visits: params.get_in("prior", 0..=1_000_000)?,
        leaf_mix: params.get_in("mix", 0.0..=1.0)?,
        widening: widening_config(params)?,
    })
}

/// An MCTS agent. `make` builds the game's evaluator (used when playouts are cut short) and
/// rollout policy from the parameters, `extra` declares the parameters it reads.
pub fn mcts<G, E, R>(
    name: &'static str,
    about: &'static str,
    extra: Vec<ParamInfo>,
    make: impl Fn(&Params) -> Result<(E, R), Error> + Send + Sync + 'static,
) -> AgentFactory<G>
where
    G: Game + PartialEq,
    E: Evaluator<G> + 'static,
    R: RolloutPolicy<G> + 'static,
{
    let mut params = mcts_params::<G>();
    params.extend(extra);
    AgentFactory::new(name, about, params, move |params, seed| {
        let config = mcts_config(params)?;
        let (eval, rollout) = make(params)?;
        Ok(Box::new(Mcts::new(config, eval, rollout, seed)))
    })
}

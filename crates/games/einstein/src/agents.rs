//! EinStein's players and what they share: every agent searches the game in progress on its own
//! ([`Einstein::current_game`]: winning it is all a move can do for a match) and chooses its
//! arrangement, when setups are chosen, by simulation.

use ply_core::rng::{Rng, derive_seed, rng_from_seed};
use ply_core::{
    Agent, AgentFactory, Decision, Error, Game, Limits, ParamInfo, Params, Player, Resource, SearchInfo,
    random_playout,
};
use ply_search::{AlphaBeta, Evaluator, Mcts, MoveOrderer, RolloutPolicy, factories};
use rand::RngExt;
use std::sync::Arc;

use crate::rules::{Action, Einstein, GOAL, Phase, SetupMode, TARGETS};
use crate::setup::SETUPS;
use crate::threat::QuiescentRaceEval;
use crate::uct::{FinalRule, PatentUct, PatentUctConfig};
use crate::value::net::ValueNet;
use crate::value::{self, NetEval};

/// Wraps a move-playing agent: arrangements by [`choose_setup`], moves by the inner agent on the
/// game in progress.
pub struct EinsteinAgent<A> {
    inner: A,
    rng: Rng,
}

impl<A> EinsteinAgent<A> {
    pub fn new(inner: A, seed: u64) -> Self {
        EinsteinAgent { inner, rng: rng_from_seed(derive_seed(seed, 0x5E7)) }
    }
}

impl<A: Agent<Einstein>> Agent<Einstein> for EinsteinAgent<A> {
    fn choose(
        &mut self,
        state: &Einstein,
        limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo<Action>),
    ) -> Decision<Action> {
        if state.phase() == Phase::Setup {
            return Decision::new(choose_setup(state, &mut self.rng));
        }
        self.inner.choose(&state.current_game(), limits, report)
    }
}

/// Picks an arrangement by successive halving over random games: every arrangement plays a few
/// random games (against a random arrangement of the opponent if it has not placed yet), the
/// better half plays more, and so on. About 18,000 random games, a few milliseconds.
pub fn choose_setup(state: &Einstein, rng: &mut Rng) -> Action {
    let side = state.side() as usize;
    let mut game = state.current_game();
    game.options.setup = SetupMode::Random;
    let mut candidates: Vec<(u16, f64)> = (0..SETUPS).map(|i| (i, 0.0)).collect();
    let mut games_each = 8;
    while candidates.len() > 1 {
        for candidate in candidates.iter_mut() {
            let mut wins = 0.0;
            for _ in 0..games_each {
                let mut g = game.clone();
                g.apply(Action::Setup(candidate.0));
                random_playout(&mut g, rng, usize::MAX);
                wins += g.returns().get(side);
            }
            candidate.1 = wins / games_each as f64;
        }
        candidates.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        candidates.truncate(candidates.len().div_ceil(8));
        games_each *= 8;
    }
    Action::Setup(candidates[0].0)
}

/// Winning moves first, then captures of enemy cubes, then moves toward the goal (the diagonal).
#[derive(Clone, Copy, Debug, Default)]
pub struct EinsteinOrder;

fn move_priority(state: &Einstein, action: Action) -> u8 {
    let Action::Move { dir, .. } = action else { return 0 };
    let side = state.side() as usize;
    let (_, to) = state.move_squares(action).expect("a move");
    if to == GOAL[side] as usize {
        return 0;
    }
    match state.cube_at(to) {
        Some((owner, _)) if owner as usize != side => {
            if state.cubes_left(owner) == 1 {
                0
            } else {
                1
            }
        }
        Some(_) => 3,
        None if dir % 3 == 2 => 2,
        None => 3,
    }
}

impl MoveOrderer<Einstein> for EinsteinOrder {
    fn order(&self, state: &Einstein, actions: &mut [Action]) {
        actions.sort_by_key(|&a| move_priority(state, a));
    }
}

/// Playout moves: uniformly random; taking a win when there is one (cheap, and it stops random
/// play from walking past a won game); or guided: a win, else mostly the move a simple rule
/// likes best (take an enemy cube, the nearer its goal the better; step diagonally; do not take
/// one's own cubes), sometimes a random one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EinsteinRollout {
    Random,
    TakeWins,
    Guided,
    /// A win, else mostly the move after which the race evaluation likes the mover's chances best.
    Race,
    /// As `Race`, less a penalty per die value on which the opponent could take the moved cube.
    SafeRace,
    /// A win, else mostly the move after which the value network gives the opponent the least.
    Net,
}

/// A playout policy: which moves, and how often (in 1/256ths) a guided, race or network playout
/// still moves at random instead.
#[derive(Clone, Debug)]
pub struct EinsteinPlayout {
    pub moves: EinsteinRollout,
    pub noise: u32,
    /// `SafeRace`: winning chance given up per die value (of six) that exposes the moved cube.
    pub danger: f64,
    /// `Net`: the network that judges the moves.
    pub net: Option<Arc<ValueNet>>,
}

/// For every square: on how many of the six die values the side to move's opponent could step
/// onto it next turn (with the opponent's cubes as they stand).
fn exposure(state: &Einstein) -> [u8; 25] {
    let opponent = state.side() ^ 1;
    let mut count = [0u8; 25];
    for die in 1..=6 {
        let mut reach = 0u32;
        for cube in crate::rules::movable_cubes(state.alive[opponent as usize], die) {
            let from = state.squares[opponent as usize][cube as usize - 1] as usize;
            for &to in &TARGETS[opponent as usize][from] {
                if to != crate::rules::NO_SQUARE {
                    reach |= 1 << to;
                }
            }
        }
        for (square, c) in count.iter_mut().enumerate() {
            *c += (reach >> square & 1) as u8;
        }
    }
    count
}

/// The default share of random moves in guided playouts, in 1/256ths.
pub const PLAYOUT_NOISE: u32 = 48;

fn guided_score(state: &Einstein, action: Action) -> i32 {
    let Action::Move { dir, .. } = action else { return 0 };
    let side = state.side() as usize;
    let (_, to) = state.move_squares(action).expect("a move");
    let mut score = if dir % 3 == 2 { 2 } else { 0 };
    match state.cube_at(to) {
        Some((owner, _)) if owner as usize != side => {
            let distance = crate::race::distance_to_goal(owner, to) as i32;
            score += 6 + 2 * (4 - distance);
        }
        Some(_) => score -= 4,
        None => {}
    }
    score
}

impl RolloutPolicy<Einstein> for EinsteinPlayout {
    fn choose(&self, state: &Einstein, actions: &[Action], rng: &mut Rng) -> Action {
        let moves = self.moves;
        if moves != EinsteinRollout::Random
            && let Some(&win) = actions.iter().find(|&&a| state.is_winning_move(a))
        {
            return win;
        }
        let race = matches!(moves, EinsteinRollout::Race | EinsteinRollout::SafeRace);
        if race && rng.random_range(0..256u32) >= self.noise {
            let scorer = crate::race::RaceScorer::new(state);
            let exposed = (moves == EinsteinRollout::SafeRace).then(|| exposure(state));
            let value = |action: Action| {
                let v = scorer.after(state, action);
                match (exposed, state.move_squares(action)) {
                    (Some(count), Some((_, to))) => v - self.danger * count[to] as f64 / 6.0,
                    _ => v,
                }
            };
            let mut best = (actions[0], value(actions[0]));
            for &action in &actions[1..] {
                let value = value(action);
                // Ties go to the later move, as `max_by` chose before.
                if value >= best.1 {
                    best = (action, value);
                }
            }
            return best.0;
        }
        if moves == EinsteinRollout::Net
            && let Some(net) = &self.net
            && rng.random_range(0..256u32) >= self.noise
        {
            return value::best_move(net, state, actions).0;
        }
        if moves == EinsteinRollout::Guided && rng.random_range(0..256u32) >= self.noise {
            let best = actions.iter().map(|&a| guided_score(state, a)).max().unwrap_or(0);
            let top: Vec<Action> =
                actions.iter().copied().filter(|&a| guided_score(state, a) == best).collect();
            return top[rng.random_range(0..top.len())];
        }
        actions[rng.random_range(0..actions.len())]
    }
}

fn wrap<A: Agent<Einstein> + 'static>(inner: A, seed: u64) -> Box<dyn Agent<Einstein>> {
    Box::new(EinsteinAgent::new(inner, seed))
}

pub fn all() -> Vec<AgentFactory<Einstein>> {
    let uct = AgentFactory::new(
        "uct",
        "the patent's UCT: dice cycled per node, cube then direction by UCB, bad moves pruned, best-of-5 simulations",
        vec![
            ParamInfo::new("c", 1.0, "UCB constant c in v + c*sqrt(2 ln N / n)"),
            ParamInfo::new("expand", 1, "simulations of a node before its children are created"),
            ParamInfo::new("best_of", 5, "random games per leaf simulation (odd; the majority decides)"),
            ParamInfo::new("final", "ucb", "move played: 'ucb' (the patent: largest UCB) or 'visits'"),
            ParamInfo::new("prune", true, "leave bad moves (the opponent wins on every die) out of the tree"),
        ],
        |p: &Params, seed| {
            let best_of: u32 = p.get_in("best_of", 1..=99)?;
            if best_of.is_multiple_of(2) {
                return Err(Error::spec(format!("uct: best_of must be odd, got {best_of}")));
            }
            let config = PatentUctConfig {
                c: p.get_in("c", 0.0..=100.0)?,
                expand_after: p.get_in("expand", 0..=1_000_000)?,
                best_of,
                final_rule: if p.get_choice("final", &["ucb", "visits"])? == "ucb" {
                    FinalRule::Ucb
                } else {
                    FinalRule::MostVisits
                },
                prune_bad: p.get_bool("prune")?,
            };
            Ok(wrap(PatentUct::new(config, seed), seed))
        },
    );
    let mut mcts_params = tuned_mcts_params(factories::mcts_params::<Einstein>());
    mcts_params.push(ParamInfo::new(
        "policy",
        "race",
        "playout moves: 'race' (a win, else mostly the best race move), 'guided' (a win, else mostly a capture or a diagonal step), 'safe' (race, avoiding squares the opponent can take), 'net' (a win, else mostly the value network's best move), 'wins' (a win, else random) or 'random'",
    ));
    mcts_params.push(ParamInfo::new(
        "noise",
        PLAYOUT_NOISE,
        "random moves in race and guided playouts, in 1/256ths",
    ));
    mcts_params.push(ParamInfo::new(
        "danger",
        0.15,
        "'safe' playouts: winning chance given up per die value (of six) on which the moved cube can be taken",
    ));
    mcts_params.extend(eval_params("race"));
    let mcts = AgentFactory::new(
        "mcts",
        "MCTS with true chance nodes, playouts guided by the race evaluation, multi-threaded (threads=N), tree reuse",
        mcts_params,
        move |p, seed| {
            let config = factories::mcts_config(p)?;
            let moves = match p.get_choice("policy", &["wins", "guided", "race", "safe", "net", "random"])? {
                "safe" => EinsteinRollout::SafeRace,
                "net" => EinsteinRollout::Net,
                "wins" => EinsteinRollout::TakeWins,
                "guided" => EinsteinRollout::Guided,
                "race" => EinsteinRollout::Race,
                _ => EinsteinRollout::Random,
            };
            let net = (moves == EinsteinRollout::Net).then(|| chosen_net(p)).transpose()?;
            let policy = EinsteinPlayout {
                moves,
                noise: p.get_in("noise", 0..=256)?,
                danger: p.get_in("danger", 0.0..=1.0)?,
                net,
            };
            Ok(wrap(Mcts::new(config, chosen_eval(p)?, policy, seed), seed))
        },
    );
    let expectimax = AgentFactory::new(
        "expectimax",
        "*-minimax through the die with iterative deepening, transposition table and the value network (or the race evaluation)",
        {
            let mut params = factories::alphabeta_params::<Einstein>();
            params.extend(eval_params("net"));
            // The network estimates winning chances: leaves weigh what they are worth next to won
            // and lost games (+68 Elo at 30 ms against the rank scale with the race evaluation).
            set_default(&mut params, "scale", "expected");
            params
        },
        |p, seed| {
            let config = factories::alphabeta_config(p)?;
            Ok(wrap(AlphaBeta::new(config, chosen_eval(p)?, EinsteinOrder), seed))
        },
    );
    let random = AgentFactory::new(
        "random",
        "plays a uniformly random legal move (and arrangement)",
        vec![],
        |_, seed| Ok(Box::new(ply_search::RandomAgent::new(seed))),
    );
    vec![uct, mcts, expectimax, random]
}

fn eval_params(default_eval: &str) -> [ParamInfo; 3] {
    [
        ParamInfo::new(
            "eval",
            default_eval,
            "evaluation: 'race' (the race evaluation) or 'net' (the value network)",
        ),
        ParamInfo::new(
            "net",
            "shipped",
            "value network for eval=net and policy=net: 'shipped' (built in) or a file",
        )
        .costs(Resource::File { builtin: &["shipped"] }),
        ParamInfo::new(
            "quiesce",
            0,
            "eval=race: captures the evaluation looks ahead at a leaf (0: the plain race)",
        ),
    ]
}

/// The evaluation an agent searches with.
#[derive(Clone, Debug)]
pub enum EinsteinEval {
    Race(QuiescentRaceEval),
    Net(NetEval),
}

impl Evaluator<Einstein> for EinsteinEval {
    fn evaluate(&self, state: &Einstein, player: Player) -> f64 {
        match self {
            EinsteinEval::Race(race) => race.evaluate(state, player),
            EinsteinEval::Net(net) => net.evaluate(state, player),
        }
    }
}

fn chosen_eval(p: &Params) -> Result<EinsteinEval, Error> {
    let quiesce = p.get_in("quiesce", 0..=8)?;
    match p.get_choice("eval", &["race", "net"])? {
        "race" => Ok(EinsteinEval::Race(QuiescentRaceEval { depth: quiesce })),
        _ => Ok(EinsteinEval::Net(NetEval::new(chosen_net(p)?))),
    }
}

fn chosen_net(p: &Params) -> Result<Arc<ValueNet>, Error> {
    match p.raw("net") {
        "shipped" => Ok(value::shipped()),
        path => Ok(Arc::new(value::load(path)?)),
    }
}

fn set_default(params: &mut [ParamInfo], name: &str, value: &str) {
    let param = params.iter_mut().find(|p| p.name == name).expect("a declared parameter");
    param.default = value.to_string();
}

/// The generic MCTS parameters with defaults tuned for EinStein.
fn tuned_mcts_params(mut params: Vec<ParamInfo>) -> Vec<ParamInfo> {
    set_default(&mut params, "c", "0.5");
    params
}

//! Playing one game between agents.

use ply_core::rng::{derive_seed, rng_from_seed};
use ply_core::{AgentSpec, Budget, BuiltAgent, Error, GameDef, Limits, StopFlag, Turn, TurnBudget};

use crate::record::GameRecord;

/// Everything that defines one game of a match.
#[derive(Clone, Debug)]
pub struct GameSetup<'a> {
    pub options: &'a str,
    pub index: u64,
    /// Chance outcomes and the random opening come from this seed: the two games of a pair share
    /// it, so both sides see the same opening and the same dice.
    pub seed: u64,
    /// The spec in each seat, and which of the match's agents it is (its seed follows the agent,
    /// not the seat).
    pub seats: Vec<(&'a AgentSpec, usize)>,
    /// Per turn: a turn of several decisions shares it out ([`TurnBudget`]).
    pub budget: Budget,
    /// Random opening moves, if not the game's own number ([`GameDef::opening_plies`]).
    pub openings: Option<usize>,
    /// The run's stop request ([`crate::RunOptions::stop`]): it ends the agent's search at once
    /// and the game with an error before its next move.
    pub stop: StopFlag,
}

/// Seeds of the three independent random streams of a game.
const CHANCE_STREAM: u64 = 0;
const OPENING_STREAM: u64 = 1;
const AGENT_STREAM: u64 = 2;
/// Re-deals what a seat cannot see, in games with hidden information.
const VIEW_STREAM: u64 = 3;

pub fn play_game<G: GameDef>(setup: &GameSetup) -> Result<GameRecord, Error> {
    let mut state = G::new_from_text_options(setup.options)?;
    if setup.seats.len() != state.num_players() {
        return Err(Error::spec(format!(
            "{} needs {} players, got {} agents' seats",
            G::NAME,
            state.num_players(),
            setup.seats.len()
        )));
    }
    let mut agents: Vec<BuiltAgent<G>> = setup
        .seats
        .iter()
        .map(|&(spec, agent_index)| {
            G::build_agent(spec, derive_seed(derive_seed(setup.seed, AGENT_STREAM), agent_index as u64))
        })
        .collect::<Result<_, _>>()?;
    let mut chance_rng = rng_from_seed(derive_seed(setup.seed, CHANCE_STREAM));
    let mut opening_rng = rng_from_seed(derive_seed(setup.seed, OPENING_STREAM));
    let mut view_rng = rng_from_seed(derive_seed(setup.seed, VIEW_STREAM));
    let opening_plies = setup.openings.unwrap_or_else(|| state.opening_plies());
    let mut actions = Vec::new();
    let mut player_moves = 0;
    let mut turns = vec![TurnBudget::default(); agents.len()];
    loop {
        if setup.stop.is_stopped() {
            return Err(Error::illegal("the run was stopped"));
        }
        let action = match state.turn() {
            Turn::Over => break,
            Turn::Chance => state.sample_chance(&mut chance_rng),
            Turn::Player(p) => {
                player_moves += 1;
                if player_moves <= opening_plies {
                    state.opening_action(&mut opening_rng)
                } else {
                    let seat = &mut agents[p];
                    let full = seat.budget.or(setup.budget);
                    let budget =
                        turns[p].decision(full, state.continues_turn(), state.decisions_left_in_turn());
                    let started = std::time::Instant::now();
                    // An agent sees only what its seat may: the rest is re-dealt for it.
                    let resampled;
                    let view = if G::HIDDEN_INFORMATION {
                        resampled = state.resample_hidden(p, &mut view_rng);
                        &resampled
                    } else {
                        &state
                    };
                    let decision =
                        seat.agent.choose(view, &Limits { budget, stop: setup.stop.clone() }, &mut |_| {});
                    turns[p].spent(decision.info.iterations, started.elapsed());
                    if !state.is_legal(decision.action) {
                        return Err(Error::illegal(format!(
                            "agent {} chose {} in {}",
                            setup.seats[p].0,
                            state.action_to_text(decision.action),
                            state.to_text()
                        )));
                    }
                    decision.action
                }
            }
        };
        actions.push(state.action_to_text(action));
        state.apply(action);
    }
    Ok(GameRecord {
        game: G::NAME.to_string(),
        options: setup.options.to_string(),
        index: setup.index,
        seed: Some(setup.seed),
        seats: setup.seats.iter().map(|(spec, _)| spec.to_string()).collect(),
        opening_plies,
        actions,
        returns: state.returns().as_slice().to_vec(),
        final_state: state.to_text(),
        ..GameRecord::default()
    })
}

/// Replays a record's actions from the start, checking each; returns the final state.
pub fn replay<G: GameDef>(record: &GameRecord) -> Result<G, Error> {
    let mut state = G::new_from_text_options(&record.options)?;
    for (i, text) in record.actions.iter().enumerate() {
        state.play_text(text).map_err(|e| e.context(format!("action {} '{text}'", i + 1)))?;
    }
    Ok(state)
}

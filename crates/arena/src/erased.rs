//! Games chosen by name at run time. The CLI, the engine protocol and the web server hold games
//! as `Box<dyn DynGame>` and positions as `Box<dyn DynState>`, and speak to them in the games'
//! text and JSON notation; everything below this layer is generic and monomorphised.

use std::any::Any;
use std::marker::PhantomData;

use ply_core::rng::Rng;
use ply_core::{AgentSpec, Budget, Decision, Error, Game, GameDef, Limits, ParamInfo, SearchInfo, Turn};
use serde_json::Value;

use crate::bench::{BenchReport, run_bench};
use crate::ffa::{FfaPlan, FfaReport, ffa_plan, play_ffa_batch, run_ffa};
use crate::record::GameRecord;
use crate::runner::{
    MatchReport, RunOptions, SprtReport, TournamentReport, play_batch, run_match, run_sprt, run_tournament,
};
use crate::stats::Sprt;
use crate::tune::{Checkpoint, Tuner, play_tune_game, run_tune};
use ply_search::genetic::{GenerationReport, GeneticConfig, TuneGame, TuneResult};

/// An agent kind as listed by `ply agents`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentInfo {
    pub name: &'static str,
    pub about: &'static str,
    pub params: Vec<ParamInfo>,
}

/// A game, by name.
pub trait DynGame: Send + Sync {
    fn name(&self) -> &'static str;
    fn about(&self) -> &'static str;
    fn options(&self) -> Vec<ParamInfo>;
    fn agents(&self) -> Vec<AgentInfo>;
    /// Random opening moves per arena game with the default options.
    fn opening_plies(&self) -> usize;
    /// The start position for options given as `key=value,...`.
    fn new_state(&self, options: &str) -> Result<Box<dyn DynState>, Error>;
    fn new_agent(&self, spec: &AgentSpec, seed: u64) -> Result<Box<dyn DynAgent>, Error>;
    fn run_match(&self, specs: [&AgentSpec; 2], options: &RunOptions) -> Result<MatchReport, Error>;
    fn run_tournament(&self, specs: &[AgentSpec], options: &RunOptions) -> Result<TournamentReport, Error>;
    /// Games `indices` of pairing `pairing` of a match or tournament (see [`crate::runner::play_batch`]).
    fn play_batch(
        &self,
        specs: [&AgentSpec; 2],
        pairing: u64,
        indices: std::ops::Range<u64>,
        options: &RunOptions,
    ) -> Result<Vec<GameRecord>, Error>;
    /// All agents at one table, seats rotated (see [`crate::ffa`]).
    fn run_ffa(
        &self,
        specs: &[AgentSpec],
        all_orders: bool,
        options: &RunOptions,
    ) -> Result<FfaReport, Error>;
    /// A free-for-all's games, checked (see [`crate::ffa::ffa_plan`]).
    fn ffa_plan(&self, specs: &[AgentSpec], all_orders: bool, options: &RunOptions)
    -> Result<FfaPlan, Error>;
    /// Games `indices` of a free-for-all (see [`crate::ffa::play_ffa_batch`]).
    fn play_ffa_batch(
        &self,
        specs: &[AgentSpec],
        all_orders: bool,
        indices: std::ops::Range<u64>,
        options: &RunOptions,
    ) -> Result<Vec<GameRecord>, Error>;
    fn run_sprt(&self, specs: [&AgentSpec; 2], sprt: Sprt, options: &RunOptions)
    -> Result<SprtReport, Error>;
    fn bench(&self) -> Result<BenchReport, Error>;
    /// Evolves the weight vector in parameter `param` of `spec`, keeping and resuming a
    /// checkpoint if given (see [`crate::tune`]).
    fn tune(
        &self,
        spec: &AgentSpec,
        param: &str,
        config: &GeneticConfig,
        options: &RunOptions,
        checkpoint: Option<&Checkpoint>,
        progress: &mut (dyn FnMut(&GenerationReport) + Send),
    ) -> Result<TuneResult, Error>;
    /// A tuning run to be played a generation at a time (see [`crate::tune::Tuner`]).
    fn tuner(
        &self,
        spec: &AgentSpec,
        param: &str,
        config: &GeneticConfig,
        options: &RunOptions,
        checkpoint: Option<&Checkpoint>,
    ) -> Result<Tuner, Error>;
    /// One game of a tuning run (see [`crate::tune::play_tune_game`]).
    fn play_tune_game(
        &self,
        spec: &AgentSpec,
        param: &str,
        options: &RunOptions,
        game: &TuneGame,
    ) -> Result<f64, String>;
}

/// A position of some game, handled through notation.
pub trait DynState: Send + Sync {
    fn game(&self) -> &'static str;
    fn num_players(&self) -> usize;
    fn turn(&self) -> Turn;
    /// See [`Game::continues_turn`].
    fn continues_turn(&self) -> bool;
    /// See [`Game::decisions_left_in_turn`].
    fn decisions_left_in_turn(&self) -> Option<u32>;
    /// Whether players see different things ([`Game::HIDDEN_INFORMATION`]).
    fn hidden_information(&self) -> bool;
    /// What `viewer` (a seat, or `None` for a spectator) sees of the state, as text and JSON.
    fn observation_text(&self, viewer: Option<usize>) -> String;
    fn observation_json(&self, viewer: Option<usize>) -> Value;
    /// How an action (text), about to be played here, looks to `viewer`.
    fn action_observation(&self, action: &str, viewer: Option<usize>) -> Result<String, Error>;
    /// The state re-dealt for `viewer` ([`Game::resample_hidden`]): what an agent in that seat
    /// may be handed.
    fn resample_hidden(&self, viewer: usize, rng: &mut Rng) -> Box<dyn DynState>;
    /// The player to move before each action of `line` played from here (`None` before a
    /// chance outcome), as far as the line can be played: who a search's best line has moving.
    fn movers(&self, line: &[String]) -> Vec<Option<usize>>;
    /// Legal moves in text form (empty unless a player is to move).
    fn legal_actions(&self) -> Vec<String>;
    /// Chance outcomes in text form with their probabilities.
    fn chance_outcomes(&self) -> Vec<(String, f64)>;
    /// Plays an action in text form after checking it; returns its canonical text. On error the
    /// position is unchanged.
    fn play(&mut self, action: &str) -> Result<String, Error>;
    /// Plays an action in JSON form; returns its canonical text.
    fn play_json(&mut self, action: &Value) -> Result<String, Error>;
    /// Draws an outcome of the pending chance event.
    fn sample_chance(&self, rng: &mut Rng) -> Result<String, Error>;
    /// The action in JSON form, from its text form.
    fn action_json(&self, action: &str) -> Result<Value, Error>;
    /// Every player's score once the game is over.
    fn returns(&self) -> Option<Vec<f64>>;
    fn to_text(&self) -> String;
    fn to_json(&self) -> Value;
    /// What stays the same through the game, for a page to draw (a map), or `Null`
    /// ([`Game::board_json`]).
    fn board_json(&self) -> Value;
    /// Replaces the position with one in text form (the game's options stay).
    fn set_text(&mut self, text: &str) -> Result<(), Error>;
    fn set_json(&mut self, json: &Value) -> Result<(), Error>;
    /// Action sequences of length `depth` from here (see [`ply_core::perft`]).
    fn perft(&self, depth: u32) -> u64;
    fn clone_box(&self) -> Box<dyn DynState>;
    fn as_any(&self) -> &dyn Any;
}

/// An agent for some game. It thinks within the limits it is handed; its spec's own budget
/// (`time=`, `iters=`, from [`DynAgent::budget`]) is the caller's to apply — usually over any
/// other (`agent.budget().or(fallback)`), and shared out over a turn of several decisions.
pub trait DynAgent: Send {
    fn choose(
        &mut self,
        state: &dyn DynState,
        limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo<String>),
    ) -> Result<Decision<String>, Error>;
    fn budget(&self) -> Budget;
    /// Thinks about `state` while another player is to move ([`ply_core::Agent::ponder`]).
    fn ponder(&mut self, _state: &dyn DynState, _limits: &Limits) -> Result<(), Error> {
        Ok(())
    }
    fn ponders(&self) -> bool {
        false
    }
}

/// The registry entry of game `G`.
pub fn entry<G: GameDef>() -> Box<dyn DynGame> {
    Box::new(Registered::<G>(PhantomData))
}

struct Registered<G>(PhantomData<fn() -> G>);

impl<G: GameDef> DynGame for Registered<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn about(&self) -> &'static str {
        G::ABOUT
    }
    fn options(&self) -> Vec<ParamInfo> {
        G::options()
    }
    fn agents(&self) -> Vec<AgentInfo> {
        G::agents()
            .into_iter()
            .map(|f| AgentInfo { name: f.name, about: f.about, params: f.all_params() })
            .collect()
    }
    fn opening_plies(&self) -> usize {
        G::new_from_text_options("").map(|state| state.opening_plies()).unwrap_or(0)
    }
    fn new_state(&self, options: &str) -> Result<Box<dyn DynState>, Error> {
        Ok(Box::new(G::new_from_text_options(options)?))
    }
    fn new_agent(&self, spec: &AgentSpec, seed: u64) -> Result<Box<dyn DynAgent>, Error> {
        let built = G::build_agent(spec, seed)?;
        Ok(Box::new(ErasedAgent::<G> { agent: built.agent, budget: built.budget }))
    }
    fn run_match(&self, specs: [&AgentSpec; 2], options: &RunOptions) -> Result<MatchReport, Error> {
        run_match::<G>(specs, options)
    }
    fn run_tournament(&self, specs: &[AgentSpec], options: &RunOptions) -> Result<TournamentReport, Error> {
        run_tournament::<G>(specs, options)
    }
    fn play_batch(
        &self,
        specs: [&AgentSpec; 2],
        pairing: u64,
        indices: std::ops::Range<u64>,
        options: &RunOptions,
    ) -> Result<Vec<GameRecord>, Error> {
        play_batch::<G>(specs, pairing, indices, options)
    }
    fn run_ffa(
        &self,
        specs: &[AgentSpec],
        all_orders: bool,
        options: &RunOptions,
    ) -> Result<FfaReport, Error> {
        run_ffa::<G>(specs, all_orders, options)
    }
    fn ffa_plan(
        &self,
        specs: &[AgentSpec],
        all_orders: bool,
        options: &RunOptions,
    ) -> Result<FfaPlan, Error> {
        ffa_plan::<G>(specs, all_orders, options)
    }
    fn play_ffa_batch(
        &self,
        specs: &[AgentSpec],
        all_orders: bool,
        indices: std::ops::Range<u64>,
        options: &RunOptions,
    ) -> Result<Vec<GameRecord>, Error> {
        play_ffa_batch::<G>(specs, all_orders, indices, options)
    }
    fn run_sprt(
        &self,
        specs: [&AgentSpec; 2],
        sprt: Sprt,
        options: &RunOptions,
    ) -> Result<SprtReport, Error> {
        run_sprt::<G>(specs, sprt, options)
    }
    fn bench(&self) -> Result<BenchReport, Error> {
        run_bench::<G>()
    }
    fn tune(
        &self,
        spec: &AgentSpec,
        param: &str,
        config: &GeneticConfig,
        options: &RunOptions,
        checkpoint: Option<&Checkpoint>,
        progress: &mut (dyn FnMut(&GenerationReport) + Send),
    ) -> Result<TuneResult, Error> {
        run_tune::<G>(spec, param, config, options, checkpoint, progress)
    }
    fn tuner(
        &self,
        spec: &AgentSpec,
        param: &str,
        config: &GeneticConfig,
        options: &RunOptions,
        checkpoint: Option<&Checkpoint>,
    ) -> Result<Tuner, Error> {
        Tuner::new::<G>(spec, param, config, options, checkpoint)
    }
    fn play_tune_game(
        &self,
        spec: &AgentSpec,
        param: &str,
        options: &RunOptions,
        game: &TuneGame,
    ) -> Result<f64, String> {
        play_tune_game::<G>(spec, param, options, game)
    }
}

impl<G: GameDef> DynState for G {
    fn game(&self) -> &'static str {
        G::NAME
    }
    fn num_players(&self) -> usize {
        Game::num_players(self)
    }
    fn turn(&self) -> Turn {
        Game::turn(self)
    }
    fn continues_turn(&self) -> bool {
        Game::continues_turn(self)
    }
    fn decisions_left_in_turn(&self) -> Option<u32> {
        Game::decisions_left_in_turn(self)
    }
    fn hidden_information(&self) -> bool {
        G::HIDDEN_INFORMATION
    }
    fn observation_text(&self, viewer: Option<usize>) -> String {
        Game::observation_text(self, viewer)
    }
    fn observation_json(&self, viewer: Option<usize>) -> Value {
        Game::observation_json(self, viewer)
    }
    fn action_observation(&self, action: &str, viewer: Option<usize>) -> Result<String, Error> {
        Ok(Game::action_observation(self, self.parse_action(action)?, viewer))
    }
    fn resample_hidden(&self, viewer: usize, rng: &mut Rng) -> Box<dyn DynState> {
        Box::new(Game::resample_hidden(self, viewer, rng))
    }
    fn movers(&self, line: &[String]) -> Vec<Option<usize>> {
        let mut state = self.clone();
        let mut movers = Vec::new();
        for text in line {
            let mover = state.current_player();
            if state.play_text(text).is_err() {
                break;
            }
            movers.push(mover);
        }
        movers
    }
    fn legal_actions(&self) -> Vec<String> {
        self.actions().into_iter().map(|a| self.action_to_text(a)).collect()
    }
    fn chance_outcomes(&self) -> Vec<(String, f64)> {
        self.outcomes().into_iter().map(|(a, p)| (self.action_to_text(a), p)).collect()
    }
    fn play(&mut self, action: &str) -> Result<String, Error> {
        let action = self.parse_action(action)?;
        let text = self.action_to_text(action);
        Game::play(self, action)?;
        Ok(text)
    }
    fn play_json(&mut self, action: &Value) -> Result<String, Error> {
        let action = self.action_from_json(action)?;
        let text = self.action_to_text(action);
        Game::play(self, action)?;
        Ok(text)
    }
    fn sample_chance(&self, rng: &mut Rng) -> Result<String, Error> {
        if Game::turn(self) != Turn::Chance {
            return Err(Error::illegal("no chance event is pending"));
        }
        Ok(self.action_to_text(Game::sample_chance(self, rng)))
    }
    fn action_json(&self, action: &str) -> Result<Value, Error> {
        Ok(self.action_to_json(self.parse_action(action)?))
    }
    fn returns(&self) -> Option<Vec<f64>> {
        self.is_over().then(|| Game::returns(self).as_slice().to_vec())
    }
    fn to_text(&self) -> String {
        Game::to_text(self)
    }
    fn to_json(&self) -> Value {
        Game::to_json(self)
    }
    fn board_json(&self) -> Value {
        Game::board_json(self)
    }
    fn set_text(&mut self, text: &str) -> Result<(), Error> {
        *self = self.parse_state(text)?;
        Ok(())
    }
    fn set_json(&mut self, json: &Value) -> Result<(), Error> {
        *self = self.state_from_json(json)?;
        Ok(())
    }
    fn perft(&self, depth: u32) -> u64 {
        ply_core::perft(self, depth)
    }
    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

struct ErasedAgent<G: Game> {
    agent: Box<dyn ply_core::Agent<G>>,
    budget: Budget,
}

impl<G: GameDef> DynAgent for ErasedAgent<G> {
    fn choose(
        &mut self,
        state: &dyn DynState,
        limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo<String>),
    ) -> Result<Decision<String>, Error> {
        let state = state
            .as_any()
            .downcast_ref::<G>()
            .ok_or_else(|| Error::spec(format!("this agent plays {}, not {}", G::NAME, state.game())))?;
        if state.current_player().is_none() {
            return Err(Error::illegal("no player is to move"));
        }
        let decision = self
            .agent
            .choose(state, limits, &mut |info| report(&info.map_actions(|a| state.action_to_text(*a))));
        let text_info = decision.info.map_actions(|a| state.action_to_text(*a));
        Ok(Decision { action: state.action_to_text(decision.action), info: text_info })
    }
    fn budget(&self) -> Budget {
        self.budget
    }
    fn ponder(&mut self, state: &dyn DynState, limits: &Limits) -> Result<(), Error> {
        let state = state
            .as_any()
            .downcast_ref::<G>()
            .ok_or_else(|| Error::spec(format!("this agent plays {}, not {}", G::NAME, state.game())))?;
        if state.current_player().is_some() {
            self.agent.ponder(state, limits);
        }
        Ok(())
    }
    fn ponders(&self) -> bool {
        self.agent.ponders()
    }
}

//! How games and agents are named and built at run time: agent specs (`mcts:iters=2000,c=1.2`),
//! agent factories, and the [`GameDef`] a game implements to be offered by name.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::agent::Agent;
use crate::budget::Budget;
use crate::error::Error;
use crate::game::Game;
use crate::params::{ParamInfo, Params};

/// `name[:key=value,...]`, parsed but not yet checked against an agent's parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentSpec {
    pub name: String,
    pub params: Vec<(String, String)>,
}

impl AgentSpec {
    pub fn parse(text: &str) -> Result<Self, Error> {
        let text = text.trim();
        let (name, rest) = match text.split_once(':') {
            Some((name, rest)) => (name.trim(), rest),
            None => (text, ""),
        };
        if name.is_empty() {
            return Err(Error::spec(format!("agent spec '{text}' has no agent name")));
        }
        if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            return Err(Error::spec(format!("'{name}' is not an agent name (letters, digits, - and _)")));
        }
        Ok(AgentSpec { name: name.to_string(), params: Params::parse_list(rest)? })
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        for (i, (key, value)) in self.params.iter().enumerate() {
            write!(f, "{}{key}={value}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

type BuildFn<G> = dyn Fn(&Params, u64) -> Result<Box<dyn Agent<G>>, Error> + Send + Sync;

/// Builds one kind of agent for game `G` from checked parameters and a seed.
pub struct AgentFactory<G: Game> {
    pub name: &'static str,
    pub about: &'static str,
    pub params: Vec<ParamInfo>,
    build: Arc<BuildFn<G>>,
}

impl<G: Game> Clone for AgentFactory<G> {
    fn clone(&self) -> Self {
        AgentFactory {
            name: self.name,
            about: self.about,
            params: self.params.clone(),
            build: self.build.clone(),
        }
    }
}

/// An agent built from a spec, with the thinking budget its spec asked for (if any).
pub struct BuiltAgent<G: Game> {
    pub agent: Box<dyn Agent<G>>,
    pub budget: Budget,
}

impl<G: Game> AgentFactory<G> {
    pub fn new(
        name: &'static str,
        about: &'static str,
        params: Vec<ParamInfo>,
        build: impl Fn(&Params, u64) -> Result<Box<dyn Agent<G>>, Error> + Send + Sync + 'static,
    ) -> Self {
        AgentFactory { name, about, params, build: Arc::new(build) }
    }

    /// The declared parameters plus `time` and `iters`, which every agent takes.
    pub fn all_params(&self) -> Vec<ParamInfo> {
        let mut all = self.params.clone();
        all.push(ParamInfo::new("time", "", "milliseconds per turn (overrides the command's budget)"));
        all.push(ParamInfo::new(
            "iters",
            "",
            "iterations per turn: nodes or simulations (overrides the command's budget)",
        ));
        all
    }

    /// Builds the agent from parameters already checked against a list that includes this
    /// factory's (a wrapper's, say, which adds its own).
    pub fn build_from(&self, params: &Params, seed: u64) -> Result<Box<dyn Agent<G>>, Error> {
        (self.build)(params, seed)
    }

    pub fn build(&self, spec: &AgentSpec, seed: u64) -> Result<BuiltAgent<G>, Error> {
        let params = Params::new(self.name, self.all_params(), spec.params.iter().cloned())?;
        let mut budget = Budget::default();
        if params.is_set("time") {
            budget.time = Some(Duration::from_millis(params.get_in("time", 1..=86_400_000u64)?));
        }
        if params.is_set("iters") {
            budget.iterations = Some(params.get_in("iters", 1..=u64::MAX)?);
        }
        Ok(BuiltAgent { agent: (self.build)(&params, seed)?, budget })
    }
}

/// One bench measurement: an agent searching a fixed position with a fixed iteration budget.
/// Searches that would always spend their whole budget say little as a signature, so depth-first
/// searches fix their depth in the spec and use `iterations` only as a safety cap.
#[derive(Clone, Debug)]
pub struct BenchCase {
    /// The position in the game's text form; empty for the start position.
    pub position: &'static str,
    pub agent: &'static str,
    pub iterations: u64,
}

/// What a game provides to be offered by name in the CLI, the engine protocol, the arena and the
/// web server. Adding a game to Ply means implementing [`Game`] and this, then adding one line to
/// the registry.
pub trait GameDef: Game {
    /// The name users type: lower case, no spaces.
    const NAME: &'static str;
    const ABOUT: &'static str;

    /// The game's options (board size, rule set, number of players) with defaults.
    fn options() -> Vec<ParamInfo>;

    /// The start position for the given options.
    fn new_game(options: &Params) -> Result<Self, Error>;

    /// The agents this game offers, generic ones included.
    fn agents() -> Vec<AgentFactory<Self>>;

    /// Fixed searches for `ply bench`.
    fn bench_cases() -> Vec<BenchCase> {
        Vec::new()
    }

    /// Random games from the start position for `ply bench` to time (0: none). Their total
    /// action count joins the bench signature.
    fn bench_random_games() -> u64 {
        0
    }

    /// Random moves at the start of each arena game pair, so that deterministic agents do not
    /// play the same game over and over.
    fn opening_plies(&self) -> usize {
        0
    }

    /// One random opening move: uniform over the legal moves unless the game knows better (a
    /// Gomoku opening stays near the centre).
    fn opening_action(&self, rng: &mut crate::rng::Rng) -> Self::Action {
        use rand::RngExt;
        let legal = self.actions();
        legal[rng.random_range(0..legal.len())]
    }

    // ----- provided -----

    fn parse_options(text: &str) -> Result<Params, Error> {
        Params::parse(format!("game {}", Self::NAME), Self::options(), text)
    }

    fn new_from_text_options(text: &str) -> Result<Self, Error> {
        Self::new_game(&Self::parse_options(text)?)
    }

    fn agent_factory(name: &str) -> Result<AgentFactory<Self>, Error> {
        let agents = Self::agents();
        let names: Vec<&str> = agents.iter().map(|a| a.name).collect();
        agents.iter().find(|a| a.name == name).cloned().ok_or_else(|| {
            Error::spec(format!("{} has no agent '{name}'; valid: {}", Self::NAME, names.join(", ")))
        })
    }

    fn build_agent(spec: &AgentSpec, seed: u64) -> Result<BuiltAgent<Self>, Error> {
        Self::agent_factory(&spec.name)?.build(spec, seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_print() {
        let spec = AgentSpec::parse("mcts:iters=2000,c=1.2").unwrap();
        assert_eq!(spec.name, "mcts");
        assert_eq!(spec.params, vec![("iters".into(), "2000".into()), ("c".into(), "1.2".into())]);
        assert_eq!(spec.to_string(), "mcts:iters=2000,c=1.2");
        assert_eq!(AgentSpec::parse("random").unwrap().params, vec![]);
        assert!(AgentSpec::parse(":c=1").is_err());
        assert!(AgentSpec::parse("mc ts").is_err());
        assert!(AgentSpec::parse("mcts:c").is_err());
    }
}

//! The engine line protocol (docs/engine-protocol.md): one command per line on stdin, replies on
//! stdout, for GUIs, bridges and scripts. Every command gets a reply; a bad line gets
//! `error <reason>` and the engine carries on with its position unchanged.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use ply_arena::{DynAgent, DynGame, DynState};
use ply_core::rng::{Rng, derive_seed, rng_from_seed};
use ply_core::{AgentSpec, Budget, Error, Limits, SearchInfo, StopFlag, Turn};

type Out = Arc<Mutex<Box<dyn Write + Send>>>;

fn say(out: &Out, line: &str) {
    let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
    // A closed stdout means nobody is listening; there is no one left to tell.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

const DEFAULT_BUDGET: Budget = Budget { time: Some(Duration::from_millis(1000)), iterations: None };

const HELP: &str = "\
commands:
  about                         engine and game identification
  new [key=value,...]           new game with options
  position start [moves A...]   set the start position, then play actions
  position text <T> [moves A...]  set a position in the game's text form
  position json <J>             set a position in the game's JSON form
  play <A> [A...]               play actions (moves or chance outcomes)
  roll                          draw and play the pending chance outcome
  legal                         list legal moves (or chance outcomes with probabilities)
  turn                          who acts next: player N, chance, or over with returns
  show                          the position as text and JSON, and the turn
  agents                        list the agents
  agent <spec>                  choose the agent, e.g. mcts:c=1.2
  seed <N>                      seed for agents and rolls
  go [iters N] [time MS]        think; prints info lines, then bestmove
  stop                          stop thinking now (bestmove, then ok)
  isready                       replies readyok
  quit                          leave";

struct Thinking {
    handle: JoinHandle<()>,
    stop: StopFlag,
    /// Set once the search has its answer, just before `bestmove` is printed: a client that has
    /// read `bestmove` may send its next command at once, before the thread has quite ended.
    answered: Arc<AtomicBool>,
}

struct Engine {
    game: Box<dyn DynGame>,
    options: String,
    state: Box<dyn DynState>,
    spec: AgentSpec,
    agent: Arc<Mutex<Box<dyn DynAgent>>>,
    seed: u64,
    agents_built: u64,
    rng: Rng,
    thinking: Option<Thinking>,
    out: Out,
}

pub fn run(
    game: Box<dyn DynGame>,
    options: &str,
    input: impl BufRead,
    output: impl Write + Send + 'static,
) -> Result<(), Error> {
    let out: Out = Arc::new(Mutex::new(Box::new(output)));
    let state = game.new_state(options)?;
    let spec = AgentSpec::parse(game.agents()[0].name)?;
    let seed = 1;
    let agent = game.new_agent(&spec, seed)?;
    let mut engine = Engine {
        game,
        options: options.to_string(),
        state,
        spec,
        agent: Arc::new(Mutex::new(agent)),
        seed,
        agents_built: 1,
        rng: rng_from_seed(seed),
        thinking: None,
        out,
    };
    for line in input.lines() {
        let Ok(line) = line else {
            say(&engine.out, "error input is not valid UTF-8 text");
            continue;
        };
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line == "quit" {
            engine.stop_thinking();
            return Ok(());
        }
        if let Err(e) = engine.command(line) {
            say(&engine.out, &format!("error {e}"));
        }
    }
    // End of input: let a search in progress finish and report, as a script piping commands
    // in expects.
    if let Some(thinking) = engine.thinking.take() {
        let _ = thinking.handle.join();
    }
    Ok(())
}

impl Engine {
    fn is_thinking(&mut self) -> bool {
        match &self.thinking {
            Some(t) if !t.answered.load(Ordering::SeqCst) && !t.handle.is_finished() => true,
            Some(_) => {
                let _ = self.thinking.take().map(|t| t.handle.join());
                false
            }
            None => false,
        }
    }

    fn stop_thinking(&mut self) {
        if let Some(thinking) = self.thinking.take() {
            thinking.stop.stop();
            let _ = thinking.handle.join();
        }
    }

    fn reply(&self, line: &str) {
        say(&self.out, line);
    }

    fn command(&mut self, line: &str) -> Result<(), Error> {
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        match word {
            "isready" => {
                self.reply("readyok");
                return Ok(());
            }
            "stop" => {
                // The search's `bestmove` is printed before its thread ends, so `ok` always comes
                // after it: a client reads up to `ok` whether the search was still thinking, had
                // just answered by itself, or had never started.
                self.stop_thinking();
                self.reply("ok");
                return Ok(());
            }
            "help" => {
                self.reply(HELP);
                self.reply("ok");
                return Ok(());
            }
            _ => {}
        }
        if self.is_thinking() {
            return Err(Error::spec(format!(
                "busy thinking: '{word}' must wait for bestmove (or send stop)"
            )));
        }
        match word {
            "about" => {
                self.reply(&format!("id name ply {}", env!("CARGO_PKG_VERSION")));
                self.reply(&format!("id game {}", self.game.name()));
                self.reply(&format!("id players {}", self.state.num_players()));
                self.reply(&format!("id agent {}", self.spec));
                self.reply("ok");
            }
            "new" => {
                let state = self.game.new_state(rest)?;
                self.state = state;
                self.options = rest.to_string();
                self.rebuild_agent()?;
                self.reply("ok");
            }
            "position" => self.position(rest)?,
            "play" => {
                if rest.is_empty() {
                    return Err(Error::notation("play needs at least one action"));
                }
                let played = self.play_all(rest.split_whitespace())?;
                self.reply(&format!("ok {}", played.join(" ")));
            }
            "roll" => {
                let outcome = self.state.sample_chance(&mut self.rng)?;
                self.state.play(&outcome)?;
                self.reply(&format!("ok {outcome}"));
            }
            "legal" => {
                let line = match self.state.turn() {
                    Turn::Chance => {
                        let outcomes: Vec<String> =
                            self.state.chance_outcomes().iter().map(|(a, p)| format!("{a}={p:.6}")).collect();
                        format!("chance {}", outcomes.join(" "))
                    }
                    _ => format!("legal {}", self.state.legal_actions().join(" ")),
                };
                self.reply(line.trim_end());
            }
            "turn" => self.reply(&self.turn_line()),
            "show" => {
                self.reply(&format!("position {}", self.state.to_text()));
                self.reply(&format!("json {}", self.state.to_json()));
                self.reply(&self.turn_line());
            }
            "agents" => {
                let names: Vec<&str> = self.game.agents().iter().map(|a| a.name).collect();
                self.reply(&format!("agents {}", names.join(" ")));
            }
            "agent" => {
                if rest.is_empty() {
                    return Err(Error::spec("agent needs a spec, e.g. agent mcts:c=1.2"));
                }
                let spec = AgentSpec::parse(rest)?;
                let agent = self.game.new_agent(&spec, derive_seed(self.seed, self.agents_built))?;
                self.agents_built += 1;
                self.spec = spec;
                self.agent = Arc::new(Mutex::new(agent));
                self.reply("ok");
            }
            "seed" => {
                let seed: u64 = rest
                    .parse()
                    .map_err(|_| Error::spec(format!("seed must be a whole number, got '{rest}'")))?;
                self.seed = seed;
                self.rng = rng_from_seed(seed);
                self.agents_built = 0;
                self.rebuild_agent()?;
                self.reply("ok");
            }
            "go" => self.go(rest)?,
            other => {
                return Err(Error::spec(format!("unknown command '{other}' (send help for the list)")));
            }
        }
        Ok(())
    }

    fn rebuild_agent(&mut self) -> Result<(), Error> {
        let agent = self.game.new_agent(&self.spec, derive_seed(self.seed, self.agents_built))?;
        self.agents_built += 1;
        self.agent = Arc::new(Mutex::new(agent));
        Ok(())
    }

    fn turn_line(&self) -> String {
        match self.state.turn() {
            Turn::Player(p) => format!("turn player {p}"),
            Turn::Chance => "turn chance".to_string(),
            Turn::Over => {
                let returns = self.state.returns().unwrap_or_default();
                let scores: Vec<String> = returns.iter().map(|r| format!("{r}")).collect();
                format!("turn over returns {}", scores.join(" "))
            }
        }
    }

    /// Plays actions on a copy and keeps it only if all of them are legal.
    fn play_all<'a>(&mut self, actions: impl Iterator<Item = &'a str>) -> Result<Vec<String>, Error> {
        let mut state = self.state.clone_box();
        let mut played = Vec::new();
        for (i, action) in actions.enumerate() {
            let text = state
                .play(action)
                .map_err(|e| Error::illegal(format!("action {} '{action}': {e}", i + 1)))?;
            played.push(text);
        }
        self.state = state;
        Ok(played)
    }

    fn position(&mut self, rest: &str) -> Result<(), Error> {
        let (kind, body) =
            rest.split_once(char::is_whitespace).map(|(k, b)| (k, b.trim())).unwrap_or((rest, ""));
        let mut state = self.game.new_state(&self.options)?;
        let moves = match kind {
            "start" => body
                .strip_prefix("moves")
                .map(str::trim)
                .map(str::to_string)
                .or_else(|| if body.is_empty() { Some(String::new()) } else { None }),
            "text" => {
                let (text, moves) = match body.split_once(" moves") {
                    Some((t, m)) => (t.trim(), m.trim()),
                    None => (body, ""),
                };
                state.set_text(text)?;
                Some(moves.to_string())
            }
            "json" => {
                let json: serde_json::Value =
                    serde_json::from_str(body).map_err(|e| Error::notation(format!("bad JSON: {e}")))?;
                state.set_json(&json)?;
                Some(String::new())
            }
            _ => return Err(Error::spec("position takes start, text <T> or json <J>")),
        };
        let Some(moves) = moves else {
            return Err(Error::spec("after 'position start' only 'moves A B ...' may follow"));
        };
        let previous = std::mem::replace(&mut self.state, state);
        if let Err(e) = self.play_all(moves.split_whitespace()) {
            self.state = previous;
            return Err(e);
        }
        self.reply("ok");
        Ok(())
    }

    fn go(&mut self, rest: &str) -> Result<(), Error> {
        let mut budget = Budget::default();
        let words: Vec<&str> = rest.split_whitespace().collect();
        for pair in words.chunks(2) {
            let [key, value] = pair else {
                return Err(Error::spec(format!("go: '{}' needs a value", pair[0])));
            };
            let n: u64 = value.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                Error::spec(format!("go: {key} needs a positive whole number, got '{value}'"))
            })?;
            match *key {
                "iters" => budget.iterations = Some(n),
                "time" => budget.time = Some(Duration::from_millis(n)),
                other => return Err(Error::spec(format!("go: unknown limit '{other}' (iters N, time MS)"))),
            }
        }
        match self.state.turn() {
            Turn::Player(_) => {}
            Turn::Chance => {
                return Err(Error::illegal("a chance event is pending: play its outcome or roll first"));
            }
            Turn::Over => return Err(Error::illegal("the game is over")),
        }
        let stop = StopFlag::new();
        let limits_stop = stop.clone();
        // The agent sees only what the seat to move may: the rest is re-dealt for it.
        let state = match self.state.turn() {
            Turn::Player(p) if self.state.hidden_information() => {
                self.state.resample_hidden(p, &mut self.rng)
            }
            _ => self.state.clone_box(),
        };
        let agent = self.agent.clone();
        let out = self.out.clone();
        let answered = Arc::new(AtomicBool::new(false));
        let answered_by_thread = answered.clone();
        let handle = std::thread::spawn(move || {
            let mut agent = agent.lock().unwrap_or_else(|e| e.into_inner());
            // The spec's own time= or iters= wins over go's limits.
            let limits = Limits { budget: agent.budget().or(budget).or(DEFAULT_BUDGET), stop: limits_stop };
            let mut report = |info: &SearchInfo<String>| say(&out, &info_line(info));
            let result = agent.choose(state.as_ref(), &limits, &mut report);
            drop(agent);
            answered_by_thread.store(true, Ordering::SeqCst);
            match result {
                Ok(decision) => {
                    say(&out, &info_line(&decision.info));
                    say(&out, &format!("bestmove {}", decision.action));
                }
                Err(e) => say(&out, &format!("error {e}")),
            }
        });
        self.thinking = Some(Thinking { handle, stop, answered });
        Ok(())
    }
}

fn info_line(info: &SearchInfo<String>) -> String {
    let mut line =
        format!("info depth {} iterations {} time {}", info.depth, info.iterations, info.elapsed.as_millis());
    if let Some(v) = info.value {
        line.push_str(&format!(" value {v:.4}"));
    }
    if let Some(p) = info.proven {
        line.push_str(&format!(" proven {p}"));
    }
    if !info.pv.is_empty() {
        line.push_str(&format!(" pv {}", info.pv.join(" ")));
    }
    line
}

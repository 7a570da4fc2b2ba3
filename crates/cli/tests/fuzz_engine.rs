//! Fuzzing the engine protocol (docs/engine-protocol.md; docs/architecture.md, Fuzzing): sessions
//! of every game made of valid command lines (positions, actions, options and agents from random
//! games), the same lines edited, and made-up text. Every line is answered without a panic; a
//! line refused with `error` leaves the position and the agent as they were; a search that was
//! started ends with `bestmove` or `error`; and after all of it the session still works.
//!
//! Each line is followed by `show`, `about` and `isready`, which bound its replies and record the
//! position and agent; `go` is followed by `stop`, so a search costs little whatever its limits.
//! `PROPTEST_CASES=5000 cargo test -p ply-cli --test fuzz_engine` runs longer.

use std::io::Write;
use std::sync::{Arc, Mutex};

use ply_arena::DynState;
use ply_core::fuzz::strategy::{config, edits, text};
use ply_core::fuzz::{Edit, apply_edits};
use ply_core::rng::{Rng, rng_from_seed};
use ply_core::{AgentSpec, Turn};
use proptest::prelude::*;
use rand::RngExt;

mod common;
use common::cheap_to_build;

const ALPHABET: &str = "abcdefghijklmnopqrstuvwxyz0123456789 ,.:;=/{}[]\"-_#";

/// The lines that follow every line of the session: their replies end its segment of output.
const TRAILER: [&str; 3] = ["show", "about", "isready"];
/// `show` gives 3 lines, `about` 5, `isready` 1.
const TRAILER_LINES: usize = 9;

/// Output shared with the engine, which wants a `Write + Send + 'static`.
#[derive(Clone, Default)]
struct Output(Arc<Mutex<Vec<u8>>>);

impl Write for Output {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A random game of `game` with `options`, `plies` actions long: its state and actions.
fn random_game(
    game: &dyn ply_arena::DynGame,
    options: &str,
    rng: &mut Rng,
    plies: usize,
) -> (Box<dyn DynState>, Vec<String>) {
    let mut state = game.new_state(options).or_else(|_| game.new_state("")).expect("the default options");
    let mut played = Vec::new();
    for _ in 0..plies {
        let choices: Vec<String> = match state.turn() {
            Turn::Over => break,
            Turn::Chance => state.chance_outcomes().into_iter().map(|o| o.0).collect(),
            Turn::Player(_) => state.legal_actions(),
        };
        let pick = choices[rng.random_range(0..choices.len())].clone();
        state.play(&pick).expect("a listed action");
        played.push(pick);
    }
    (state, played)
}

/// Option values that keep a game small: each game's words and numbers, some out of range.
const OPTION_VALUES: [&str; 18] = [
    "2", "3", "5", "7", "9", "15", "22", "23", "0", "-1", "renju", "standard", "choose", "random", "blue",
    "100", "", "x",
];

/// A valid-looking command line of kind `kind`, made from a random game of the session's game.
fn command(game: &dyn ply_arena::DynGame, kind: u8, rng: &mut Rng) -> String {
    let mut options = Vec::new();
    for option in game.options() {
        if rng.random_bool(0.5) {
            let value = if rng.random_bool(0.5) {
                option.default.clone()
            } else {
                OPTION_VALUES[rng.random_range(0..OPTION_VALUES.len())].to_string()
            };
            options.push(format!("{}={value}", option.name));
        }
    }
    let options = options.join(",");
    let plies = rng.random_range(0..40);
    let (state, played) = random_game(game, "", rng, plies);
    let some_played = |rng: &mut Rng| {
        let from = rng.random_range(0..=played.len());
        played[from..].iter().take(rng.random_range(1..4)).cloned().collect::<Vec<_>>().join(" ")
    };
    match kind % 12 {
        0 => ["about", "isready", "help", "legal", "turn", "show", "agents", "roll", "stop", "new"]
            [rng.random_range(0..10)]
        .to_string(),
        1 => format!("new {options}"),
        2 => format!("position start moves {}", played.join(" ")),
        3 => format!("position text {}", state.to_text()),
        4 => format!("position text {} moves {}", state.to_text(), some_played(rng)),
        5 => format!("position json {}", state.to_json()),
        6 => format!("play {}", some_played(rng)),
        7 | 8 => {
            let agents = game.agents();
            let agent = &agents[rng.random_range(0..agents.len())];
            let params: Vec<String> = agent
                .params
                .iter()
                .filter(|p| !p.default.is_empty() && rng.random_bool(0.2))
                .map(|p| format!("{}={}", p.name, p.default))
                .collect();
            if params.is_empty() {
                format!("agent {}", agent.name)
            } else {
                format!("agent {}:{}", agent.name, params.join(","))
            }
        }
        9 => format!("seed {}", rng.random_range(0..1000)),
        10 => ["go", "go iters 50", "go time 5", "go iters 20 time 20"][rng.random_range(0..4)].to_string(),
        _ => format!("play {}", state.legal_actions().first().cloned().unwrap_or_default()),
    }
}

/// The first word of a line, as the engine reads it.
fn word(line: &str) -> &str {
    line.trim().split(char::is_whitespace).next().unwrap_or("")
}

/// The line made safe to send: one line; not `quit`, which would end the session early; and an
/// `agent` line only if its spec is cheap to build (any spec is still parsed by the engine when
/// it is refused for another reason, and by the spec fuzzing in crates/core).
fn sendable(line: String) -> Option<String> {
    let line = line.replace(['\n', '\r'], " ");
    let trimmed = line.trim();
    if trimmed == "quit" {
        return None;
    }
    if word(trimmed) == "agent" {
        let rest = trimmed.split_once(char::is_whitespace).map_or("", |(_, r)| r.trim());
        if let Ok(spec) = AgentSpec::parse(rest)
            && !cheap_to_build(&spec)
        {
            return None;
        }
    }
    Some(line)
}

/// One line of a session: a command of some kind, maybe edited, or made-up text.
#[derive(Clone, Debug)]
enum Line {
    Command { kind: u8, seed: u64, edits: Option<Vec<Edit>> },
    Text(String),
}

fn lines() -> impl Strategy<Value = Vec<Line>> {
    let line = prop_oneof![
        3 => (any::<u8>(), any::<u64>()).prop_map(|(kind, seed)| Line::Command { kind, seed, edits: None }),
        3 => (any::<u8>(), any::<u64>(), edits(ALPHABET))
            .prop_map(|(kind, seed, e)| Line::Command { kind, seed, edits: Some(e) }),
        1 => text(ALPHABET).prop_map(Line::Text),
    ];
    prop::collection::vec(line, 1..10)
}

/// The next segment of `replies` from `at`: up to and including the trailer's `readyok` (and,
/// when the line itself was `isready`, its own before that).
fn cut(replies: &[String], at: &mut usize, extra_readyok: bool) -> Result<Vec<String>, TestCaseError> {
    let mut readyoks = if extra_readyok { 2 } else { 1 };
    let start = *at;
    while readyoks > 0 {
        prop_assert!(*at < replies.len(), "output ended early: {:#?}", &replies[start..]);
        if replies[*at] == "readyok" {
            readyoks -= 1;
        }
        *at += 1;
    }
    Ok(replies[start..*at].to_vec())
}

/// The replies of the trailer: the position (show) and the agent (about's `id agent` line).
fn record(trailer: &[String]) -> (Vec<String>, String) {
    (trailer[..3].to_vec(), trailer[6].clone())
}

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn sessions_of_good_bad_and_edited_lines(game_index in any::<usize>(), session in lines()) {
        let games = ply_games::all();
        let game = &games[game_index % games.len()];
        let mut sent: Vec<String> = Vec::new();
        for line in session {
            let text = match line {
                Line::Text(text) => text,
                Line::Command { kind, seed, edits } => {
                    let command = command(game.as_ref(), kind, &mut rng_from_seed(seed));
                    edits.map_or(command.clone(), |e| apply_edits(&command, &e))
                }
            };
            sent.extend(sendable(text));
        }
        let mut input = Vec::new();
        for line in TRAILER.iter().map(|s| s.to_string()).chain(sent.iter().flat_map(|line| {
            let stop = (word(line) == "go").then(|| "stop".to_string());
            std::iter::once(line.clone()).chain(stop).chain(TRAILER.iter().map(|s| s.to_string()))
        })) {
            input.push(line);
        }
        let probe = ["new", "position start", "legal", "isready"];
        input.extend(probe.iter().map(|s| s.to_string()));
        let output = Output::default();
        let engine_game = ply_games::find(game.name()).unwrap();
        let result = ply_cli::engine::run(engine_game, "", input.join("\n").as_bytes(), output.clone());
        prop_assert!(result.is_ok(), "{result:?}");
        let text = String::from_utf8(output.0.lock().unwrap().clone()).unwrap();
        let replies: Vec<String> = text.lines().map(String::from).collect();
        prop_assert!(!replies.iter().any(|l| l.contains("panicked")), "{replies:#?}");

        // Cut the output into segments, each ending with a trailer.
        let mut at = 0;
        let first = cut(&replies, &mut at, false)?;
        prop_assert_eq!(first.len(), TRAILER_LINES, "{:#?}", first);
        let mut before = record(&first);
        for line in &sent {
            let segment = cut(&replies, &mut at, word(line) == "isready")?;
            prop_assert!(segment.len() >= TRAILER_LINES, "{line}: {segment:#?}");
            let (own, trailer) = segment.split_at(segment.len() - TRAILER_LINES);
            let after = record(trailer);
            let ignored = line.trim().is_empty() || line.trim().starts_with('#');
            prop_assert!(ignored || !own.is_empty(), "'{line}' got no reply");
            if own.first().is_some_and(|r| r.starts_with("error ")) {
                prop_assert_eq!(&after, &before, "'{}' was refused ({}) but changed the session", line, own[0]);
            }
            if word(line) == "go" {
                prop_assert!(
                    own.iter().any(|r| r.starts_with("bestmove ") || r.starts_with("error ")),
                    "'{line}' ended without bestmove or error: {own:#?}"
                );
            }
            if word(line) == "stop" || word(line) == "go" {
                // The stop (sent, or sent after the go) ends with its ok, after any bestmove.
                prop_assert_eq!(own.last().map(String::as_str), Some("ok"), "'{}': {:#?}", line, own);
            }
            before = after;
        }
        // The probe answers as it does in a fresh session.
        let fresh = Output::default();
        let probe_only = probe.join("\n");
        ply_cli::engine::run(ply_games::find(game.name()).unwrap(), "", probe_only.as_bytes(), fresh.clone())
            .unwrap();
        let fresh = String::from_utf8(fresh.0.lock().unwrap().clone()).unwrap();
        prop_assert_eq!(&replies[at..], &fresh.lines().map(String::from).collect::<Vec<_>>()[..]);
    }
}

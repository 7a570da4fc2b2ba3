//! What the fuzz tests of every game check (docs/architecture.md, Fuzzing), and the edits they
//! make to valid text. Inputs are drawn by each crate's proptest tests; the properties live here
//! once, so that every game is held to the same ones.
//!
//! Each check returns `Err` with a description of what broke instead of panicking itself, so that
//! proptest can shrink the input and print both. What a position must satisfy is the conformance
//! harness's [`check_position`]; this module draws the positions.

use std::fmt::Debug;

use serde_json::Value;

use crate::game::{Game, Turn, random_playout};
use crate::rng::rng_from_seed;
use crate::spec::GameDef;
use crate::testing::check_position;

/// One edit of a text. Positions count characters and wrap around the text's length, so any
/// drawn number is a valid position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit {
    Replace(usize, char),
    Insert(usize, char),
    Delete(usize),
    /// Swaps two characters: a valid text stays made of valid pieces, in another arrangement.
    Swap(usize, usize),
}

impl Edit {
    /// From drawn parts: `kind` picks replace, insert, delete or swap (modulo 4); a swap takes
    /// its second position from `ch`.
    pub fn from_parts(kind: u8, at: usize, ch: char) -> Edit {
        match kind % 4 {
            0 => Edit::Replace(at, ch),
            1 => Edit::Insert(at, ch),
            2 => Edit::Delete(at),
            _ => Edit::Swap(at, ch as usize),
        }
    }
}

/// `text` with `edits` applied in order.
pub fn apply_edits(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for &edit in edits {
        match edit {
            Edit::Insert(at, ch) => chars.insert(at % (chars.len() + 1), ch),
            Edit::Replace(at, ch) if !chars.is_empty() => {
                let i = at % chars.len();
                chars[i] = ch;
            }
            Edit::Delete(at) if !chars.is_empty() => {
                chars.remove(at % chars.len());
            }
            Edit::Swap(a, b) if !chars.is_empty() => {
                let n = chars.len();
                chars.swap(a % n, b % n);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// `json` with its `at`-th value (counting every value, containers included, depth first from
/// the root, wrapping around) replaced by `with`: a type or range a reader may not expect, where
/// it would otherwise find a valid value.
pub fn replace_json_value(json: &Value, at: usize, with: Value) -> Value {
    fn count(v: &Value) -> usize {
        1 + match v {
            Value::Array(items) => items.iter().map(count).sum(),
            Value::Object(map) => map.values().map(count).sum(),
            _ => 0,
        }
    }
    fn replace(v: &mut Value, at: &mut usize, with: &mut Option<Value>) {
        if *at == 0 {
            if let Some(w) = with.take() {
                *v = w;
            }
            return;
        }
        *at -= 1;
        match v {
            Value::Array(items) => items.iter_mut().for_each(|item| replace(item, at, with)),
            Value::Object(map) => map.values_mut().for_each(|item| replace(item, at, with)),
            _ => {}
        }
    }
    let mut out = json.clone();
    replace(&mut out, &mut (at % count(json)), &mut Some(with));
    out
}

/// One drawn fuzz case for [`fuzz_states`], [`fuzz_json_states`] and [`fuzz_actions`]
/// (`strategy::draws` draws them, with the `fuzz` feature).
#[derive(Clone, Debug)]
pub struct Draw {
    /// Seeds the random game that gives the position.
    pub seed: u64,
    /// Actions of that game.
    pub plies: usize,
    /// Made-up text, tried as a position and as an action.
    pub text: String,
    /// Edits of a valid text.
    pub edits: Vec<Edit>,
    /// Which value of a valid JSON form to replace, and with what.
    pub json_at: usize,
    pub json_with: Value,
}

/// Positions in text: a random position, the drawn text, and the random position's text with the
/// drawn edits.
pub fn fuzz_states<G: Game + PartialEq + Debug>(template: &G, draw: &Draw) -> Result<(), String> {
    let position = random_position(template, draw.seed, draw.plies);
    check_state(template, &position)?;
    check_state_text(template, &draw.text)?;
    check_state_text(template, &apply_edits(&position.to_text(), &draw.edits))
}

/// Positions in JSON: a random position's JSON with one value replaced, and its JSON text with
/// the drawn edits (when that is still JSON).
pub fn fuzz_json_states<G: Game + PartialEq + Debug>(template: &G, draw: &Draw) -> Result<(), String> {
    let json = random_position(template, draw.seed, draw.plies).to_json();
    check_state_json(template, &replace_json_value(&json, draw.json_at, draw.json_with.clone()))?;
    match serde_json::from_str::<Value>(&apply_edits(&json.to_string(), &draw.edits)) {
        Ok(edited) => check_state_json(template, &edited),
        Err(_) => Ok(()),
    }
}

/// Actions in a random position: the drawn text and JSON value; the text and JSON of one of its
/// legal actions (or chance outcomes), edited; and an action of another random position of the
/// same game, which may mean nothing here.
pub fn fuzz_actions<G: Game + PartialEq + Debug>(template: &G, draw: &Draw) -> Result<(), String> {
    let position = random_position(template, draw.seed, draw.plies);
    check_action_text(&position, &draw.text)?;
    check_action_json(&position, &draw.json_with)?;
    let pick = |state: &G| {
        let mut all = state.actions();
        all.extend(state.outcomes().into_iter().map(|o| o.0));
        (!all.is_empty()).then(|| all[draw.json_at % all.len()])
    };
    if let Some(a) = pick(&position) {
        check_action_text(&position, &apply_edits(&position.action_to_text(a), &draw.edits))?;
        let json = replace_json_value(&position.action_to_json(a), draw.json_at / 7, draw.json_with.clone());
        check_action_json(&position, &json)?;
    }
    let elsewhere = random_position(template, draw.seed ^ 0x5EED, draw.plies / 2 + draw.edits.len());
    if let Some(a) = pick(&elsewhere) {
        check_action_text(&position, &elsewhere.action_to_text(a))?;
        check_action_json(&position, &elsewhere.action_to_json(a))?;
    }
    Ok(())
}

/// Game options: the drawn text, the defaults with the drawn edits, and one declared option set
/// to the drawn text. Each is refused or gives a start position that passes [`check_state`].
pub fn fuzz_options<G: GameDef + PartialEq + Debug>(draw: &Draw) -> Result<(), String> {
    let options = G::options();
    let defaults: Vec<String> = options.iter().map(|o| format!("{}={}", o.name, o.default)).collect();
    let mut tries = vec![draw.text.clone(), apply_edits(&defaults.join(","), &draw.edits)];
    if !options.is_empty() {
        let option = &options[draw.json_at % options.len()];
        tries.push(format!("{}={}", option.name, draw.text));
    }
    for text in tries {
        if let Ok(state) = G::new_from_text_options(&text) {
            check_state(&state, &state).map_err(|e| format!("options '{text}' were accepted, but {e}"))?;
        }
    }
    Ok(())
}

/// The position `plies` random actions (moves and chance outcomes alike) after `start`, or
/// where the game ended before that.
pub fn random_position<G: Game>(start: &G, seed: u64, plies: usize) -> G {
    let mut state = start.clone();
    random_playout(&mut state, &mut rng_from_seed(seed), plies);
    state
}

/// What every position must satisfy: [`check_position`], the conformance harness's check.
pub fn check_state<G: Game + PartialEq + Debug>(template: &G, state: &G) -> Result<(), String> {
    check_position(template, state)
}

/// Reads `text` as a position of `template`'s game: refused, or a state that passes
/// [`check_state`].
pub fn check_state_text<G: Game + PartialEq + Debug>(template: &G, text: &str) -> Result<(), String> {
    match template.parse_state(text) {
        Ok(state) => {
            check_state(template, &state).map_err(|e| format!("text '{text}' was accepted, but {e}"))
        }
        Err(_) => Ok(()),
    }
}

/// Reads `json` as a position, as [`check_state_text`] reads text.
pub fn check_state_json<G: Game + PartialEq + Debug>(template: &G, json: &Value) -> Result<(), String> {
    match template.state_from_json(json) {
        Ok(state) => check_state(template, &state).map_err(|e| format!("JSON {json} was accepted, but {e}")),
        Err(_) => Ok(()),
    }
}

/// Reads `text` as an action in `state` and plays it: what parses prints as text that reads back
/// to it; [`Game::play`] accepts exactly the legal actions (moves of the player to move, or
/// outcomes of the pending chance event), and leaves the state alone when it refuses one.
pub fn check_action_text<G: Game + PartialEq + Debug>(state: &G, text: &str) -> Result<(), String> {
    match state.parse_action(text) {
        Ok(action) => check_action(state, action).map_err(|e| format!("action text '{text}': {e}")),
        Err(_) => Ok(()),
    }
}

/// Reads `json` as an action in `state`, as [`check_action_text`] reads text.
pub fn check_action_json<G: Game + PartialEq + Debug>(state: &G, json: &Value) -> Result<(), String> {
    match state.action_from_json(json) {
        Ok(action) => check_action(state, action).map_err(|e| format!("action JSON {json}: {e}")),
        Err(_) => Ok(()),
    }
}

fn check_action<G: Game + PartialEq + Debug>(state: &G, action: G::Action) -> Result<(), String> {
    let printed = state.action_to_text(action);
    match state.parse_action(&printed) {
        Ok(back) if back == action => {}
        other => return Err(format!("parsed as {action:?}, printed as '{printed}', read back as {other:?}")),
    }
    let legal = match state.turn() {
        Turn::Player(_) => state.actions().contains(&action),
        Turn::Chance => state.outcomes().iter().any(|&(a, p)| a == action && p > 0.0),
        Turn::Over => false,
    };
    if state.is_legal(action) != legal {
        return Err(format!("is_legal says {} for {action:?}, the action lists {legal}", !legal));
    }
    let mut played = state.clone();
    match played.play(action) {
        Ok(()) if legal => Ok(()),
        Ok(()) => Err(format!("{action:?} is not legal here but was played")),
        Err(e) if legal => Err(format!("legal {action:?} was refused: {e}")),
        Err(_) if played != *state => Err("a refused action changed the state".into()),
        Err(_) => Ok(()),
    }
}

/// Proptest strategies for the drawn parts, behind the `fuzz` feature so that only tests pull in
/// proptest.
#[cfg(feature = "fuzz")]
pub mod strategy {
    use proptest::prelude::*;
    use serde_json::Value;

    use super::{Draw, Edit};

    /// `cases` cases, unless `PROPTEST_CASES` asks for another number (a longer run).
    pub fn config(cases: u32) -> ProptestConfig {
        if std::env::var_os("PROPTEST_CASES").is_some() {
            ProptestConfig::default()
        } else {
            ProptestConfig::with_cases(cases)
        }
    }

    /// Mostly characters of `alphabet` (a notation's own, which make near misses), sometimes any.
    pub fn chars(alphabet: &'static str) -> impl Strategy<Value = char> + Clone {
        let own: Vec<char> = alphabet.chars().collect();
        prop_oneof![3 => prop::sample::select(own), 1 => any::<char>()]
    }

    /// Any text, or text made of `alphabet`.
    pub fn text(alphabet: &'static str) -> impl Strategy<Value = String> + Clone {
        prop_oneof![
            any::<String>(),
            prop::collection::vec(chars(alphabet), 0..40).prop_map(|c| c.into_iter().collect()),
        ]
    }

    /// Mostly one edit, which keeps more of a valid text valid; sometimes up to four.
    pub fn edits(alphabet: &'static str) -> impl Strategy<Value = Vec<Edit>> + Clone {
        let edit = (any::<u8>(), any::<usize>(), chars(alphabet))
            .prop_map(|(k, at, ch)| Edit::from_parts(k, at, ch));
        prop_oneof![
            3 => prop::collection::vec(edit.clone(), 1..=1),
            1 => prop::collection::vec(edit, 2..=4),
        ]
    }

    /// A JSON value of some type: the edges of each number type, text, short arrays.
    pub fn json_value(alphabet: &'static str) -> impl Strategy<Value = Value> + Clone {
        let numbers = prop_oneof![
            prop::sample::select(vec![0i64, 1, -1, 2, 5, 6, 7, 15, 22, 255, 256, 65_536, i64::MIN, i64::MAX]),
            any::<i64>(),
        ];
        prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            numbers.prop_map(Value::from),
            Just(Value::from(u64::MAX)),
            any::<f64>().prop_filter("JSON numbers are finite", |f| f.is_finite()).prop_map(Value::from),
            text(alphabet).prop_map(Value::String),
            prop::collection::vec(-2i64..30, 0..4).prop_map(Value::from),
            Just(serde_json::json!({})),
        ]
    }

    /// Whole cases: plies up to `max_plies`.
    pub fn draws(alphabet: &'static str, max_plies: usize) -> impl Strategy<Value = Draw> {
        (any::<u64>(), 0..=max_plies, text(alphabet), edits(alphabet), any::<usize>(), json_value(alphabet))
            .prop_map(|(seed, plies, text, edits, json_at, json_with)| Draw {
                seed,
                plies,
                text,
                edits,
                json_at,
                json_with,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_wrap_around_and_handle_empty_text() {
        assert_eq!(apply_edits("abc", &[Edit::Replace(4, 'x')]), "axc");
        assert_eq!(apply_edits("abc", &[Edit::Insert(3, 'x'), Edit::Delete(0)]), "bcx");
        assert_eq!(apply_edits("", &[Edit::Delete(5), Edit::Replace(1, 'y'), Edit::Insert(9, 'z')]), "z");
        assert_eq!(apply_edits("é", &[Edit::Insert(1, 'ü')]), "éü");
        assert_eq!(apply_edits("abc", &[Edit::Swap(0, 5)]), "cba");
    }

    #[test]
    fn json_values_are_counted_depth_first() {
        let json = serde_json::json!({"a": [1, 2], "b": {"c": 3}});
        assert_eq!(replace_json_value(&json, 0, Value::Null), Value::Null);
        assert_eq!(
            replace_json_value(&json, 3, Value::Null),
            serde_json::json!({"a": [1, null], "b": {"c": 3}})
        );
        assert_eq!(
            replace_json_value(&json, 5 + 6, Value::Null),
            serde_json::json!({"a": [1, 2], "b": {"c": null}})
        );
    }
}

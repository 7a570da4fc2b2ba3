//! Game records (docs/formats.md): one schema for the arena's JSON lines, the games `ply serve`
//! gives for download and the OpenSpiel bridge's files, read by one parser ([`read`]). Every
//! record holds enough to replay its game exactly; a record from `ply serve` adds what the arena
//! leaves out (who the sides were, who made each action and when, what the AI thought, every
//! position), in fields that default to empty, so that any reader takes either.

use std::io::{Read, Write};

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub game: String,
    /// The game options as given (`key=value,...`, empty for the defaults).
    #[serde(default)]
    pub options: String,
    /// The game's number in its pairing (arena) or its test series (`ply serve`); games `2k` and
    /// `2k+1` swap seats.
    #[serde(default)]
    pub index: u64,
    /// The seed the game's chance events came from; `None` while a game of `ply serve` is
    /// still being played (its dice stay secret until then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Who played each seat, seat 0 first: an agent spec, or `human`.
    pub seats: Vec<String>,
    /// The first `opening_plies` player moves were random, the same for both games of a pair.
    #[serde(default)]
    pub opening_plies: usize,
    /// Every action in text form, chance outcomes included, from the start position.
    pub actions: Vec<String>,
    /// Each seat's score, from 0 to 1, summing to 1; empty while the game has no result (still
    /// playing, or aborted).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub returns: Vec<f64>,
    /// The position after the last action, in text form.
    pub final_state: String,

    // What `ply serve` adds; absent from the arena's lines.
    /// The seat that resigned: the actions stop before the rules end the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resigned: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    /// The game's number on the server (`/#/game/{id}`) and its test series', if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series: Option<i64>,
    /// Each seat's settings as the game was created with them (a name, an AI's time).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<Side>,
    /// When the game was created and last changed, in milliseconds since the Unix epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated: Option<i64>,
    /// One per action, in the same order: who made it, when, and what the AI thought.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub action_details: Vec<ActionDetail>,
    /// The start position, then the position after each action (one more than `actions`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub positions: Vec<Position>,
}

/// Who plays one seat of a game of `ply serve`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Side {
    pub kind: SideKind,
    /// The agent spec, `name[:key=value,...]`, for an AI side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// Thinking time per move for an AI side (the spec's own `time=`/`iters=` win over it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<u64>,
    /// A display name; the UI makes one up when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SideKind {
    Human,
    Ai,
}

impl Side {
    pub fn is_ai(&self) -> bool {
        self.kind == SideKind::Ai
    }

    /// The side as a record's seat: its agent spec, or `human`.
    pub fn seat(&self) -> String {
        match (&self.kind, &self.agent) {
            (SideKind::Ai, Some(agent)) => agent.clone(),
            (SideKind::Ai, None) => "ai".into(),
            (SideKind::Human, _) => "human".into(),
        }
    }
}

/// A game of `ply serve`: being played, over (by the rules or a resignation), or aborted
/// without a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Playing,
    Over,
    Aborted,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Playing => "playing",
            Status::Over => "over",
            Status::Aborted => "aborted",
        }
    }
    pub fn parse(text: &str) -> Status {
        match text {
            "playing" => Status::Playing,
            "over" => Status::Over,
            _ => Status::Aborted,
        }
    }
}

/// Who made one action and when.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ActionDetail {
    /// The player who acted; `None` for a chance outcome.
    pub player: Option<usize>,
    /// `human`, `ai` or `chance`.
    pub by: String,
    /// Milliseconds since the Unix epoch.
    pub ts: i64,
    /// The AI's report of the search that chose the action (docs/web-api.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub info: Option<Value>,
}

/// A position in the game's text and JSON notation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Position {
    pub text: String,
    pub json: Value,
}

impl GameRecord {
    /// Whether the parts of the record agree with each other: one score per seat, each in 0..1;
    /// a detail per action, a position before and after each; a resigning seat that exists.
    pub fn check(&self) -> Result<(), String> {
        let seats = self.seats.len();
        if !self.returns.is_empty() && self.returns.len() != seats {
            return Err(format!("{} returns for {seats} seats", self.returns.len()));
        }
        if let Some(r) = self.returns.iter().find(|r| !(0.0..=1.0).contains(*r)) {
            return Err(format!("a return of {r}: scores are from 0 to 1"));
        }
        if !self.sides.is_empty() && self.sides.len() != seats {
            return Err(format!("{} sides for {seats} seats", self.sides.len()));
        }
        if let Some(seat) = self.resigned.filter(|&s| s >= seats) {
            return Err(format!("seat {seat} resigned, but there are {seats} seats"));
        }
        let actions = self.actions.len();
        if !self.action_details.is_empty() && self.action_details.len() != actions {
            return Err(format!("{} action details for {actions} actions", self.action_details.len()));
        }
        if !self.positions.is_empty() && self.positions.len() != actions + 1 {
            return Err(format!(
                "{} positions for {actions} actions (the start and one after each)",
                self.positions.len()
            ));
        }
        Ok(())
    }
}

pub fn write_jsonl(out: &mut impl Write, records: &[GameRecord]) -> std::io::Result<()> {
    for record in records {
        serde_json::to_writer(&mut *out, record)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// Reads game records: the arena's JSON lines, a game downloaded from `ply serve` (one object
/// over many lines), or any JSON objects one after another. An error names the record and the
/// line where it starts, and what is wrong with it.
pub fn read(mut input: impl Read) -> Result<Vec<GameRecord>, String> {
    let mut text = String::new();
    input.read_to_string(&mut text).map_err(|e| e.to_string())?;
    parse(&text)
}

/// [`read`] from a string.
pub fn parse(text: &str) -> Result<Vec<GameRecord>, String> {
    let mut records = Vec::new();
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    // Lines are counted as the records go by, so that a long file is read in linear time.
    let (mut line, mut counted) = (1, 0);
    loop {
        // Where the next record starts: after the whitespace that ends the previous one.
        let consumed = stream.byte_offset();
        let start = consumed + text[consumed..].len() - text[consumed..].trim_start().len();
        line += text[counted..start].matches('\n').count();
        counted = start;
        let Some(value) = stream.next() else { break };
        let at = format!("record {} (line {line})", records.len() + 1);
        let value = value.map_err(|e| format!("{at}: {}", without_position(&e)))?;
        // Serde would take a list for a struct, field by field, and complain about its items.
        if !value.is_object() {
            let shown: String = value.to_string().chars().take(40).collect();
            return Err(format!("{at}: a record is a JSON object {{\"game\": ...}}, not {shown}"));
        }
        let record = GameRecord::deserialize(&value).map_err(|e| format!("{at}: {}", hint(e, &value)))?;
        record.check().map_err(|e| format!("{at}: {e}"))?;
        records.push(record);
    }
    Ok(records)
}

/// A syntax error's message, its position given as the line of the whole text.
fn without_position(e: &serde_json::Error) -> String {
    let message = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    match message.strip_suffix(&suffix) {
        Some(m) => format!("{m} at line {}, column {}", e.line(), e.column()),
        None => message,
    }
}

/// A schema error's message, with a word on records `ply serve` gave before the format was one.
fn hint(e: serde_json::Error, value: &Value) -> String {
    if value.get("sides").is_some() && value.get("seats").is_none() {
        return format!("{e}: a download from an older `ply serve`; download the game again");
    }
    e.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arena_line() -> &'static str {
        concat!(
            r#"{"game":"pig","options":"","index":3,"seed":18446744073709551615,"seats":["random","mcts"],"#,
            r#""opening_plies":0,"actions":["roll","3"],"returns":[0.5,0.5],"final_state":"x"}"#
        )
    }

    #[test]
    fn lines_and_pretty_objects_read_back_and_arena_lines_keep_their_shape() {
        let records = parse(&format!("{}\n\n{}\n", arena_line(), arena_line())).unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].seed, Some(u64::MAX), "a seed of 64 bits survives");
        let mut line = Vec::new();
        write_jsonl(&mut line, &records[..1]).unwrap();
        assert_eq!(String::from_utf8(line).unwrap(), format!("{}\n", arena_line()));

        let pretty = serde_json::to_string_pretty(&records[0]).unwrap();
        assert_eq!(parse(&format!("{pretty}\n{pretty}")).unwrap(), records);
        let lines = pretty.lines().count();
        let err = parse(&format!("{pretty}\n\n{pretty}\n{{}}")).unwrap_err();
        assert!(err.starts_with(&format!("record 3 (line {}): missing field", 2 * lines + 2)), "{err}");
    }

    #[test]
    fn only_what_replays_the_game_is_required() {
        let minimal = r#"{"game":"pig","seats":["a","b"],"actions":[],"final_state":"x"}"#;
        let record = &parse(minimal).unwrap()[0];
        assert_eq!((record.seed, record.index, record.returns.len()), (None, 0, 0));
        assert_eq!(parse("").unwrap(), vec![]);
    }

    #[test]
    fn bad_records_are_refused_with_where_and_why() {
        let cases = [
            (format!("{}\n{{\"game\": \"pig\"\n", arena_line()), "record 2 (line 2): EOF while parsing"),
            (
                format!("{}\n[1, 2]", arena_line()),
                "record 2 (line 2): a record is a JSON object {\"game\": ...}, not [1,2]",
            ),
            (
                r#"{"game":"pig","actions":[],"final_state":"x"}"#.into(),
                "record 1 (line 1): missing field `seats`",
            ),
            (arena_line().replace("[0.5,0.5]", "[1.0]"), "record 1 (line 1): 1 returns for 2 seats"),
            (arena_line().replace("[0.5,0.5]", "[1.5,-0.5]"), "a return of 1.5"),
            (
                arena_line().replace("\"seed\":18446744073709551615", "\"seed\":-1"),
                "invalid value: integer `-1`",
            ),
            (
                arena_line().replace("\"final_state\"", "\"positions\":[],\"resigned\":2,\"final_state\""),
                "seat 2 resigned, but there are 2 seats",
            ),
            (
                arena_line().replace(
                    "\"final_state\"",
                    "\"positions\":[{\"text\":\"x\",\"json\":0}],\"final_state\"",
                ),
                "1 positions for 2 actions",
            ),
            (r#"{"id":1,"game":"pig","sides":[],"actions":[]}"#.into(), "download the game again"),
        ];
        for (text, expected) in cases {
            let err = parse(&text).unwrap_err();
            assert!(err.contains(expected), "expected '{expected}' in: {err}");
        }
    }
}

//! One finished game as a JSON line (docs/formats.md): enough to replay it exactly.

use std::io::{BufRead, Write};

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub game: String,
    /// The game options as given (`key=value,...`, empty for the defaults).
    pub options: String,
    /// The game's index in its match.
    pub index: u64,
    pub seed: u64,
    /// The agent spec in each seat.
    pub seats: Vec<String>,
    /// The first `opening_plies` actions were random, the same for both games of a pair.
    pub opening_plies: usize,
    /// Every action in text form, chance outcomes included.
    pub actions: Vec<String>,
    /// Each seat's score, from 0 to 1.
    pub returns: Vec<f64>,
    /// The final position in text form.
    pub final_state: String,
}

pub fn write_jsonl(out: &mut impl Write, records: &[GameRecord]) -> std::io::Result<()> {
    for record in records {
        serde_json::to_writer(&mut *out, record)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// Reads records, one per line; names the line of the first bad one.
pub fn read_jsonl(input: impl BufRead) -> Result<Vec<GameRecord>, String> {
    let mut records = Vec::new();
    for (i, line) in input.lines().enumerate() {
        let line = line.map_err(|e| format!("line {}: {e}", i + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        records.push(serde_json::from_str(&line).map_err(|e| format!("line {}: {e}", i + 1))?);
    }
    Ok(records)
}

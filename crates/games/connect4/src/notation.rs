//! Text and JSON forms (docs/connect4.md).
//!
//! A move is a column number, `1` (left) to `7`; letters `a`-`g` are read too. A position is six
//! rows from the top, separated by `/`, each seven cells: `x` for the first player, `o` for the
//! second, `.` for empty. The player to move follows from the stone counts.

use ply_core::Error;
use serde_json::{Value, json};

use crate::rules::{Column, Connect4, HEIGHT, WIDTH};

const SYMBOLS: [char; 2] = ['x', 'o'];

pub fn column_to_text(col: Column) -> String {
    (col + 1).to_string()
}

pub fn parse_column(text: &str) -> Result<Column, Error> {
    let text = text.trim();
    let col = match text.as_bytes() {
        [d @ b'1'..=b'7'] => d - b'1',
        [l @ b'a'..=b'g'] => l - b'a',
        [l @ b'A'..=b'G'] => l - b'A',
        _ => return Err(Error::notation(format!("'{text}' is not a column: expected 1-7 (or a-g)"))),
    };
    Ok(col)
}

fn rows_top_first(board: &Connect4) -> Vec<String> {
    (0..HEIGHT)
        .rev()
        .map(|row| {
            (0..WIDTH)
                .map(|col| match board.stone_at(col, row) {
                    Some(p) => SYMBOLS[p],
                    None => '.',
                })
                .collect()
        })
        .collect()
}

pub fn board_to_text(board: &Connect4) -> String {
    rows_top_first(board).join("/")
}

fn parse_rows(rows: &[&str]) -> Result<Connect4, Error> {
    if rows.len() != HEIGHT {
        return Err(Error::notation(format!("a position has {HEIGHT} rows, got {}", rows.len())));
    }
    let mut cells = [[None; HEIGHT]; WIDTH];
    for (i, row_text) in rows.iter().enumerate() {
        let row = HEIGHT - 1 - i;
        let chars: Vec<char> = row_text.trim().chars().collect();
        if chars.len() != WIDTH {
            return Err(Error::notation(format!(
                "row {} from the top has {} cells, expected {WIDTH}: '{row_text}'",
                i + 1,
                chars.len()
            )));
        }
        for (col, ch) in chars.into_iter().enumerate() {
            cells[col][row] = match ch.to_ascii_lowercase() {
                'x' => Some(0),
                'o' => Some(1),
                '.' => None,
                other => {
                    return Err(Error::notation(format!("'{other}' is not a cell: expected x, o or .")));
                }
            };
        }
    }
    Connect4::from_cells(|col, row| cells[col][row]).map_err(Error::notation)
}

pub fn parse_board(text: &str) -> Result<Connect4, Error> {
    let text = text.trim();
    if text == "start" || text.is_empty() {
        return Ok(Connect4::new());
    }
    parse_rows(&text.split('/').collect::<Vec<_>>())
}

pub fn board_to_json(board: &Connect4) -> Value {
    json!({
        "rows": rows_top_first(board),
        "to_move": board.side_to_move(),
        "plies": board.plies(),
        "winner": board.winner(),
    })
}

/// Reads `{"rows": [...]}`; the other fields of [`board_to_json`] follow from the rows and are
/// ignored.
pub fn board_from_json(json: &Value) -> Result<Connect4, Error> {
    let rows = json
        .get("rows")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::notation("a Connect Four position needs \"rows\": an array of 6 strings"))?;
    let rows: Vec<&str> = rows
        .iter()
        .map(|r| r.as_str().ok_or_else(|| Error::notation("every row must be a string like \"...x...\"")))
        .collect::<Result<_, _>>()?;
    parse_rows(&rows)
}

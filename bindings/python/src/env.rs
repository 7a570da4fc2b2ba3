//! What the PettingZoo environments (python/ply/pettingzoo.py) need per step, in one call each:
//! a stable index for every action, the legal-action mask, and observations as arrays where the
//! game has a natural board (Connect Four, Gomoku: stone planes; EinStein: cube planes and the
//! die) and as text otherwise.
//!
//! Action indices: Connect Four's are its columns (7), Gomoku's its points (`y * size + x`);
//! other games' action sets change with the position (Risk's attacks, Tactics' unit moves), so
//! their index is the position in the state's own legal list (always in the same order for the
//! same position), under a fixed maximum chosen per game by the environment.

use ply_connect4::Connect4;
use ply_core::Error;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use serde_json::Value;

use crate::args;
use crate::errors::{IntoPy, to_py};
use crate::game::State;

enum Space {
    Columns,
    Board(usize),
    Listed,
}

fn space(state: &State) -> Space {
    match state.inner.game() {
        "connect4" => Space::Columns,
        "gomoku" => Space::Board(board_size(state)),
        _ => Space::Listed,
    }
}

fn board_size(state: &State) -> usize {
    state.inner.to_json()["size"].as_u64().unwrap_or(15) as usize
}

/// The action space of the game this state belongs to: `("columns", 7)`, `("board", size²)`,
/// or `("listed", None)` (indices into the legal list).
#[pyfunction]
pub fn action_space(state: PyRef<'_, State>) -> (&'static str, Option<usize>) {
    match space(&state) {
        Space::Columns => ("columns", Some(7)),
        Space::Board(size) => ("board", Some(size * size)),
        Space::Listed => ("listed", None),
    }
}

/// A Gomoku point `h8` (column letter, row from 1 at the top) as `(x, y)`.
fn parse_point(text: &str) -> Option<(usize, usize)> {
    let split = text.find(|c: char| c.is_ascii_digit())?;
    let (letters, digits) = text.split_at(split);
    let mut letters = letters.chars();
    let x = letters.next().filter(|c| c.is_ascii_lowercase())? as usize - 'a' as usize;
    if letters.next().is_some() {
        return None;
    }
    Some((x, digits.parse::<usize>().ok()?.checked_sub(1)?))
}

/// The legal-action mask over `n` indices (1: legal), as bytes.
#[pyfunction]
pub fn action_mask<'py>(py: Python<'py>, state: PyRef<'_, State>, n: usize) -> PyResult<Bound<'py, PyBytes>> {
    let mut mask = vec![0u8; n];
    match space(&state) {
        Space::Columns => {
            if let Some(board) = state.inner.as_any().downcast_ref::<Connect4>()
                && state.inner.returns().is_none()
            {
                for (col, m) in mask.iter_mut().enumerate().take(7) {
                    *m = board.can_play(col) as u8;
                }
            }
        }
        Space::Board(size) => {
            for text in state.inner.legal_actions() {
                if let Some((x, y)) = parse_point(&text).filter(|&(x, y)| x < size && y < size) {
                    mask[y * size + x] = 1;
                }
            }
        }
        Space::Listed => {
            let legal = state.inner.legal_actions().len();
            if legal > n {
                return Err(to_py(Error::spec(format!(
                    "{} legal actions here, more than the {n} of the environment's action space (raise max_actions)",
                    legal
                ))));
            }
            mask[..legal].fill(1);
        }
    }
    Ok(PyBytes::new(py, &mask))
}

/// Plays the action with index `index`; returns its text.
#[pyfunction]
pub fn play_index(mut state: PyRefMut<'_, State>, index: usize) -> PyResult<String> {
    let text = match space(&state) {
        Space::Columns => (index + 1).to_string(),
        Space::Board(size) => format!("{},{}", index % size, index / size),
        Space::Listed => state.inner.legal_actions().into_iter().nth(index).ok_or_else(|| {
            to_py(Error::illegal(format!(
                "action index {index} is not legal here (mask it with the action mask)"
            )))
        })?,
    };
    state.inner.play(&text).py_err()
}

/// Stone planes `[rows][columns][2]` (the seat's stones, then the other's), top row first.
fn planes(rows: &[Value], mine: char, theirs: char) -> (Vec<u8>, Vec<usize>) {
    let height = rows.len();
    let width = rows.first().and_then(Value::as_str).map_or(0, |r| r.chars().count());
    let mut out = vec![0u8; height * width * 2];
    for (r, row) in rows.iter().enumerate() {
        for (c, cell) in row.as_str().unwrap_or("").chars().enumerate().take(width) {
            let plane = if cell == mine {
                0
            } else if cell == theirs {
                1
            } else {
                continue;
            };
            out[(r * width + c) * 2 + plane] = 1;
        }
    }
    (out, vec![height, width, 2])
}

/// EinStein: `[5][5][13]`: planes 0–5 the seat's cubes 1–6, 6–11 the other side's, 12 the die
/// rolled (0 before the roll), on every cell.
fn einstein(json: &Value, seat: usize) -> (Vec<u8>, Vec<usize>) {
    let mut out = vec![0u8; 5 * 5 * 13];
    let own = if seat == 0 { 'r' } else { 'b' };
    let die = json["die"].as_u64().unwrap_or(0) as u8;
    for r in 0..5 {
        for c in 0..5 {
            let base = (r * 5 + c) * 13;
            out[base + 12] = die;
            let Some(cube) = json["board"][r][c].as_str() else { continue };
            let mut chars = cube.chars();
            let (Some(side), Some(n)) = (chars.next(), chars.next().and_then(|n| n.to_digit(10))) else {
                continue;
            };
            if (1..=6).contains(&n) {
                let plane = n as usize - 1 + if side == own { 0 } else { 6 };
                out[base + plane] = 1;
            }
        }
    }
    (out, vec![5, 5, 13])
}

/// What `seat` sees as an array (bytes of `uint8` and a shape), or `None` for games observed
/// as text. Built from the seat's own observation, so hidden information never leaks.
#[pyfunction]
pub fn observation_array<'py>(
    py: Python<'py>,
    state: PyRef<'_, State>,
    seat: &Bound<'_, PyAny>,
) -> PyResult<Option<(Bound<'py, PyBytes>, Vec<usize>)>> {
    let seat = args::seat(Some(seat), state.inner.num_players())?.unwrap_or(0);
    let (data, shape) = match state.inner.game() {
        "connect4" => match state.inner.as_any().downcast_ref::<Connect4>() {
            // The board's own cells, without building JSON: this is the speed benchmark's path.
            Some(board) => {
                let mut out = vec![0u8; 6 * 7 * 2];
                for row in 0..6 {
                    for col in 0..7 {
                        if let Some(owner) = board.stone_at(col, 5 - row) {
                            out[(row * 7 + col) * 2 + usize::from(owner != seat)] = 1;
                        }
                    }
                }
                (out, vec![6, 7, 2])
            }
            None => return Ok(None),
        },
        "gomoku" => {
            let json = state.inner.observation_json(Some(seat));
            let rows = json["rows"].as_array().cloned().unwrap_or_default();
            let (mine, theirs) = if seat == 0 { ('x', 'o') } else { ('o', 'x') };
            planes(&rows, mine, theirs)
        }
        "einstein" => einstein(&state.inner.observation_json(Some(seat)), seat),
        _ => return Ok(None),
    };
    Ok(Some((PyBytes::new(py, &data), shape)))
}

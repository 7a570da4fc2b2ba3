//! Text and JSON forms (docs/gomoku.md).
//!
//! A point is written either letter-number, `h8` (column letter from `a`, row number from 1 at
//! the top, as Rapfi and the Gomocup tools print it), or Gomocup-style `7,7` (x, y from 0). A
//! position is the list of moves from the empty board in either form, separated by spaces or
//! `;`: `h8 i9 j7` or `7,7 8,8 9,6`. Printing uses the letter-number form.

use ply_core::Error;
use serde_json::{Value, json};

use crate::board::{BLACK, Board, EMPTY, Point, WHITE};

pub fn point_to_text(board: &Board, p: Point) -> String {
    let (x, y) = board.xy(p);
    format!("{}{}", char::from(b'a' + x as u8), y + 1)
}

/// The Gomocup form, `x,y`.
pub fn point_to_xy_text(board: &Board, p: Point) -> String {
    let (x, y) = board.xy(p);
    format!("{x},{y}")
}

fn on_board(board: &Board, x: usize, y: usize, text: &str) -> Result<Point, Error> {
    board.point(x, y).ok_or_else(|| {
        let n = board.size();
        Error::notation(format!(
            "'{text}' is off the {n}x{n} board (columns a-{}, rows 1-{n}; or x,y from 0 to {})",
            char::from(b'a' + n as u8 - 1),
            n - 1
        ))
    })
}

pub fn parse_point(board: &Board, text: &str) -> Result<Point, Error> {
    let t = text.trim();
    if let Some((xs, ys)) = t.split_once(',') {
        let parse = |s: &str| s.trim().parse::<usize>().ok();
        return match (parse(xs), parse(ys)) {
            (Some(x), Some(y)) => on_board(board, x, y, t),
            _ => Err(Error::notation(format!(
                "'{t}' is not a point: expected x,y with whole numbers, e.g. 7,7"
            ))),
        };
    }
    let lower = t.to_ascii_lowercase();
    let mut chars = lower.chars();
    match (chars.next(), chars.as_str().parse::<usize>()) {
        (Some(c @ 'a'..='z'), Ok(row)) if row >= 1 => on_board(board, c as usize - 'a' as usize, row - 1, t),
        _ => Err(Error::notation(format!(
            "'{t}' is not a point: expected a letter and a number like h8, or x,y like 7,7"
        ))),
    }
}

pub fn point_from_json(board: &Board, json: &Value) -> Result<Point, Error> {
    match json {
        Value::String(s) => parse_point(board, s),
        Value::Object(o) => {
            let coordinate = |k: &str| o.get(k).and_then(Value::as_u64).map(|v| v as usize);
            match (coordinate("x"), coordinate("y")) {
                (Some(x), Some(y)) => on_board(board, x, y, &json.to_string()),
                _ => Err(Error::notation("a point in JSON is {\"x\": 7, \"y\": 7} or \"h8\"")),
            }
        }
        other => {
            Err(Error::notation(format!("a point in JSON is {{\"x\": 7, \"y\": 7}} or \"h8\", got {other}")))
        }
    }
}

pub fn board_to_text(board: &Board) -> String {
    board.moves().iter().map(|&p| point_to_text(board, p)).collect::<Vec<_>>().join(" ")
}

/// Replays moves on an empty board of `template`'s size and rule, checking each.
pub fn replay(
    template: &Board,
    moves: impl IntoIterator<Item = Result<Point, Error>>,
) -> Result<Board, Error> {
    let mut board = Board::new(template.size(), template.rule());
    for (i, point) in moves.into_iter().enumerate() {
        let p = point.map_err(|e| e.context(format!("move {}", i + 1)))?;
        let name = point_to_text(&board, p);
        if board.winner().is_some() {
            return Err(Error::illegal(format!("move {} ({name}): the game is already over", i + 1)));
        }
        if board.at(p) != EMPTY {
            return Err(Error::illegal(format!("move {} ({name}): the point is taken", i + 1)));
        }
        if !board.is_legal(p) {
            return Err(Error::illegal(format!(
                "move {} ({name}): a forbidden point for black under renju",
                i + 1
            )));
        }
        board.place(p);
    }
    Ok(board)
}

pub fn parse_board(template: &Board, text: &str) -> Result<Board, Error> {
    let text = text.trim();
    if text == "start" {
        return Ok(Board::new(template.size(), template.rule()));
    }
    let tokens = text.split(|c: char| c.is_whitespace() || c == ';').filter(|t| !t.is_empty());
    replay(template, tokens.map(|t| parse_point(template, t)))
}

fn rows(board: &Board) -> Vec<String> {
    (0..board.size())
        .map(|y| {
            (0..board.size())
                .map(|x| match board.at(board.point(x, y).unwrap()) {
                    BLACK => 'x',
                    WHITE => 'o',
                    _ => '.',
                })
                .collect()
        })
        .collect()
}

pub fn board_to_json(board: &Board) -> Value {
    let color = |c: u8| if c == BLACK { "black" } else { "white" };
    let forbidden: Vec<String> = if board.rule() == crate::board::Rule::Renju
        && board.to_move() == BLACK
        && board.winner().is_none()
    {
        board
            .points()
            .filter(|&p| board.at(p) == EMPTY && crate::renju::is_forbidden(board, p))
            .map(|p| point_to_text(board, p))
            .collect()
    } else {
        Vec::new()
    };
    json!({
        "size": board.size(),
        "rule": board.rule().name(),
        "moves": board.moves().iter().map(|&p| point_to_text(board, p)).collect::<Vec<_>>(),
        "rows": rows(board),
        "to_move": color(board.to_move()),
        "winner": board.winner().map(color),
        "winning_line": winning_line(board).iter().map(|&p| point_to_text(board, p)).collect::<Vec<_>>(),
        "forbidden": forbidden,
    })
}

/// The stones of the winning line, if the game was won.
pub fn winning_line(board: &Board) -> Vec<Point> {
    let (Some(color), Some(&last)) = (board.winner(), board.moves().last()) else { return Vec::new() };
    for d in crate::board::DIRECTIONS {
        let length = board.line_length(last, d, color);
        if board.rule().wins(color, length) {
            let back = board.run(last, -d, color) as isize;
            return (0..length as isize).map(|k| (last as isize + (k - back) * d) as Point).collect();
        }
    }
    Vec::new()
}

/// Reads `{"moves": [...]}` (points as "h8" or {"x":7,"y":7}); or, without moves, `{"rows":
/// [...]}` as a diagram (`x` black, `o` white, `.` empty), whose move order is then unknown.
pub fn board_from_json(template: &Board, json: &Value) -> Result<Board, Error> {
    if let Some(moves) = json.get("moves") {
        let moves =
            moves.as_array().ok_or_else(|| Error::notation("\"moves\" must be an array of points"))?;
        return replay(template, moves.iter().map(|m| point_from_json(template, m)));
    }
    let rows = json
        .get("rows")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::notation("a Gomoku position needs \"moves\" (a list of points) or \"rows\""))?;
    let n = template.size();
    if rows.len() != n {
        return Err(Error::notation(format!("expected {n} rows, got {}", rows.len())));
    }
    let mut stones = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        let row = row.as_str().ok_or_else(|| Error::notation("rows are strings of x, o and ."))?;
        if row.chars().count() != n {
            return Err(Error::notation(format!(
                "row {} has {} cells, expected {n}",
                y + 1,
                row.chars().count()
            )));
        }
        for (x, ch) in row.chars().enumerate() {
            let p = template.point(x, y).unwrap();
            match ch {
                'x' | 'X' => stones.push((p, BLACK)),
                'o' | 'O' => stones.push((p, WHITE)),
                '.' => {}
                other => return Err(Error::notation(format!("'{other}' is not a cell: x, o or ."))),
            }
        }
    }
    Board::from_stones(n, template.rule(), &stones).map_err(Error::notation)
}

//! Text and JSON forms (docs/einstein.md).
//!
//! Actions: a move is the cube number and a compass direction, `3se`, `5n` (red moves `e`, `s`,
//! `se`; blue `w`, `n`, `nw`); a die outcome is its value, `1`-`6`; an arrangement is
//! `setup:` and the cubes on the side's starting squares from its corner outward, `setup:153264`.
//!
//! A position: `<board> <side> <phase> [<red wins>-<blue wins>]`, the board as five rows from the
//! top separated by `/`, each cell `.` or a cube `r1`-`r6` / `b1`-`b6`; the side to act, `red`
//! or `blue`; the phase `setup`, `roll`, a die value `1`-`6` (rolled, the side moves) or `over`.

use ply_core::Error;
use serde_json::{Value, json};

use crate::rules::{
    Action, DIRECTION_NAMES, Einstein, GOAL, NO_SQUARE, Options, Phase, SETUP_SQUARES, SIDE_NAMES, piece,
};
use crate::setup::{arrangement, rank};

pub fn action_to_text(action: Action) -> String {
    match action {
        Action::Setup(i) => {
            let cubes: String = arrangement(i).iter().map(|c| char::from(b'0' + c)).collect();
            format!("setup:{cubes}")
        }
        Action::Roll(d) => d.to_string(),
        Action::Move { cube, dir } => format!("{cube}{}", DIRECTION_NAMES[dir as usize]),
    }
}

pub fn parse_action(text: &str) -> Result<Action, Error> {
    let t = text.trim().to_ascii_lowercase();
    if let Some(cubes) = t.strip_prefix("setup:") {
        let digits: Vec<u8> = cubes.bytes().map(|b| b.wrapping_sub(b'0')).collect();
        return rank(&digits).map(Action::Setup).ok_or_else(|| {
            Error::notation(format!("'{text}': an arrangement lists cubes 1-6 once each, e.g. setup:153264"))
        });
    }
    let bytes = t.as_bytes();
    match bytes {
        [d @ b'1'..=b'6'] => Ok(Action::Roll(d - b'0')),
        [c @ b'1'..=b'6', rest @ ..] => {
            let dir = std::str::from_utf8(rest).unwrap_or("");
            match DIRECTION_NAMES.iter().position(|&n| n == dir) {
                Some(d) => Ok(Action::Move { cube: c - b'0', dir: d as u8 }),
                None => Err(Error::notation(format!(
                    "'{text}': a move is a cube 1-6 and a direction: e, s or se for red; w, n or nw for blue (e.g. 3se)"
                ))),
            }
        }
        _ => Err(Error::notation(format!(
            "'{text}' is not an EinStein action: a move like 3se, a die value 1-6, or setup:123456"
        ))),
    }
}

fn cell_text(p: u8) -> String {
    match p {
        0 => ".".into(),
        p => format!("{}{}", if p <= 6 { 'r' } else { 'b' }, (p - 1) % 6 + 1),
    }
}

fn board_rows(state: &Einstein) -> Vec<String> {
    (0..5).map(|r| (0..5).map(|c| cell_text(state.board[r * 5 + c])).collect()).collect()
}

fn phase_text(phase: Phase) -> String {
    match phase {
        Phase::Setup => "setup".into(),
        Phase::Roll => "roll".into(),
        Phase::Move(d) => d.to_string(),
        Phase::Over => "over".into(),
    }
}

pub fn state_to_text(state: &Einstein) -> String {
    format!(
        "{} {} {} {}-{}",
        board_rows(state).join("/"),
        SIDE_NAMES[state.side as usize],
        phase_text(state.phase),
        state.score[0],
        state.score[1]
    )
}

fn parse_cell(token: &str) -> Result<u8, Error> {
    let b = token.as_bytes();
    match b {
        [b'.'] => Ok(0),
        [s @ (b'r' | b'b'), n @ b'1'..=b'6'] => Ok(piece(if *s == b'r' { 0 } else { 1 }, n - b'0')),
        _ => Err(Error::notation(format!("'{token}' is not a cell: . or a cube r1-r6 / b1-b6"))),
    }
}

fn parse_row(row: &str) -> Result<Vec<u8>, Error> {
    let mut cells = Vec::new();
    // By characters, not bytes: a cell is `.` or two characters, whatever their width.
    let mut chars = row.trim().chars();
    while let Some(ch) = chars.next() {
        let token: String = if ch == '.' {
            ch.into()
        } else {
            let next =
                chars.next().ok_or_else(|| Error::notation(format!("row '{row}' ends inside a cell")))?;
            [ch, next].into_iter().collect()
        };
        cells.push(parse_cell(&token)?);
    }
    if cells.len() != 5 {
        return Err(Error::notation(format!("row '{row}' has {} cells, expected 5", cells.len())));
    }
    Ok(cells)
}

fn parse_side(text: &str) -> Result<u8, Error> {
    match text {
        "red" => Ok(0),
        "blue" => Ok(1),
        other => Err(Error::notation(format!("side must be red or blue, got '{other}'"))),
    }
}

fn parse_phase(text: &str) -> Result<Phase, Error> {
    match text {
        "setup" => Ok(Phase::Setup),
        "roll" => Ok(Phase::Roll),
        "over" => Ok(Phase::Over),
        d if d.len() == 1 && (b'1'..=b'6').contains(&d.as_bytes()[0]) => {
            Ok(Phase::Move(d.as_bytes()[0] - b'0'))
        }
        other => {
            Err(Error::notation(format!("phase must be setup, roll, a die value 1-6 or over, got '{other}'")))
        }
    }
}

fn parse_score(text: &str) -> Result<[u8; 2], Error> {
    let bad = || Error::notation(format!("score must be <red wins>-<blue wins>, e.g. 1-0, got '{text}'"));
    let (r, b) = text.split_once('-').ok_or_else(bad)?;
    Ok([r.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?])
}

/// Builds and checks a state from its parts.
fn assemble(
    options: Options,
    cells: &[u8],
    side: u8,
    phase: Phase,
    score: [u8; 2],
) -> Result<Einstein, Error> {
    let mut state = Einstein::new(options);
    state.score = score;
    state.side = side;
    state.phase = phase;
    for (square, &p) in cells.iter().enumerate() {
        if p == 0 {
            continue;
        }
        let (owner, number) = ((p - 1) / 6, (p - 1) % 6);
        if state.squares[owner as usize][number as usize] != NO_SQUARE {
            return Err(Error::notation(format!(
                "{} cube {} appears twice",
                SIDE_NAMES[owner as usize],
                number + 1
            )));
        }
        state.squares[owner as usize][number as usize] = square as u8;
        state.alive[owner as usize] |= 1 << number;
        state.board[square] = p;
    }
    let m = options.match_to;
    if score.iter().any(|&s| s > m) || (score[0] >= m && score[1] >= m) {
        return Err(Error::notation(format!(
            "score {}-{} is impossible in a match to {m}",
            score[0], score[1]
        )));
    }
    let decided = score[0] >= m || score[1] >= m;
    let starter = state.starter();
    let placed_on_setup = |s: u8| {
        SETUP_SQUARES[s as usize].iter().all(|&sq| {
            let p = state.board[sq as usize];
            p != 0 && (p - 1) / 6 == s
        }) && state.alive[s as usize].count_ones() == 6
    };
    match phase {
        Phase::Over => {
            if !decided || score[side as usize] < m {
                return Err(Error::notation(
                    "'over' needs the side to act to have won the match (its score reaching the match length)",
                ));
            }
        }
        _ if decided => return Err(Error::notation("the match is decided: the phase must be 'over'")),
        Phase::Setup => {
            let empty = state.alive == [0, 0];
            let first_done = state.alive[(starter ^ 1) as usize] == 0 && placed_on_setup(starter);
            if !(empty && side == starter || first_done && side != starter) {
                return Err(Error::notation(format!(
                    "in the setup phase {} (the starter) arranges first on an empty board, then {}",
                    SIDE_NAMES[starter as usize],
                    SIDE_NAMES[(starter ^ 1) as usize]
                )));
            }
        }
        Phase::Roll | Phase::Move(_) => {
            for s in 0..2u8 {
                if state.alive[s as usize] == 0 {
                    return Err(Error::notation(format!(
                        "{} has no cubes: the game would be over",
                        SIDE_NAMES[s as usize]
                    )));
                }
                if state.board[GOAL[s as usize] as usize] != 0
                    && (state.board[GOAL[s as usize] as usize] - 1) / 6 == s
                {
                    return Err(Error::notation(format!(
                        "{} already stands on its goal corner",
                        SIDE_NAMES[s as usize]
                    )));
                }
            }
        }
    }
    Ok(state)
}

pub fn parse_state(options: Options, text: &str) -> Result<Einstein, Error> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if !(3..=4).contains(&fields.len()) {
        return Err(Error::notation(
            "an EinStein position is '<board> <side> <phase> [<score>]', e.g. 'r1r2r3../r4r5.../r6...b6/...b5b4/..b3b2b1 red roll 0-0'",
        ));
    }
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != 5 {
        return Err(Error::notation(format!("the board has 5 rows separated by '/', got {}", rows.len())));
    }
    let mut cells = Vec::with_capacity(25);
    for row in rows {
        cells.extend(parse_row(row)?);
    }
    let score = match fields.get(3) {
        Some(s) => parse_score(s)?,
        None => [0, 0],
    };
    assemble(options, &cells, parse_side(fields[1])?, parse_phase(fields[2])?, score)
}

pub fn state_to_json(state: &Einstein) -> Value {
    let board: Vec<Vec<Value>> = (0..5)
        .map(|r| {
            (0..5)
                .map(|c| match state.board[r * 5 + c] {
                    0 => Value::Null,
                    p => Value::String(cell_text(p)),
                })
                .collect()
        })
        .collect();
    let (phase, die) = match state.phase {
        Phase::Move(d) => ("move", Some(d)),
        other => (
            match other {
                Phase::Setup => "setup",
                Phase::Roll => "roll",
                _ => "over",
            },
            None,
        ),
    };
    json!({
        "board": board,
        "side": SIDE_NAMES[state.side as usize],
        "phase": phase,
        "die": die,
        "score": state.score,
        "match": state.options.match_to,
        "starter": SIDE_NAMES[state.starter() as usize],
    })
}

/// Reads `{"board": [[5 cells] x 5], "side", "phase", "die", "score"}`; cells are null, "" or
/// "r1".."b6".
pub fn state_from_json(options: Options, json: &Value) -> Result<Einstein, Error> {
    let field = |name: &str| {
        json.get(name).ok_or_else(|| Error::notation(format!("an EinStein position needs \"{name}\"")))
    };
    let rows = field("board")?
        .as_array()
        .filter(|r| r.len() == 5)
        .ok_or_else(|| Error::notation("\"board\" must be 5 rows"))?;
    let mut cells = Vec::with_capacity(25);
    for row in rows {
        let row = row
            .as_array()
            .filter(|r| r.len() == 5)
            .ok_or_else(|| Error::notation("each row must have 5 cells"))?;
        for cell in row {
            cells.push(match cell {
                Value::Null => 0,
                Value::String(s) if s.is_empty() => 0,
                Value::String(s) => parse_cell(s)?,
                other => {
                    return Err(Error::notation(format!(
                        "a cell must be null or a cube like \"r3\", got {other}"
                    )));
                }
            });
        }
    }
    let side = parse_side(field("side")?.as_str().unwrap_or(""))?;
    let phase = match field("phase")?.as_str().unwrap_or("") {
        "move" => {
            let die = json.get("die").and_then(Value::as_u64).filter(|d| (1..=6).contains(d));
            Phase::Move(die.ok_or_else(|| Error::notation("phase \"move\" needs \"die\": 1-6"))? as u8)
        }
        other => parse_phase(other)?,
    };
    let score = match json.get("score") {
        None => [0, 0],
        Some(s) => {
            let a = s
                .as_array()
                .filter(|a| a.len() == 2)
                .ok_or_else(|| Error::notation("\"score\" must be [red, blue]"))?;
            let n = |v: &Value| {
                v.as_u64()
                    .and_then(|x| u8::try_from(x).ok())
                    .ok_or_else(|| Error::notation("scores are small whole numbers"))
            };
            [n(&a[0])?, n(&a[1])?]
        }
    };
    assemble(options, &cells, side, phase, score)
}

const fn zobrist_table() -> [u64; 25 * 13 + 16] {
    let mut table = [0u64; 25 * 13 + 16];
    let mut x: u64 = 0x0123_4567_89AB_CDEF;
    let mut i = 0;
    while i < table.len() {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        table[i] = z ^ (z >> 31);
        i += 1;
    }
    table
}

static ZOBRIST: [u64; 25 * 13 + 16] = zobrist_table();

/// A hash of the position: cubes, side, phase and die, and the match score.
pub fn zobrist(state: &Einstein) -> u64 {
    let mut h = 0;
    for (square, &p) in state.board.iter().enumerate() {
        if p != 0 {
            h ^= ZOBRIST[square * 13 + p as usize];
        }
    }
    let phase = match state.phase {
        Phase::Setup => 0,
        Phase::Roll => 1,
        Phase::Move(d) => 1 + d as usize,
        Phase::Over => 8,
    };
    h ^= ZOBRIST[325 + phase] ^ ZOBRIST[325 + 9 + state.side as usize];
    h ^ (state.score[0] as u64) << 56 ^ (state.score[1] as u64) << 60
}

//! Fuzzing the Gomocup brain protocol (docs/gomoku.md; docs/architecture.md, Fuzzing): sessions
//! of START/RECTSTART/RESTART/BEGIN/TURN/TAKEBACK/BOARD/INFO/ABOUT lines with random arguments
//! (points off the board, taken or listed twice, renju's forbidden points), the same lines
//! edited, and made-up text. Every line is answered without a panic and in the protocol's
//! words; a refused line leaves the position as it was; every move the brain plays was legal;
//! and the brain still plays after all of it.
//!
//! The match clock is kept at 20 ms, so the brain thinks 5 ms a move whatever the session sets.
//! `PROPTEST_CASES=3000 cargo test -p ply-gomoku --test fuzz_gomocup` runs longer.

use ply_core::fuzz::strategy::{config, edits, text};
use ply_core::fuzz::{Edit, apply_edits};
use ply_core::{Game, Turn};
use ply_gomoku::gomocup::Brain;
use ply_gomoku::{Board, Point};
use proptest::prelude::*;

const ALPHABET: &str = "0123456789, -STARTBEGINTURNBOARDDONEINFOtimeout_turnrulemax_memory";

/// A number for a coordinate or a size: mostly small, sometimes at or past the edges.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (0u32..23).prop_map(|n| n.to_string()),
        1 => prop::sample::select(vec!["-1", "22", "23", "255", "65536", "4294967296", "99999999999999999999", "", "x", "1.5"])
            .prop_map(String::from),
    ]
}

/// A point: mostly on any board (and often taken), sometimes anything.
fn point() -> impl Strategy<Value = String> {
    let small = (0u8..7, 0u8..7).prop_map(|(x, y)| format!("{x},{y}"));
    prop_oneof![2 => small, 1 => (number(), number()).prop_map(|(x, y)| format!("{x},{y}"))]
}

/// An INFO line; the match clock (`time_left`) stays small, anything else goes.
fn info() -> impl Strategy<Value = String> {
    let key = prop::sample::select(vec![
        "timeout_turn",
        "timeout_match",
        "time_left",
        "max_memory",
        "rule",
        "thread_num",
        "game_type",
        "folder",
        "evaluate",
        "usedatabase",
        "nonsense",
    ]);
    let value = prop_oneof![
        (0u64..10).prop_map(|n| n.to_string()),
        number(),
        any::<u64>().prop_map(|n| n.to_string())
    ];
    (key, value).prop_map(
        |(k, v)| if k == "time_left" { "INFO time_left 20".into() } else { format!("INFO {k} {v}") },
    )
}

/// A BOARD block: stones with owners (1 ours, 2 theirs, 3 ignored, or nonsense), then DONE
/// (or not).
fn board() -> impl Strategy<Value = Vec<String>> {
    let owner = prop_oneof![8 => (1u8..=3).prop_map(|o| o.to_string()), 1 => number()];
    let stone = (point(), owner).prop_map(|(p, o)| format!("{p},{o}"));
    (prop::collection::vec(stone, 0..30), prop::bool::weighted(0.95)).prop_map(|(stones, done)| {
        std::iter::once("BOARD".to_string()).chain(stones).chain(done.then(|| "DONE".to_string())).collect()
    })
}

/// A command, as one line or (BOARD) several.
fn command() -> impl Strategy<Value = Vec<String>> {
    prop_oneof![
        2 => number().prop_map(|n| vec![format!("START {n}")]),
        1 => (number(), number()).prop_map(|(w, h)| vec![format!("RECTSTART {w},{h}")]),
        1 => Just(vec!["RESTART".to_string()]),
        2 => Just(vec!["BEGIN".to_string()]),
        10 => point().prop_map(|p| vec![format!("TURN {p}")]),
        2 => point().prop_map(|p| vec![format!("TAKEBACK {p}")]),
        3 => board(),
        3 => info().prop_map(|i| vec![i]),
        1 => Just(vec!["ABOUT".to_string()]),
    ]
}

/// A session line: a command, maybe with one of its lines edited, or made-up text.
fn line() -> impl Strategy<Value = Vec<String>> {
    prop_oneof![
        6 => command(),
        2 => (command(), any::<usize>(), edits(ALPHABET)).prop_map(|(mut c, i, e): (Vec<String>, usize, Vec<Edit>)| {
            let i = i % c.len();
            c[i] = apply_edits(&c[i], &e);
            c
        }),
        1 => text(ALPHABET).prop_map(|t| vec![t]),
    ]
}

/// The match clock stays at 20 ms whatever an edit made of an INFO line: one line, and a
/// `time_left` only if small.
fn sendable(line: &str) -> Option<String> {
    let line = line.replace(['\n', '\r'], " ");
    let (word, rest) = line.trim().split_once(char::is_whitespace).unwrap_or((line.trim(), ""));
    if word.eq_ignore_ascii_case("INFO") {
        let (key, value) = rest.trim().split_once(char::is_whitespace).unwrap_or((rest.trim(), ""));
        if key.eq_ignore_ascii_case("time_left") && value.trim().parse::<u64>().is_ok_and(|v| v > 20) {
            return None;
        }
    }
    Some(line)
}

/// A reply in the protocol's words.
fn well_formed(reply: &str) -> bool {
    let is_move =
        reply.split_once(',').is_some_and(|(x, y)| x.parse::<usize>().is_ok() && y.parse::<usize>().is_ok());
    is_move
        || reply == "OK"
        || reply.starts_with("ERROR ")
        || reply.starts_with("UNKNOWN ")
        || reply.starts_with("MESSAGE ")
        || reply.starts_with("name=\"Ply\"")
}

/// The point of a move reply, if it is one.
fn move_of(board: &Board, reply: &str) -> Option<Point> {
    let (x, y) = reply.split_once(',')?;
    board.point(x.parse().ok()?, y.parse().ok()?)
}

proptest! {
    #![proptest_config(config(200))]

    #[test]
    fn sessions_of_good_bad_and_edited_lines(
        size in 5usize..=22,
        rule in prop::sample::select(vec![0u8, 1, 4]),
        session in prop::collection::vec(line(), 1..12),
    ) {
        let mut lines: Vec<String> = vec![format!("START {size}"), "INFO time_left 20".into(), format!("INFO rule {rule}")];
        lines.extend(session.into_iter().flatten().filter_map(|l| sendable(&l)));
        // DONE closes a BOARD left open (a BOARD reads every line up to one); outside, it is an
        // unknown command.
        lines.extend(["DONE", "RESTART", "BEGIN", "ABOUT"].map(String::from));
        let mut brain = Brain::new();
        let mut input = lines.into_iter();
        let mut last_replies = Vec::new();
        while let Some(line) = input.next() {
            let before = brain.board().cloned();
            let replies = brain.handle(&line, &mut || input.next());
            for reply in &replies {
                prop_assert!(well_formed(reply), "'{line}' got '{reply}'");
            }
            // "No legal move" follows an accepted position: the refusal is of our own move.
            let refused = replies.iter().any(|r| {
                (r.starts_with("ERROR") || r.starts_with("UNKNOWN")) && !r.starts_with("ERROR no legal move")
            });
            let after = brain.board();
            if refused {
                prop_assert_eq!(before.as_ref(), after, "'{}' was refused but changed the position", line);
            }
            if let (Some(board), Some(reply)) = (after, replies.last())
                && let Some(p) = move_of(board, reply)
            {
                let mut earlier = board.clone();
                prop_assert_eq!(earlier.take_back(), Some(p), "the brain's move is its last stone");
                prop_assert!(earlier.is_legal(p), "'{}' answered {} in {}", line, reply, earlier.to_text());
            }
            if let Some(board) = after {
                prop_assert_eq!(board.turn() == Turn::Over, board.actions().is_empty(), "{}", board.to_text());
            }
            last_replies = replies;
            if brain.finished {
                // END (made by an edit): the session is over before the probe.
                return Ok(());
            }
        }
        prop_assert!(last_replies.first().is_some_and(|r| r.starts_with("name=")), "{last_replies:?}");
    }
}

//! The Gomocup brain (`pbrain-ply`) end to end: every command, bad moves, tactics, renju, and
//! the clocks.

use std::time::Duration;

use ply_gomoku::gomocup::{Settings, run};

fn session(lines: &[&str]) -> Vec<String> {
    let input = lines.join("\n");
    let mut out = Vec::new();
    run(input.as_bytes(), &mut out).unwrap();
    String::from_utf8(out).unwrap().lines().filter(|l| !l.starts_with("MESSAGE")).map(String::from).collect()
}

#[test]
fn a_short_game_and_every_command() {
    let out = session(&[
        "ABOUT",
        "START 15",
        "INFO timeout_turn 200",
        "INFO timeout_match 100000",
        "INFO max_memory 83886080",
        "INFO rule 0",
        "INFO game_type 1",
        "BEGIN",
        "TURN 8,8",
        "TAKEBACK 8,8",
        "RESTART",
        "BOARD",
        "7,7,1",
        "8,8,2",
        "DONE",
        "RECTSTART 20,20",
        "RECTSTART 20,15",
        "START 40",
        "FOO",
        "END",
    ]);
    assert!(out[0].starts_with("name=\"Ply\""), "{out:?}");
    assert_eq!(out[1], "OK");
    let first: Vec<&str> = out[2].split(',').collect();
    assert_eq!(first.len(), 2, "a move is x,y: {out:?}");
    // TURN gets a move back; TAKEBACK of a point that is not the last stone is refused.
    assert!(out[3].contains(','), "{out:?}");
    assert!(out[4].starts_with("ERROR"), "{out:?}");
    assert_eq!(out[5], "OK");
    assert!(out[6].contains(',') && !out[6].starts_with("ERROR"), "{out:?}");
    assert_eq!(out[7], "OK");
    assert!(out[8].starts_with("ERROR rectangular"));
    assert!(out[9].starts_with("ERROR unsupported board size"));
    assert!(out[10].starts_with("UNKNOWN"));
    assert_eq!(out.len(), 11);
}

#[test]
fn bad_moves_are_refused_and_the_game_goes_on() {
    let out = session(&[
        "START 15",
        "INFO timeout_turn 100",
        "TURN 7,7",
        "TURN 7,7",
        "TURN 15,3",
        "TURN a,b",
        "TURN 3,3",
    ]);
    assert!(out[1].contains(','));
    assert!(out[2].contains("already taken"), "{out:?}");
    assert!(out[3].contains("off the 15x15 board"), "{out:?}");
    assert!(out[4].contains("whole numbers"), "{out:?}");
    assert!(out[5].contains(',') && !out[5].starts_with("ERROR"), "{out:?}");
}

#[test]
fn it_blocks_and_wins() {
    // We are white (to move with equal... no: opponent black has four in a row).
    let out = session(&[
        "START 15",
        "INFO timeout_turn 300",
        "BOARD",
        "3,7,2",
        "0,0,1",
        "4,7,2",
        "0,1,1",
        "5,7,2",
        "0,2,1",
        "6,7,2",
        "DONE",
    ]);
    assert!(out[1] == "2,7" || out[1] == "7,7", "{out:?}");
    let out = session(&[
        "START 15",
        "INFO timeout_turn 300",
        "BOARD",
        "3,7,1",
        "0,0,2",
        "4,7,1",
        "0,1,2",
        "5,7,1",
        "0,2,2",
        "6,7,1",
        "10,10,2",
        "DONE",
    ]);
    assert!(out[1] == "2,7" || out[1] == "7,7", "{out:?}");
}

#[test]
fn renju_never_plays_a_forbidden_point() {
    // Black (us) to move where the only "good" point is a double three.
    let out = session(&[
        "START 15",
        "INFO rule 4",
        "INFO timeout_turn 300",
        "BOARD",
        "6,7,1",
        "0,14,2",
        "7,7,1",
        "2,14,2",
        "9,9,1",
        "4,14,2",
        "9,8,1",
        "6,14,2",
        "DONE",
    ]);
    let (x, y) = out[1].split_once(',').unwrap();
    assert!(!(x == "9" && y == "7"), "9,7 is a double three: {out:?}");
}

#[test]
fn renju_black_with_only_forbidden_points_gets_an_error_not_a_move() {
    // 5x5, we are black (1) to move: d2 (3,1), a5 (0,4) and d5 (3,4) each make two fours.
    let black = ["4,4", "1,4", "0,3", "3,3", "1,3", "2,4", "3,0", "2,2", "3,2", "2,0", "4,0"];
    let white = ["1,0", "0,0", "1,1", "0,1", "2,3", "4,2", "4,1", "2,1", "4,3", "0,2", "1,2"];
    let mut lines = vec!["START 5", "INFO rule 4", "INFO timeout_turn 100", "BOARD"];
    let stones: Vec<String> =
        black.iter().zip(&white).flat_map(|(b, w)| [format!("{b},1"), format!("{w},2")]).collect();
    lines.extend(stones.iter().map(String::as_str));
    lines.extend(["DONE", "ABOUT"]);
    let out = session(&lines);
    assert_eq!(out.len(), 3, "{out:?}");
    assert!(out[1].starts_with("ERROR") && out[1].contains("forbidden"), "{out:?}");
    assert!(out[2].starts_with("name="), "the brain carries on: {out:?}");
}

#[test]
fn move_time_respects_both_clocks() {
    let s = Settings { timeout_turn_ms: 1000, time_left_ms: 60_000, ..Settings::default() };
    assert!(s.move_time(10, 15) <= Duration::from_millis(900));
    let s = Settings { timeout_turn_ms: 5000, time_left_ms: 2_000, ..Settings::default() };
    assert!(s.move_time(10, 15) <= Duration::from_millis(200));
    let s = Settings { max_memory_bytes: 64 << 20, ..Settings::default() };
    assert!((1u64 << s.table_bits()) * 16 <= 32 << 20);
}

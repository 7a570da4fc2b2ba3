//! The Gomocup brain (`pbrain-ply`) end to end: every command, bad moves, tactics, renju, and
//! the clocks.

use std::time::Duration;

use ply_gomoku::EngineConfig;
use ply_gomoku::gomocup::{Settings, run};

fn session(lines: &[&str]) -> Vec<String> {
    let input = lines.join("\n");
    let mut out = Vec::new();
    run(EngineConfig::default(), input.as_bytes(), &mut out).unwrap();
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
    assert!((1u64 << s.table_bits(EngineConfig::default().tt_bits)) * 16 <= 32 << 20);
}

#[test]
fn a_move_spends_its_time_only_when_no_match_clock_needs_it() {
    // c-gomoku-cli without a match clock: time_left is i32::MAX.
    let per_move = Settings {
        timeout_turn_ms: 1000,
        timeout_match_ms: 0,
        time_left_ms: 2_147_483_647,
        ..Settings::default()
    };
    assert!(per_move.turn_limit_binds(10, 15));
    // Gomocup's freestyle: 30 s a move, 180 s a match.
    let gomocup = Settings {
        timeout_turn_ms: 30_000,
        timeout_match_ms: 180_000,
        time_left_ms: 180_000,
        ..Settings::default()
    };
    assert!(!gomocup.turn_limit_binds(10, 15));
    // Near the end of the match clock, even a short move limit counts.
    let late = Settings { timeout_turn_ms: 1000, time_left_ms: 15_000, ..Settings::default() };
    assert!(!late.turn_limit_binds(100, 15));
}

/// Every line the brain printed, MESSAGE lines included.
fn raw_session(lines: &[&str]) -> Vec<String> {
    let input = lines.join("\n");
    let mut out = Vec::new();
    run(EngineConfig::default(), input.as_bytes(), &mut out).unwrap();
    String::from_utf8(out).unwrap().lines().map(String::from).collect()
}

#[test]
fn timeout_turn_zero_means_as_fast_as_possible() {
    let fastest = Settings { timeout_turn_ms: 0, ..Settings::default() };
    assert!(fastest.move_time(0, 15) <= Duration::from_millis(5), "{:?}", fastest.move_time(0, 15));
    let out = session(&["START 15", "INFO timeout_turn 0", "BEGIN", "END"]);
    assert_eq!(out[0], "OK");
    assert_eq!(out[1].split(',').count(), 2, "a move: {out:?}");
}

#[test]
fn stop_and_end_interrupt_a_search() {
    // A 20 s move, stopped by YXSTOP as soon as it is read: the brain answers with what it
    // has, and reads on. The search's own report says how long it ran.
    for stop in ["YXSTOP", "STOP", "END"] {
        let out = raw_session(&["START 15", "INFO timeout_turn 20000", "BEGIN", stop, "ABOUT", "END"]);
        let report = out.iter().find(|l| l.starts_with("MESSAGE depth")).unwrap_or_else(|| panic!("{out:?}"));
        let ms: u64 =
            report.split("time ").nth(1).and_then(|t| t.split(' ').next()).unwrap().parse().unwrap();
        assert!(ms < 10_000, "{stop} stopped the 20 s search: {report}");
        let moves = out.iter().filter(|l| l.split(',').count() == 2 && !l.contains(' ')).count();
        assert_eq!(moves, 1, "{out:?}");
        // After END nothing more is answered; after a stop the brain carries on.
        assert_eq!(out.iter().any(|l| l.starts_with("name=")), stop != "END", "{stop}: {out:?}");
    }
}

#[test]
fn end_inside_board_ends_the_brain() {
    let out = session(&["START 15", "BOARD", "7,7,1", "END", "ABOUT"]);
    assert_eq!(out, ["OK"]);
}

#[test]
fn a_finished_game_gets_an_error_not_a_move() {
    // The opponent (2) has five on the top row; four of ours below; we are to move.
    let mut lines = vec!["START 15", "INFO timeout_turn 50", "BOARD"];
    let stones: Vec<String> = (0..5)
        .flat_map(|x| {
            let theirs = format!("{x},0,2");
            if x < 4 { vec![theirs, format!("{x},5,1")] } else { vec![theirs] }
        })
        .collect();
    lines.extend(stones.iter().map(String::as_str));
    lines.extend(["DONE", "ABOUT"]);
    let out = session(&lines);
    assert_eq!(out[1], "ERROR the game is already over: the opponent has five in a row", "{out:?}");
    assert!(out[2].starts_with("name="), "the brain carries on: {out:?}");
}

#[test]
fn errors_quote_only_a_bounded_part_of_a_huge_line() {
    let huge = "X".repeat(100_000);
    let turn = format!("TURN {huge}");
    let word = format!("FOO{huge}");
    let out = session(&["START 15", &turn, &word, "ABOUT"]);
    assert!(out[1].starts_with("ERROR") && out[1].len() < 200, "{}", &out[1][..200.min(out[1].len())]);
    assert!(out[2].starts_with("UNKNOWN") && out[2].len() < 200, "{}", &out[2][..200.min(out[2].len())]);
    assert!(out[3].starts_with("name="));
}

/// The MESSAGE lines' thread counts.
fn message_threads(out: &[String]) -> Vec<usize> {
    out.iter()
        .filter(|l| l.starts_with("MESSAGE depth"))
        .map(|l| l.split("threads ").nth(1).unwrap_or_else(|| panic!("{l}")).trim().parse().unwrap())
        .collect()
}

#[test]
fn thread_num_sets_the_search_threads() {
    // No END: one read ahead would stop the searches at once.
    let out = raw_session(&["START 15", "INFO timeout_turn 200", "INFO thread_num 2", "BEGIN", "TURN 8,8"]);
    let moves = out.iter().filter(|l| l.split(',').count() == 2 && !l.contains(' ')).count();
    assert_eq!(moves, 2, "{out:?}");
    assert_eq!(message_threads(&out), [2, 2], "{out:?}");
    assert!(!out[3].starts_with("MESSAGE depth 0 "), "the second move is searched: {out:?}");
    // Not more than the machine can run, nor fewer than one.
    let out = raw_session(&["START 15", "INFO timeout_turn 50", "INFO thread_num 100000", "BEGIN", "END"]);
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    assert_eq!(message_threads(&out), [(2 * cores).min(64)], "{out:?}");
    let out = raw_session(&["START 15", "INFO timeout_turn 50", "INFO thread_num 0", "BEGIN", "END"]);
    assert_eq!(message_threads(&out), [1], "{out:?}");
    // A stop reaches the helper threads too: a 20 s move ends at once.
    let out =
        raw_session(&["START 15", "INFO thread_num 2", "INFO timeout_turn 20000", "BEGIN", "YXSTOP", "END"]);
    let report = out.iter().find(|l| l.starts_with("MESSAGE depth")).unwrap_or_else(|| panic!("{out:?}"));
    let ms: u64 = report.split("time ").nth(1).and_then(|t| t.split(' ').next()).unwrap().parse().unwrap();
    assert!(ms < 10_000, "{report}");
}

#[test]
fn the_threads_share_one_table_in_the_memory_limit() {
    // Room for a table of 2^20 entries (16 bytes each), twice over, and one helper thread.
    let memory = 2 * (16 << 20) + ply_gomoku::Engine::HELPER_BYTES;
    let bits = |threads| {
        Settings { max_memory_bytes: memory, threads, ..Settings::default() }
            .table_bits(EngineConfig::default().tt_bits)
    };
    assert_eq!(bits(1), 20);
    assert_eq!(bits(2), 20, "the second thread's own state fits beside the one table");
    assert_eq!(bits(3), 19, "a third thread's does not");
}

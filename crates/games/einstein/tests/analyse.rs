//! `einstein-analyse` end to end: it judges records written in the arena's format, and bad
//! records or arguments get an error naming what is wrong.

use std::path::PathBuf;
use std::process::Command;

use ply_arena::GameRecord;
use ply_core::rng::rng_from_seed;
use ply_core::{Game, GameDef};
use ply_einstein::{Einstein, Phase};
use rand::RngExt;

/// A finished game between a random player (seat 0) and one that takes a winning move when it
/// has one (seat 1), as a record.
fn record(seed: u64) -> GameRecord {
    let mut rng = rng_from_seed(seed);
    let mut state = Einstein::new_from_text_options("").unwrap();
    let mut actions = Vec::new();
    while state.phase() != Phase::Over {
        let action = match state.phase() {
            Phase::Move(_) => {
                let moves = state.actions();
                let winning = moves.iter().copied().find(|&m| state.is_winning_move(m));
                match winning {
                    Some(m) if state.side() == 1 => m,
                    _ => moves[rng.random_range(0..moves.len())],
                }
            }
            _ => state.sample_chance(&mut rng),
        };
        actions.push(state.action_to_text(action));
        state.apply(action);
    }
    GameRecord {
        game: "einstein".into(),
        options: String::new(),
        index: seed,
        seed,
        seats: vec!["random".into(), "wins".into()],
        opening_plies: 0,
        actions,
        returns: state.returns().as_slice().to_vec(),
        final_state: state.to_text(),
    }
}

fn write(name: &str, records: &[GameRecord]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("ply-analyse-{}-{name}.jsonl", std::process::id()));
    let mut bytes = Vec::new();
    ply_arena::record::write_jsonl(&mut bytes, records).unwrap();
    std::fs::write(&path, bytes).unwrap();
    path
}

fn analyse(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_einstein-analyse")).args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn judges_recorded_games_per_agent() {
    let records: Vec<GameRecord> = (0..40).map(record).collect();
    let path = write("good", &records);
    let (ok, stdout, stderr) = analyse(&[path.to_str().unwrap(), "--depth", "1", "--threads", "2"]);
    std::fs::remove_file(&path).ok();
    assert!(ok, "{stderr}");
    assert!(stdout.starts_with("40 games; values exact with at most 4 cubes"), "{stdout}");
    for agent in ["random", "wins"] {
        assert!(stdout.contains(&format!("{agent}\n  score ")), "{stdout}");
    }
    // Random moves give a lot away: every game has decisions, and some of them are mistakes.
    assert!(stdout.contains("decisions not the best"), "{stdout}");
    assert!(!stdout.contains(" 0 of 0 decisions"), "{stdout}");
    assert!(stdout.contains("predicted score") && stdout.contains("best play in its place"), "{stdout}");
}

#[test]
fn bad_records_and_arguments_are_refused_with_the_reason() {
    let good = record(1);
    let mut other_game = good.clone();
    other_game.game = "connect4".into();
    let mut illegal = good.clone();
    illegal.actions[3] = "9z".into();
    let mut unfinished = good.clone();
    unfinished.actions.truncate(4);
    let mut one_seat = good.clone();
    one_seat.seats.pop();
    let mut a_match = good.clone();
    a_match.options = "match=3".into();
    let cases = [
        (other_game, "record 2: a record of 'connect4', not of einstein"),
        (illegal, "record 2: action 4 '9z'"),
        (unfinished, "record 2: the game is not finished"),
        (one_seat, "record 2: a record needs two seats and two returns"),
        (a_match, "record 2: a match (match=N above 1)"),
    ];
    for (i, (bad, expected)) in cases.into_iter().enumerate() {
        let path = write(&format!("bad{i}"), &[good.clone(), bad]);
        let (ok, _, stderr) = analyse(&[path.to_str().unwrap()]);
        std::fs::remove_file(&path).ok();
        assert!(!ok);
        assert!(stderr.contains(expected), "expected '{expected}' in: {stderr}");
    }

    let path = write("args", &[good]);
    let file = path.to_str().unwrap();
    for (args, expected) in [
        (vec![file, "--exact", "6"], "--exact must be 0 to 5, got 6"),
        (vec![file, "--depth", "4"], "--depth must be 0 to 3, got 4"),
        (vec![file, "--net", "/nonexistent/value.net"], "cannot read network '/nonexistent/value.net'"),
        (vec!["/nonexistent/games.jsonl"], "cannot read '/nonexistent/games.jsonl'"),
    ] {
        let (ok, _, stderr) = analyse(&args);
        assert!(!ok);
        assert!(stderr.contains(expected), "expected '{expected}' in: {stderr}");
    }
    std::fs::write(&path, "{\"game\": \"einstein\"\n").unwrap();
    let (ok, _, stderr) = analyse(&[file]);
    std::fs::remove_file(&path).ok();
    assert!(!ok);
    assert!(stderr.contains("line 1:"), "{stderr}");
}

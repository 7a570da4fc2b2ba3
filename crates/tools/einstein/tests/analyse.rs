//! `einstein-analyse` end to end: it judges records written in the arena's format and games
//! downloaded from the web UI, lists the mistakes of each game, and bad records or arguments get
//! an error naming what is wrong.

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

fn write_text(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("ply-analyse-{}-{name}.jsonl", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

fn write(name: &str, records: &[GameRecord]) -> PathBuf {
    let mut bytes = Vec::new();
    ply_arena::record::write_jsonl(&mut bytes, records).unwrap();
    write_text(name, &String::from_utf8(bytes).unwrap())
}

/// A game as the web UI's `GET /api/games/{id}/record` gives it (docs/web-api.md), pretty-printed
/// as a browser saves it; only the fields the judge reads are filled in with care.
fn web_record(record: &GameRecord, result: Option<serde_json::Value>) -> String {
    let actions: Vec<_> = record
        .actions
        .iter()
        .enumerate()
        .map(|(ply, a)| serde_json::json!({"ply": ply, "action": a, "player": null, "by": "ai", "ts": 0}))
        .collect();
    let web = serde_json::json!({
        "id": 7, "game": "einstein", "options": "", "seed": "1",
        "sides": [{"kind": "human", "name": "Ada"}, {"kind": "ai", "agent": "mcts:c=0.4", "time_ms": 100}],
        "status": if result.is_some() { "finished" } else { "playing" },
        "result": result, "created": 0, "updated": 0, "actions": actions, "positions": [],
    });
    serde_json::to_string_pretty(&web).unwrap()
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
fn lists_the_mistakes_of_each_game() {
    let path = write("moves", &[record(4), record(5)]);
    let (ok, stdout, stderr) = analyse(&[path.to_str().unwrap(), "--moves", "0.05", "--depth", "0"]);
    std::fs::remove_file(&path).ok();
    assert!(ok, "{stderr}");
    assert!(stdout.starts_with("game 1: red random, blue wins; "), "{stdout}");
    assert!(stdout.contains("\ngame 2: red random, blue wins; "), "{stdout}");
    // Each listed decision names the move played, the best one, the loss and the position.
    let listed: Vec<&str> = stdout.lines().filter(|l| l.starts_with("  action ")).collect();
    assert!(!listed.is_empty(), "{stdout}");
    for line in listed {
        assert!(line.contains(" leaves ") && line.contains(" points given away"), "{line}");
        let position = line.rsplit(" at ").next().unwrap();
        let state = Einstein::new_from_text_options("").unwrap().parse_state(position);
        assert!(state.is_ok_and(|s| matches!(s.phase(), Phase::Move(_))), "{line}");
        let loss: f64 = line.split(": ").nth(2).unwrap().split(' ').next().unwrap().parse().unwrap();
        assert!(loss >= 5.0, "{line}");
    }
}

#[test]
fn judges_a_game_downloaded_from_the_web_ui() {
    let game = record(6);
    let result = serde_json::json!({"returns": game.returns, "winner": 1, "reason": "end"});
    let path = write_text("web", &web_record(&game, Some(result)));
    let (ok, stdout, stderr) = analyse(&[path.to_str().unwrap(), "--depth", "0"]);
    assert!(ok, "{stderr}");
    assert!(stdout.starts_with("1 games;"), "{stdout}");
    assert!(stdout.contains("\nAda\n  score ") && stdout.contains("\nmcts:c=0.4\n  score "), "{stdout}");

    // A resigned game is judged up to the resignation; one without a result is refused.
    let mut resigned = game.clone();
    resigned.actions.truncate(8);
    let result = serde_json::json!({"returns": [0.0, 1.0], "winner": 1, "reason": "resign", "resigned": 0});
    std::fs::write(&path, web_record(&resigned, Some(result))).unwrap();
    let (ok, _, stderr) = analyse(&[path.to_str().unwrap(), "--depth", "0"]);
    assert!(ok, "{stderr}");
    std::fs::write(&path, web_record(&resigned, None)).unwrap();
    let (ok, _, stderr) = analyse(&[path.to_str().unwrap()]);
    std::fs::remove_file(&path).ok();
    assert!(!ok);
    assert!(stderr.contains("the game has no result (it is still playing, or was aborted)"), "{stderr}");
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
        (vec![file, "--moves", "2"], "--moves must be a winning chance from 0 to 1, got 2"),
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

//! `einstein-analyse` end to end: it judges records written in the arena's format and games
//! downloaded from the web UI (played through `ply serve`'s API), lists the mistakes of each
//! game, and bad records or arguments get an error naming what is wrong.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use ply_arena::GameRecord;
use ply_core::rng::rng_from_seed;
use ply_core::{Game, GameDef};
use ply_einstein::{Einstein, Phase};
use rand::RngExt;
use serde_json::{Value, json};
use tower::ServiceExt;

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
        seed: Some(seed),
        seats: vec!["random".into(), "wins".into()],
        opening_plies: 0,
        actions,
        returns: state.returns().as_slice().to_vec(),
        final_state: state.to_text(),
        ..GameRecord::default()
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

/// A request to the web server in process; the reply's body as the server sent it.
async fn call(app: &axum::Router, method: &str, path: &str, body: Value, token: Option<&str>) -> String {
    let mut request = Request::builder().method(method).uri(path).header("content-type", "application/json");
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    let body = if body.is_null() { Body::empty() } else { Body::from(body.to_string()) };
    let response = app.clone().oneshot(request.body(body).unwrap()).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    assert!(status.is_success(), "{method} {path}: {status} {text}");
    text
}

async fn create(app: &axum::Router, sides: Value) -> Value {
    let body = json!({"game": "einstein", "sides": sides, "delay_ms": 0});
    serde_json::from_str(&call(app, "POST", "/api/games", body, None).await).unwrap()
}

async fn wait_until(app: &axum::Router, id: i64, done: impl Fn(&Value) -> bool) {
    for _ in 0..600 {
        let view = call(app, "GET", &format!("/api/games/{id}"), Value::Null, None).await;
        if done(&serde_json::from_str(&view).unwrap()) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("game {id} did not get there");
}

async fn download(app: &axum::Router, id: i64) -> String {
    call(app, "GET", &format!("/api/games/{id}/record"), Value::Null, None).await
}

/// Games played through `ply serve`'s API and downloaded as the page's "Download JSON" does:
/// one played to the end by two AIs, the first named; one a human has not moved in yet; and the
/// same one after the human resigned.
async fn web_games(app: &axum::Router) -> [String; 3] {
    let ai = |agent: &str| json!({"kind": "ai", "agent": agent});
    let named = json!({"kind": "ai", "agent": "random", "name": "Ada"});
    let played = create(app, json!([named, ai("mcts:iters=50")])).await["id"].as_i64().unwrap();
    wait_until(app, played, |v| v["status"] == "over").await;

    let created = create(app, json!([{"kind": "human"}, ai("random")])).await;
    let id = created["id"].as_i64().unwrap();
    wait_until(app, id, |v| v["turn"]["human"] == true).await;
    let playing = download(app, id).await;
    let token = created["tokens"]["seats"][0].as_str().unwrap();
    call(app, "POST", &format!("/api/games/{id}/resign"), json!({}), Some(token)).await;
    [download(app, played).await, playing, download(app, id).await]
}

#[test]
fn judges_games_downloaded_from_the_web_ui() {
    let dir = tempfile::tempdir().unwrap();
    let app = ply_web::router(vec![ply_arena::entry::<Einstein>()], dir.path()).unwrap();
    let [played, playing, resigned] = tokio::runtime::Runtime::new().unwrap().block_on(web_games(&app));
    let path = write_text("web", &played);
    let (ok, stdout, stderr) = analyse(&[path.to_str().unwrap(), "--depth", "0"]);
    assert!(ok, "{stderr}");
    assert!(stdout.starts_with("1 games;"), "{stdout}");
    // A side is named by its name in the web UI, else by its agent.
    assert!(stdout.contains("\nAda\n  score ") && stdout.contains("\nmcts:iters=50\n  score "), "{stdout}");

    // A resigned game is judged up to the resignation; one without a result is refused.
    std::fs::write(&path, &resigned).unwrap();
    let (ok, stdout, stderr) = analyse(&[path.to_str().unwrap(), "--depth", "0"]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("\nhuman\n  score 0.0%"), "{stdout}");
    std::fs::write(&path, &playing).unwrap();
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
    one_seat.returns.pop();
    let mut three_returns = good.clone();
    three_returns.returns.push(0.0);
    let mut a_match = good.clone();
    a_match.options = "match=3".into();
    let cases = [
        (other_game, "record 2: a record of 'connect4', not of einstein"),
        (illegal, "record 2: action 4 '9z'"),
        (unfinished, "record 2: the game is not finished"),
        (one_seat, "record 2: a record needs two seats and two returns"),
        (three_returns, "record 2 (line 2): 3 returns for 2 seats"),
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
    assert!(stderr.contains("record 1 (line 1): EOF while parsing"), "{stderr}");
}

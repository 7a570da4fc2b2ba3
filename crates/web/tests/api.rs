//! The HTTP API in process: requests go straight into the router; the SQLite file lives in a
//! temporary directory, and a "restart" is a second router on the same directory.

mod common;

use std::time::Duration;

use axum::http::StatusCode;
use common::*;
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_move_illegal_move_and_ai_reply() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(dir.path());
    let view = new_game(
        &app,
        json!({"game": "connect4", "sides": [{"kind": "human"}, {"kind": "ai", "agent": "random"}], "delay_ms": 0}),
    )
    .await;
    let id = view["id"].as_i64().unwrap();
    assert_eq!(view["status"], "playing");
    assert_eq!(view["legal"].as_array().unwrap().len(), 7);
    assert_eq!(view["sides"][1]["time_ms"], 1000, "the default time is filled in");

    let me = seat(&view, 0);
    assert!(view["tokens"]["seats"][1].is_null(), "an AI seat has no token");
    let (status, err) = post_as(&app, &format!("/api/games/{id}/move"), json!({"action": "9"}), &me).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_of(&err).contains('9'), "{err}");
    let after = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(after["position"], view["position"], "a refused move changes nothing");
    assert_eq!(after["actions"], json!([]));

    let (status, moved) =
        post_as(&app, &format!("/api/games/{id}/move"), json!({"action": "4", "ply": 0}), &me).await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    assert_eq!(moved["actions"][0]["action"], "4");
    assert_eq!(moved["actions"][0]["by"], "human");
    let replied = wait_for(&app, id, human_to_move).await;
    let reply = &replied["actions"][1];
    assert_eq!(reply["by"], "ai");
    assert_eq!(reply["player"], 1);
    assert!(reply["info"].is_object(), "the AI's move carries its search report: {reply}");

    // A move from a stale board (ply 0) is refused.
    let (status, err) =
        post_as(&app, &format!("/api/games/{id}/move"), json!({"action": "1", "ply": 0}), &me).await;
    assert_eq!(status, StatusCode::CONFLICT, "{err}");
}

/// A connect4 game of a human against MCTS thinking for 30 s a move, after the human's first
/// move, once the AI's search is running: its id and the human's token.
async fn ai_thinking_for_30_s(app: &axum::Router) -> (i64, String) {
    let sides = json!([{"kind": "human"}, {"kind": "ai", "agent": "mcts", "time_ms": 30000}]);
    let view = new_game(app, json!({"game": "connect4", "sides": sides, "delay_ms": 0})).await;
    let id = view["id"].as_i64().unwrap();
    let me = seat(&view, 0);
    let (status, _) = post_as(app, &format!("/api/games/{id}/move"), json!({"action": "4"}), &me).await;
    assert_eq!(status, StatusCode::OK);
    let s = wait_status(app, Duration::from_secs(10), |s| s["searches"] == 1).await;
    assert_eq!(s["searches"], 1, "the AI is searching: {s}");
    (id, me)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_out_of_turn_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(dir.path());
    let (id, me) = ai_thinking_for_30_s(&app).await;
    let (status, err) = post_as(&app, &format!("/api/games/{id}/move"), json!({"action": "3"}), &me).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(error_of(&err).contains("AI"), "{err}");
    let (status, err) =
        post_as(&app, &format!("/api/games/{id}/move"), json!({"action": "3", "player": 1}), &me).await;
    assert_eq!(status, StatusCode::CONFLICT, "{err}");
    let view = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(view["actions"].as_array().unwrap().len(), 1, "the refused moves were not played");
    assert_eq!(view["thinking"]["player"], 1, "{view}");
    let (status, _) = post_as(&app, &format!("/api/games/{id}/resign"), json!({}), &me).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resigning_stops_the_ai_search_long_before_its_budget() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(dir.path());
    let (id, me) = ai_thinking_for_30_s(&app).await;
    let (status, over) = post_as(&app, &format!("/api/games/{id}/resign"), json!({}), &me).await;
    assert_eq!(status, StatusCode::OK, "{over}");
    assert_eq!(over["status"], "over");
    assert_eq!(over["result"]["winner"], 1);
    assert_eq!(over["result"]["reason"], "resign");
    assert!(over["thinking"].is_null());
    // The search ends at the resign: a third of its 30 s is generous for a stop and still far
    // from the budget.
    let s = wait_status(&app, Duration::from_secs(10), |s| s["searches"] == 0).await;
    assert_eq!(s["searches"], 0, "the search stopped at the resign, not at its 30 s: {s}");
    // The search has ended, so anything it was going to record is recorded: nothing was.
    let later = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(later["actions"].as_array().unwrap().len(), 1, "the stopped search plays nothing: {later}");
    assert_eq!(
        (later["status"].clone(), later["result"]["reason"].clone()),
        (json!("over"), json!("resign"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_get_json_errors() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(dir.path());
    let human = json!({"kind": "human"});
    let cases = [
        ("GET", "/api/games/999", None, StatusCode::NOT_FOUND, "no game 999"),
        ("GET", "/api/games/abc", None, StatusCode::NOT_FOUND, "game ids are numbers"),
        (
            "POST",
            "/api/games/999/move",
            Some(r#"{"action":"1"}"#.to_string()),
            StatusCode::NOT_FOUND,
            "no game",
        ),
        ("POST", "/api/games", Some("{not json".to_string()), StatusCode::BAD_REQUEST, "malformed JSON"),
        ("GET", "/api/nowhere", None, StatusCode::NOT_FOUND, "no endpoint"),
        ("DELETE", "/api/games", None, StatusCode::METHOD_NOT_ALLOWED, "not allowed"),
        (
            "POST",
            "/api/games",
            Some(json!({"game": "chess", "sides": [human, human]}).to_string()),
            StatusCode::NOT_FOUND,
            "unknown game 'chess'",
        ),
        (
            "POST",
            "/api/games",
            Some(json!({"game": "connect4", "sides": [human, {"kind": "ai", "agent": "deep"}]}).to_string()),
            StatusCode::BAD_REQUEST,
            "no agent 'deep'",
        ),
        (
            "POST",
            "/api/games",
            Some(json!({"game": "einstein", "options": "colour=green", "sides": [human, human]}).to_string()),
            StatusCode::BAD_REQUEST,
            "no parameter 'colour'",
        ),
        (
            "POST",
            "/api/games",
            Some(json!({"game": "connect4", "sides": [human]}).to_string()),
            StatusCode::BAD_REQUEST,
            "2 players",
        ),
        (
            "POST",
            "/api/games",
            Some(json!({"game": "connect4", "sides": [human, human], "turbo": true}).to_string()),
            StatusCode::BAD_REQUEST,
            "unknown field",
        ),
    ];
    for (method, path, body, status, message) in cases {
        let (got, value) = call(&app, method, path, body.as_deref()).await;
        assert_eq!(got, status, "{method} {path}: {value}");
        assert!(error_of(&value).contains(message), "{method} {path}: {value}");
    }

    let view = new_game(&app, json!({"game": "connect4", "sides": [human, human]})).await;
    let id = view["id"].as_i64().unwrap();
    let big = json!({"action": "x".repeat(100_000)}).to_string();
    let (status, value) = call(&app, "POST", &format!("/api/games/{id}/move"), Some(&big)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(error_of(&value).contains("too large"), "{value}");
    let (status, _) = call(&app, "POST", &format!("/api/games/{id}/move"), Some("[1,")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(get(&app, &format!("/api/games/{id}")).await["actions"], json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let (unfinished, finished, before, me) = {
        let app = server(dir.path());
        // EinStein against an AI: arrangements and dice are rolled by the server.
        let sides = json!([{"kind": "human"}, {"kind": "ai", "agent": "random"}]);
        let view =
            new_game(&app, json!({"game": "einstein", "sides": sides, "delay_ms": 0, "seed": 7})).await;
        let id = view["id"].as_i64().unwrap();
        let me = seat(&view, 0);
        let mut view = wait_for(&app, id, human_to_move).await;
        for _ in 0..3 {
            let Some(action) = view["legal"][0].as_str() else { break };
            let (status, _) =
                post_as(&app, &format!("/api/games/{id}/move"), json!({"action": action}), &me).await;
            assert_eq!(status, StatusCode::OK);
            view = wait_for(&app, id, |v| human_to_move(v) || v["status"] != "playing").await;
        }
        let chance: Vec<&Value> =
            view["actions"].as_array().unwrap().iter().filter(|a| a["by"] == "chance").collect();
        assert!(chance.len() >= 3, "arrangements and dice are stored as chance actions");
        assert!(chance.iter().all(|a| a["player"].is_null()));

        // Connect Four between two humans, played to a win.
        let human = json!({"kind": "human"});
        let c4 = new_game(&app, json!({"game": "connect4", "sides": [human, human]})).await;
        let c4_id = c4["id"].as_i64().unwrap();
        let mut last = Value::Null;
        for (ply, column) in ["1", "2", "1", "2", "1", "2", "1"].into_iter().enumerate() {
            let token = seat(&c4, ply % 2);
            let (status, v) =
                post_as(&app, &format!("/api/games/{c4_id}/move"), json!({"action": column}), &token).await;
            assert_eq!(status, StatusCode::OK, "{v}");
            last = v;
        }
        assert_eq!(last["status"], "over");
        assert_eq!(last["result"]["winner"], 0);
        (id, c4_id, view, me)
    };

    let app = server(dir.path());
    let after = get(&app, &format!("/api/games/{unfinished}")).await;
    assert_eq!(after["actions"], before["actions"], "every action and its timestamp is kept");
    assert_eq!(after["position"], before["position"], "the state is rebuilt by replaying");
    if after["status"] == "playing" {
        assert!(after["seed"].is_null(), "the seed stays secret while the game is played");
        let action = after["legal"][0].as_str().unwrap();
        let (status, moved) =
            post_as(&app, &format!("/api/games/{unfinished}/move"), json!({"action": action}), &me).await;
        assert_eq!(status, StatusCode::OK, "the game goes on: {moved}");
    }

    let done = get(&app, &format!("/api/games/{finished}")).await;
    assert_eq!(done["status"], "over");
    assert!(done["seed"].is_string(), "a finished game shows its seed: {done}");
    assert_eq!(done["result"]["winner"], 0);
    let record = get(&app, &format!("/api/games/{finished}/record")).await;
    assert_eq!(record["positions"].as_array().unwrap().len(), 8, "a replay has every position");
    let list = get(&app, "/api/games").await;
    let ids: Vec<i64> = list.as_array().unwrap().iter().map(|g| g["id"].as_i64().unwrap()).collect();
    assert_eq!(ids, vec![finished, unfinished], "newest first");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_seed_rolls_the_same_dice() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(dir.path());
    let sides = json!([{"kind": "ai", "agent": "random"}, {"kind": "ai", "agent": "random"}]);
    let mut records = Vec::new();
    for _ in 0..2 {
        let body = json!({"game": "einstein", "sides": sides, "seed": 42, "delay_ms": 0});
        let id = new_game(&app, body).await["id"].as_i64().unwrap();
        let view = wait_for(&app, id, |v| v["status"] == "over").await;
        records.push(
            view["actions"].as_array().unwrap().iter().map(|a| a["action"].clone()).collect::<Vec<_>>(),
        );
    }
    assert_eq!(records[0], records[1]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_takes_back_to_the_human_move() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(dir.path());
    let sides = json!([{"kind": "human"}, {"kind": "ai", "agent": "random"}]);
    let created = new_game(&app, json!({"game": "connect4", "sides": sides, "delay_ms": 0})).await;
    let id = created["id"].as_i64().unwrap();
    let me = seat(&created, 0);
    for column in ["4", "3"] {
        let (status, _) =
            post_as(&app, &format!("/api/games/{id}/move"), json!({"action": column}), &me).await;
        assert_eq!(status, StatusCode::OK);
        wait_for(&app, id, human_to_move).await;
    }
    let (status, view) = post_as(&app, &format!("/api/games/{id}/undo"), json!({}), &me).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    let actions: Vec<&str> =
        view["actions"].as_array().unwrap().iter().map(|a| a["action"].as_str().unwrap()).collect();
    assert_eq!(actions.len(), 2, "the human's second move and the reply are gone: {actions:?}");
    assert_eq!(actions[0], "4");
    assert!(human_to_move(&view));
    drop(app);
    let restarted = server(dir.path());
    assert_eq!(get(&restarted, &format!("/api/games/{id}")).await["actions"].as_array().unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_test_series_scores_with_an_interval() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(dir.path());
    let ai = json!({"kind": "ai", "agent": "random"});
    let (status, series) =
        post(&app, "/api/series", json!({"game": "connect4", "sides": [ai, ai], "games": 4})).await;
    assert_eq!(status, StatusCode::CREATED, "{series}");
    let id = series["id"].as_i64().unwrap();
    let mut view = Value::Null;
    for _ in 0..400 {
        view = get(&app, &format!("/api/series/{id}")).await;
        if view["status"] == "finished" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(view["status"], "finished", "{view}");
    assert_eq!(view["played"], 4);
    let score = &view["score"];
    let (low, mean, high) =
        (score["low"].as_f64().unwrap(), score["mean"].as_f64().unwrap(), score["high"].as_f64().unwrap());
    assert!(low <= mean && mean <= high && low >= 0.0 && high <= 1.0);
    let seats: Vec<i64> =
        view["games"].as_array().unwrap().iter().map(|g| g["a_seat"].as_i64().unwrap()).collect();
    assert_eq!(seats, vec![0, 1, 0, 1], "seats alternate");
    let (status, _) = post(
        &app,
        "/api/series",
        json!({"game": "pig", "options": "players=3", "sides": [ai, ai], "games": 2}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_suggest_a_legal_move_without_playing_it() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(dir.path());
    let sides = json!([{"kind": "human"}, {"kind": "ai", "agent": "random"}]);
    let view = new_game(&app, json!({"game": "connect4", "sides": sides, "delay_ms": 0})).await;
    let id = view["id"].as_i64().unwrap();
    let hint_path = format!("/api/games/{id}/hint");
    let me = seat(&view, 0);

    let (status, hint) =
        post_as(&app, &hint_path, json!({"agent": "alphabeta:depth=4", "time_ms": 500}), &me).await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    assert_eq!((hint["ply"].as_u64(), hint["player"].as_u64()), (Some(0), Some(0)), "{hint}");
    assert_eq!(hint["agent"], "alphabeta:depth=4");
    assert!(view["legal"].as_array().unwrap().contains(&hint["action"]), "{hint}");
    assert!(hint["info"]["depth"].as_u64().is_some(), "the hint carries the search's report: {hint}");
    let after = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(after["actions"], json!([]), "a hint plays nothing");

    // Without an agent, the AI side's agent answers.
    let (status, hint) = post_as(&app, &hint_path, json!({}), &me).await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    assert_eq!(hint["agent"], "random");

    for (body, expected) in [
        (json!({"time_ms": 0}), "time_ms must be 1 to 10000, got 0"),
        (json!({"time_ms": 20000}), "time_ms must be 1 to 10000, got 20000"),
        (json!({"agent": "alphabeta:time=60000"}), "a hint thinks at most 10000 ms"),
        (json!({"agent": "nosuch"}), "nosuch"),
        (json!({"agnet": "random"}), "unknown field"),
    ] {
        let (status, err) = post_as(&app, &hint_path, body.clone(), &me).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {err}");
        assert!(error_of(&err).contains(expected), "{body}: {err}");
    }

    // No human is to move in a game between AIs.
    let sides = json!([{"kind": "ai", "agent": "random"}, {"kind": "ai", "agent": "random"}]);
    let view = new_game(&app, json!({"game": "connect4", "sides": sides, "delay_ms": 0})).await;
    let (status, err) = post(&app, &format!("/api/games/{}/hint", view["id"]), json!({})).await;
    assert!(status == StatusCode::CONFLICT, "{err}");
    assert!(
        error_of(&err).contains("a hint is for a human to move") || error_of(&err).contains("is finished"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_list_pages_filters_and_counts() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(dir.path());
    let human = json!({"kind": "human"});
    let mut ids = Vec::new();
    for game in ["connect4", "connect4", "connect4", "einstein"] {
        ids.push(new_game(&app, json!({"game": game, "sides": [human, human]})).await);
    }
    let abort = format!("/api/games/{}/abort", ids[0]["id"]);
    let (status, _) = post_as(&app, &abort, json!({}), &owner(&ids[0])).await;
    assert_eq!(status, StatusCode::OK);

    let (page, total) = get_page(&app, "/api/games?game=connect4&limit=2").await;
    assert_eq!((page.as_array().unwrap().len(), total), (2, 3));
    assert_eq!(page[0]["id"], ids[2]["id"], "newest first");
    let (page, total) = get_page(&app, "/api/games?game=connect4&limit=2&offset=2").await;
    assert_eq!((page.as_array().unwrap().len(), total), (1, 3));
    let (page, total) = get_page(&app, "/api/games?status=aborted").await;
    assert_eq!((page[0]["id"].clone(), total), (ids[0]["id"].clone(), 1));
    let (_, total) = get_page(&app, "/api/games?status=playing&game=connect4").await;
    assert_eq!(total, 2);
    let (status, err) = call(&app, "GET", "/api/games?status=won", None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_of(&err).contains("playing, over or aborted"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_test_of_three_sides_rotates_seats_over_shared_dice() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(dir.path());
    let sides = json!([
        {"kind": "ai", "agent": "expectimax:depth=2", "time_ms": 50},
        {"kind": "ai", "agent": "mcts:iters=200"},
        {"kind": "ai", "agent": "random"}
    ]);
    let (status, series) =
        post(&app, "/api/series", json!({"game": "pig", "options": "players=3", "sides": sides, "games": 6}))
            .await;
    assert_eq!(status, StatusCode::CREATED, "{series}");
    let id = series["id"].as_i64().unwrap();
    let mut view = Value::Null;
    for _ in 0..1200 {
        view = get(&app, &format!("/api/series/{id}")).await;
        if view["status"] == "finished" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(view["status"], "finished", "{view}");
    assert_eq!(view["fair_share"], 1.0 / 3.0);
    let standings = view["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 3);
    let total: f64 = standings.iter().map(|s| s["score"].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-9, "every game's shares sum to 1: {total}");
    let games = view["games"].as_array().unwrap();
    let shifts: Vec<i64> = games.iter().map(|g| g["shift"].as_i64().unwrap()).collect();
    assert_eq!(shifts, vec![0, 1, 2, 0, 1, 2], "every rotation in each round");
    let mut seeds = Vec::new();
    for game in &games[..4] {
        seeds.push(get(&app, &format!("/api/games/{}", game["id"])).await["seed"].clone());
    }
    assert!(
        seeds[0].is_string() && seeds[0] == seeds[1] && seeds[1] == seeds[2],
        "one round, one seed: {seeds:?}"
    );
    assert_ne!(seeds[0], seeds[3], "the next round, other dice");
}

/// A download is a game record (docs/formats.md): one function reads it and the arena's JSON
/// lines alike; it replays to the position the game shows, and adds the sides, who made each
/// action, and every position. A game still playing keeps its seed to itself and has no result.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_download_is_a_game_record_read_like_the_arenas_lines() {
    use ply_arena::record::{self, SideKind, Status};
    use ply_core::{AgentSpec, Budget};

    let dir = tempfile::tempdir().unwrap();
    let app = server(dir.path());
    let ada = json!({"kind": "ai", "agent": "random", "name": "Ada"});
    let sides = json!([ada, {"kind": "ai", "agent": "expectimax:depth=1"}]);
    let body =
        json!({"game": "pig", "options": "players=2,target=20", "sides": sides, "seed": 5, "delay_ms": 0});
    let id = new_game(&app, body).await["id"].as_i64().unwrap();
    let view = wait_for(&app, id, |v| v["status"] == "over").await;
    let download = get_text(&app, &format!("/api/games/{id}/record")).await;

    let pig = ply_games::find("pig").unwrap();
    let specs = [AgentSpec::parse("random").unwrap(), AgentSpec::parse("expectimax:depth=1").unwrap()];
    let run = ply_arena::RunOptions {
        options: "players=2,target=20".into(),
        games: 2,
        seed: 1,
        budget: Budget::iterations(100),
        threads: 1,
        progress: false,
        openings: None,
        stop: Default::default(),
    };
    let played = pig.run_match([&specs[0], &specs[1]], &run).unwrap();
    let mut lines = Vec::new();
    record::write_jsonl(&mut lines, &played.records).unwrap();
    assert_eq!(record::parse(std::str::from_utf8(&lines).unwrap()).unwrap(), played.records);

    let web = record::parse(&download).unwrap();
    assert_eq!(web.len(), 1);
    let web = &web[0];
    assert_eq!(
        (web.game.as_str(), web.options.as_str(), web.seed, web.id),
        ("pig", "players=2,target=20", Some(5), Some(id))
    );
    assert_eq!(web.seats, ["random", "expectimax:depth=1"]);
    assert_eq!(web.sides[0].name.as_deref(), Some("Ada"));
    assert_eq!(
        web.returns,
        view["result"]["returns"].as_array().unwrap().iter().map(|r| r.as_f64().unwrap()).collect::<Vec<_>>()
    );
    assert_eq!(web.status, Some(Status::Over));
    let actions: Vec<&str> =
        view["actions"].as_array().unwrap().iter().map(|a| a["action"].as_str().unwrap()).collect();
    assert_eq!(web.actions, actions);
    assert_eq!(web.final_state, view["position"]["text"].as_str().unwrap());
    let mut state = pig.new_state(&web.options).unwrap();
    for action in &web.actions {
        state.play(action).unwrap();
    }
    assert_eq!(state.returns().unwrap(), web.returns, "the record replays to its result");
    assert_eq!(web.positions.len(), web.actions.len() + 1);
    assert_eq!(web.positions.last().unwrap().json, view["position"]["json"]);
    assert_eq!(web.action_details.len(), web.actions.len());
    assert!(web.action_details.iter().any(|d| d.by == "ai" && d.info.is_some() && d.player.is_some()));
    assert!(web.action_details.iter().any(|d| d.by == "chance" && d.player.is_none()));

    let sides = json!([{"kind": "human"}, {"kind": "ai", "agent": "random"}]);
    let playing = new_game(&app, json!({"game": "connect4", "sides": sides, "delay_ms": 0})).await;
    let playing = playing["id"].as_i64().unwrap();
    let web = record::parse(&get_text(&app, &format!("/api/games/{playing}/record")).await).unwrap();
    assert_eq!((web[0].seed, web[0].returns.len(), web[0].status), (None, 0, Some(Status::Playing)));
    assert_eq!(web[0].sides[0].kind, SideKind::Human);
    assert_eq!(web[0].seats, ["human", "random"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_games_board_comes_with_its_catalog_entry_and_its_view_only() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(dir.path());
    // Risk's map for the options asked: names, continents with bonuses, positions, borders.
    let entry = get(&app, "/api/catalog/risk?options=players=3").await;
    assert_eq!(entry["num_players"], 3);
    let board = &entry["board"];
    let territories = board["territories"].as_array().unwrap();
    assert_eq!(territories.len(), 42);
    assert_eq!(board["continents"].as_array().unwrap().len(), 6);
    assert!(board["continents"].as_array().unwrap().iter().any(|c| c["name"] == "Asia" && c["bonus"] == 7));
    let alaska = territories.iter().find(|t| t["name"] == "Alaska").unwrap();
    assert!(alaska["x"].is_number() && alaska["y"].is_number() && alaska["card"].is_string(), "{alaska}");
    assert!(alaska["neighbours"].as_array().unwrap().contains(&json!("Kamchatka")), "{alaska}");
    // A game whose position says it all has none; the list of every game leaves boards out.
    assert_eq!(get(&app, "/api/catalog/connect4").await["board"], Value::Null);
    let all = get(&app, "/api/catalog").await;
    assert!(all.as_array().unwrap().iter().all(|g| g.get("board").is_none()), "no boards in the list");

    // The game view has it, for every viewer; the answers to changes (and the socket) do not.
    let sides = json!([{"kind": "human"}, {"kind": "human"}, {"kind": "ai", "agent": "random"}]);
    let created =
        new_game(&app, json!({"game": "risk", "options": "players=3", "sides": sides, "delay_ms": 0})).await;
    let id = created["id"].as_i64().unwrap();
    assert!(created.get("board").is_none(), "{}", created["board"]);
    let (status, mine) =
        call_as(&app, "GET", &format!("/api/games/{id}"), None, Some(&seat(&created, 0))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(mine["board"], *board);
    assert_eq!(get(&app, &format!("/api/games/{id}")).await["board"], *board, "a spectator's view too");
    let first = mine["legal"][0].as_str().unwrap().to_string();
    let (status, moved) =
        post_as(&app, &format!("/api/games/{id}/move"), json!({"action": first}), &seat(&created, 0)).await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    assert!(moved.get("board").is_none(), "a move's answer has no board");
    let c4 =
        new_game(&app, json!({"game": "connect4", "sides": [{"kind": "human"}, {"kind": "human"}]})).await;
    assert_eq!(get(&app, &format!("/api/games/{}", c4["id"])).await["board"], Value::Null);
}

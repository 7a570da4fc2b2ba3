//! Pondering in `ply serve`: while a human thinks, the AI that moves next searches on, and its
//! own move takes the agent over; nothing ponders for agents that cannot use it, or once the
//! game is over.

mod common;

use std::time::Duration;

use axum::http::StatusCode;
use common::*;
use serde_json::{Value, json};

fn human() -> Value {
    json!({"kind": "human"})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ai_ponders_while_the_human_thinks() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(dir.path());
    let ai = json!({"kind": "ai", "agent": "mcts", "time_ms": 100});
    let created = new_game(&app, json!({"game": "connect4", "sides": [human(), ai]})).await;
    let id = created["id"].as_i64().unwrap();
    let pondering = |s: &Value| s["ponders"] == 1;
    assert_eq!(wait_status(&app, Duration::from_secs(5), pondering).await["ponders"], 1);
    for column in ["4", "4", "3"] {
        let (status, view) =
            post_as(&app, &format!("/api/games/{id}/move"), json!({"action": column}), &seat(&created, 0))
                .await;
        assert_eq!(status, StatusCode::OK, "{view}");
        let view = wait_for(&app, id, |v| human_to_move(v) || v["status"] != "playing").await;
        assert_eq!(view["status"], "playing");
        // The AI answered with the agent that pondered, and ponders again.
        let s = wait_status(&app, Duration::from_secs(5), pondering).await;
        assert_eq!((s["ponders"].clone(), s["searches"].clone()), (json!(1), json!(0)), "{s}");
    }
    let (status, view) =
        post_as(&app, &format!("/api/games/{id}/resign"), json!({}), &seat(&created, 0)).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    let s = wait_status(&app, Duration::from_secs(5), |s| s["ponders"] == 0).await;
    assert_eq!(s["ponders"], 0, "the game is over: nothing ponders ({s})");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agents_that_cannot_ponder_and_human_games_never_do() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(dir.path());
    let ai = json!({"kind": "ai", "agent": "alphabeta", "time_ms": 50});
    let against_ai = new_game(&app, json!({"game": "connect4", "sides": [human(), ai]})).await;
    let humans = new_game(&app, json!({"game": "connect4", "sides": [human(), human()]})).await;
    let (status, _) = post_as(
        &app,
        &format!("/api/games/{}/move", against_ai["id"]),
        json!({"action": "4"}),
        &seat(&against_ai, 0),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    wait_for(&app, against_ai["id"].as_i64().unwrap(), human_to_move).await;
    let s = server_status(&app).await;
    assert_eq!(s["ponders"], 0, "{s}");
    assert_eq!(humans["status"], "playing");
}

//! A game with hidden information through the API: each seat sees its own card, a spectator
//! neither, AIs are handed re-dealt positions, and everything shows once the game is over.

mod common;

use axum::http::StatusCode;
use common::*;
use serde_json::{Value, json};

fn kuhn_server(dir: &std::path::Path) -> axum::Router {
    ply_web::router(vec![ply_arena::entry::<ply_kuhn::Kuhn>()], dir).unwrap()
}

async fn view_as(app: &axum::Router, id: i64, token: Option<&str>) -> Value {
    let (status, view) = call_as(app, "GET", &format!("/api/games/{id}"), None, token).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    view
}

fn cards(view: &Value) -> String {
    view["position"]["text"].as_str().unwrap()[..2].to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_seat_sees_its_own_card_and_a_spectator_neither() {
    let dir = tempfile::tempdir().unwrap();
    let app = kuhn_server(dir.path());
    let sides = json!([{"kind": "human"}, {"kind": "human"}]);
    let created = new_game(&app, json!({"game": "kuhn", "sides": sides, "seed": 5})).await;
    let id = created["id"].as_i64().unwrap();
    let (first, second) = (seat(&created, 0), seat(&created, 1));
    let real = {
        // The deal, as it really is, shows in no view while the hand is played.
        let a = view_as(&app, id, Some(&first)).await;
        let b = view_as(&app, id, Some(&second)).await;
        let spectator = view_as(&app, id, None).await;
        assert_eq!(&cards(&a)[1..], "?", "{a}");
        assert_eq!(&cards(&b)[..1], "?", "{b}");
        assert_eq!(cards(&spectator), "??");
        assert_eq!(a["actions"][1]["action"], "a card to player 1");
        assert_eq!(b["actions"][0]["action"], "a card to player 0");
        assert_eq!(spectator["actions"][0]["action"], "a card to player 0");
        assert_eq!(a["legal"], json!(["pass", "bet"]), "the seat to move sees its moves");
        assert_eq!(b["legal"], json!([]));
        assert_eq!(spectator["legal"], json!([]));
        format!("{}{}", &cards(&a)[..1], &cards(&b)[1..])
    };
    let (status, err) = call(&app, "GET", &format!("/api/games/{id}/record"), None).await;
    assert_eq!(status, StatusCode::CONFLICT, "no record while it is played: {err}");

    let (status, after) =
        post_as(&app, &format!("/api/games/{id}/move"), json!({"action": "pass"}), &first).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(&cards(&after)[1..], "?", "a move's reply is the mover's view: {after}");
    let (status, over) =
        post_as(&app, &format!("/api/games/{id}/move"), json!({"action": "pass"}), &second).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(over["status"], "over");
    assert_eq!(cards(&over), real, "everything once the hand is over");
    assert_eq!(cards(&view_as(&app, id, None).await), real);
    let (status, record) = call(&app, "GET", &format!("/api/games/{id}/record"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(record["actions"][0].as_str().unwrap(), &real[..1], "the record names the real cards");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ai_plays_without_seeing_the_human_card_or_telling_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let app = kuhn_server(dir.path());
    let sides = json!([{"kind": "ai", "agent": "ismcts", "time_ms": 200}, {"kind": "human"}]);
    let created = new_game(&app, json!({"game": "kuhn", "sides": sides, "delay_ms": 0})).await;
    let id = created["id"].as_i64().unwrap();
    let me = seat(&created, 1);
    let mine =
        |v: &Value| v["status"] != "playing" || (v["turn"]["kind"] == "player" && v["turn"]["player"] == 1);
    let mut view = Value::Null;
    for _ in 0..400 {
        view = view_as(&app, id, Some(&me)).await;
        if mine(&view) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    assert!(mine(&view), "{view}");
    let ai_move = view["actions"].as_array().unwrap().iter().find(|a| a["by"] == "ai").unwrap();
    assert!(ai_move["info"].is_null(), "an AI's search report would tell its hand: {ai_move}");
    assert_eq!(&cards(&view)[..1], "?", "{view}");
}

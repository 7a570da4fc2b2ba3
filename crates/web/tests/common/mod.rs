//! Helpers of the in-process API tests: the router on a temporary directory, requests with or
//! without a token, and waiting for the AI.
#![allow(dead_code)]

use std::path::Path;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

/// Every registered game, as `ply serve` has them.
pub fn games() -> Vec<Box<dyn ply_arena::DynGame>> {
    ply_games::all()
}

pub fn server(dir: &Path) -> Router {
    ply_web::router(games(), dir).expect("the server starts")
}

pub async fn call(app: &Router, method: &str, path: &str, body: Option<&str>) -> (StatusCode, Value) {
    call_as(app, method, path, body, None).await
}

/// A request with a seat's, the game's or a series' token.
pub async fn call_as(
    app: &Router,
    method: &str,
    path: &str,
    body: Option<&str>,
    token: Option<&str>,
) -> (StatusCode, Value) {
    let mut request = Request::builder().method(method).uri(path).header("content-type", "application/json");
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    let request = request.body(body.map(|b| Body::from(b.to_string())).unwrap_or_else(Body::empty)).unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| panic!("{method} {path}: not JSON: {}", String::from_utf8_lossy(&bytes)));
    (status, value)
}

pub async fn post(app: &Router, path: &str, body: Value) -> (StatusCode, Value) {
    call(app, "POST", path, Some(&body.to_string())).await
}

pub async fn post_as(app: &Router, path: &str, body: Value, token: &str) -> (StatusCode, Value) {
    call_as(app, "POST", path, Some(&body.to_string()), Some(token)).await
}

/// The token of seat `seat` of a game's creation reply.
pub fn seat(created: &Value, seat: usize) -> String {
    created["tokens"]["seats"][seat]
        .as_str()
        .unwrap_or_else(|| panic!("no token for seat {seat}: {created}"))
        .into()
}

pub fn owner(created: &Value) -> String {
    created["tokens"]["owner"].as_str().unwrap().into()
}

pub async fn get(app: &Router, path: &str) -> Value {
    let (status, value) = call(app, "GET", path, None).await;
    assert_eq!(status, StatusCode::OK, "GET {path}: {value}");
    value
}

/// Polls the game until `done` holds (AI moves arrive in the background).
pub async fn wait_for(app: &Router, id: i64, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..400 {
        let view = get(app, &format!("/api/games/{id}")).await;
        if done(&view) {
            return view;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("game {id} never reached the expected state");
}

pub async fn server_status(app: &Router) -> Value {
    get(app, "/api/status").await
}

/// Polls `/api/status` until `done` holds, for at most `limit`; the last status either way.
pub async fn wait_status(app: &Router, limit: Duration, done: impl Fn(&Value) -> bool) -> Value {
    let started = std::time::Instant::now();
    loop {
        let s = server_status(app).await;
        if done(&s) || started.elapsed() > limit {
            return s;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

pub fn human_to_move(view: &Value) -> bool {
    view["turn"]["kind"] == "player" && view["turn"]["human"] == true
}

pub fn error_of(value: &Value) -> &str {
    value["error"].as_str().unwrap_or_else(|| panic!("no error message in {value}"))
}

pub async fn new_game(app: &Router, body: Value) -> Value {
    let (status, view) = post(app, "/api/games", body).await;
    assert_eq!(status, StatusCode::CREATED, "{view}");
    view
}

/// Sends a request with the given headers (besides none by default) and returns the status and
/// the body as JSON.
pub async fn send(app: &Router, request: Request<Body>) -> (StatusCode, Value) {
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| panic!("not JSON: {}", String::from_utf8_lossy(&bytes)));
    (status, value)
}

/// A page of a list and its `X-Total-Count`.
pub async fn get_page(app: &Router, path: &str) -> (Value, i64) {
    let request = Request::builder().uri(path).body(Body::empty()).unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK, "GET {path}");
    let total = response.headers()["x-total-count"].to_str().unwrap().parse().unwrap();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (serde_json::from_slice(&bytes).unwrap(), total)
}

/// A reply's body as the server sent it, for a download read as a file would be.
pub async fn get_text(app: &Router, path: &str) -> String {
    let request = Request::builder().uri(path).body(Body::empty()).unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK, "GET {path}");
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    String::from_utf8(bytes.to_vec()).unwrap()
}

//! What a careless or hostile client can do to the server, in process: specs that would take
//! the machine, requests from other sites, seats played by someone else, idle games, series
//! controls, a second server on the same data, dice a client could foresee, and the database
//! blocking the async workers.

mod common;

use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::*;
use ply_arena::bench::BenchReport;
use ply_arena::{
    AgentInfo, DynAgent, DynGame, DynState, FfaReport, GameRecord, MatchReport, RunOptions, Sprt, SprtReport,
    TournamentReport,
};
use ply_core::{AgentSpec, ParamInfo};
use ply_search::genetic::{GenerationReport, GeneticConfig, TuneResult};
use serde_json::{Value, json};

fn human() -> Value {
    json!({"kind": "human"})
}

fn ai(agent: &str) -> Value {
    json!({"kind": "ai", "agent": agent})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agent_specs_from_the_network_are_capped() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(dir.path());
    for (game, agent, expected) in [
        ("connect4", "alphabeta:tt=30", "tt=30"),
        ("connect4", "mcts:threads=256", "threads=256"),
        ("connect4", "mcts:nodes=4000000000", "nodes=4000000000"),
        ("einstein", "expectimax:net=/etc/passwd", "'/etc/passwd' names a file"),
        ("einstein", "mcts:policy=net,net=/dev/zero", "'/dev/zero' names a file"),
        ("gomoku", "alphabeta:weights=/etc/passwd", "'/etc/passwd' names a file"),
    ] {
        let (status, err) =
            post(&app, "/api/games", json!({"game": game, "sides": [human(), ai(agent)]})).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{agent}: {err}");
        assert!(error_of(&err).contains(expected), "{agent}: {err}");
    }
    // Game options naming a file (a Risk map) are refused too; the built-in map is taken.
    for map in ["/etc/passwd", "../ply-data/ply.db", "maps/classic.json"] {
        let sides = [human(), ai("random")];
        let options = format!("map={map}");
        let (status, err) =
            post(&app, "/api/games", json!({"game": "risk", "options": options, "sides": sides})).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{map}: {err}");
        assert!(error_of(&err).contains("names a file"), "{map}: {err}");
        let request =
            Request::get(format!("/api/catalog/risk?options=map={map}")).body(Body::empty()).unwrap();
        let (status, err) = send(&app, request).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{map}: {err}");
    }
    assert_eq!(get(&app, "/api/games").await, json!([]), "nothing was created");
    new_game(&app, json!({"game": "risk", "options": "map=classic", "sides": [human(), ai("random")]})).await;

    let created = new_game(&app, json!({"game": "connect4", "sides": [human(), ai("random")]})).await;
    let hint = format!("/api/games/{}/hint", created["id"]);
    let (status, err) = post_as(&app, &hint, json!({"agent": "alphabeta:tt=30"}), &seat(&created, 0)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    assert!(error_of(&err).contains("32.0 GiB"), "{err}");
    assert_eq!(server_status(&app).await["searches"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_iterations_only_budget_is_bounded_by_the_time() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(dir.path());
    let endless = "mcts:iters=1000000000000";
    let sides = json!([human(), {"kind": "ai", "agent": endless, "time_ms": 300}]);
    let created = new_game(&app, json!({"game": "connect4", "sides": sides, "delay_ms": 0})).await;
    let id = created["id"].as_i64().unwrap();
    let me = seat(&created, 0);

    let (status, hint) =
        post_as(&app, &format!("/api/games/{id}/hint"), json!({"agent": endless, "time_ms": 300}), &me).await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    assert!(hint["info"]["elapsed_ms"].as_u64().unwrap() < 5000, "the hint stopped at its time: {hint}");

    let (status, _) = post_as(&app, &format!("/api/games/{id}/move"), json!({"action": "4"}), &me).await;
    assert_eq!(status, StatusCode::OK);
    let view = wait_for(&app, id, human_to_move).await;
    let reply = &view["actions"][1];
    assert!(reply["info"]["elapsed_ms"].as_u64().unwrap() < 5000, "the AI stopped at its time: {reply}");
}

/// Starts a hint that would run for hours but for its stops, and waits until it searches.
async fn endless_hint(app: &axum::Router, created: &Value) -> tokio::task::JoinHandle<(StatusCode, Value)> {
    let (app2, path, token) = (app.clone(), format!("/api/games/{}/hint", created["id"]), seat(created, 0));
    let task = tokio::spawn(async move {
        post_as(&app2, &path, json!({"agent": "mcts:iters=1000000000000", "time_ms": 10000}), &token).await
    });
    let s = wait_status(app, Duration::from_secs(10), |s| s["searches"] == 1).await;
    assert_eq!(s["searches"], 1, "the hint is searching: {s}");
    task
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_stops_when_the_game_moves_on() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(dir.path());
    let created = new_game(&app, json!({"game": "connect4", "sides": [human(), human()]})).await;
    let task = endless_hint(&app, &created).await;
    let started = Instant::now();
    let (status, _) = post_as(
        &app,
        &format!("/api/games/{}/move", created["id"]),
        json!({"action": "4"}),
        &seat(&created, 0),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, hint) = task.await.unwrap();
    assert_eq!(status, StatusCode::OK, "a hint cut short answers what it found: {hint}");
    assert!(started.elapsed() < Duration::from_secs(5), "the move stopped the hint (its time was 10 s)");
    assert_eq!(wait_status(&app, Duration::from_secs(5), |s| s["searches"] == 0).await["searches"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_stops_when_its_client_goes_away() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(dir.path());
    let created = new_game(&app, json!({"game": "connect4", "sides": [human(), human()]})).await;
    let task = endless_hint(&app, &created).await;
    // The client disconnects: the server drops the request's future.
    task.abort();
    let s = wait_status(&app, Duration::from_secs(5), |s| s["searches"] == 0).await;
    assert_eq!(s["searches"], 0, "the search stopped long before its 10 s: {s}");
}

fn request(method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Request<Body> {
    let mut builder = Request::builder().method(method).uri(path);
    for (name, value) in headers {
        builder = builder.header(*name, *value);
    }
    builder.body(Body::from(body.to_string())).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_from_other_sites_and_host_names_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(dir.path());
    let body = json!({"game": "connect4", "sides": [human(), human()]}).to_string();
    let json_type = ("content-type", "application/json");
    let host = ("host", "127.0.0.1:8080");

    // A cross-site form or no-cors fetch can only send text/plain (or form) bodies.
    for content_type in ["text/plain", "application/x-www-form-urlencoded", "text/plain; charset=json"] {
        let (status, err) =
            send(&app, request("POST", "/api/games", &[("content-type", content_type)], &body)).await;
        assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{content_type}: {err}");
        assert!(error_of(&err).contains("application/json"), "{err}");
    }
    let (status, _) = send(&app, request("POST", "/api/games", &[], &body)).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "no Content-Type at all");

    let evil = [json_type, host, ("origin", "http://evil.example")];
    let (status, err) = send(&app, request("POST", "/api/games", &evil, &body)).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{err}");
    assert!(error_of(&err).contains("evil.example"), "{err}");
    let (status, _) =
        send(&app, request("POST", "/api/games", &[json_type, host, ("origin", "null")], &body)).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "a sandboxed page's null origin");
    let (status, _) = send(
        &app,
        request("POST", "/api/games", &[json_type, host, ("sec-fetch-site", "cross-site")], &body),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(get(&app, "/api/games").await, json!([]), "no refused request created a game");

    let (status, created) = send(
        &app,
        request("POST", "/api/games", &[json_type, host, ("origin", "http://127.0.0.1:8080")], &body),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "the server's own page: {created}");

    let socket = [
        host,
        ("origin", "http://evil.example"),
        ("connection", "upgrade"),
        ("upgrade", "websocket"),
        ("sec-websocket-version", "13"),
        ("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ=="),
    ];
    let path = format!("/api/games/{}/ws", created["id"]);
    let (status, err) = send(&app, request("GET", &path, &socket, "")).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "a cross-site WebSocket: {err}");

    // DNS rebinding: a hostile name pointing at 127.0.0.1 reaches the server with its own Host.
    for path in ["/", "/api/games", "/api/catalog"] {
        let (status, err) = send(&app, request("GET", path, &[("host", "evil.example:8080")], "")).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{path}: {err}");
        assert!(error_of(&err).contains("evil.example"), "{err}");
    }
    let (status, _) = send(&app, request("GET", "/api/games", &[("host", "localhost:8080")], "")).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_seat_is_played_only_with_its_token() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(dir.path());
    let created = new_game(&app, json!({"game": "connect4", "sides": [human(), human()]})).await;
    let id = created["id"].as_i64().unwrap();
    let (red, yellow, owner_token) = (seat(&created, 0), seat(&created, 1), owner(&created));
    let path = |what: &str| format!("/api/games/{id}/{what}");
    let game = format!("/api/games/{id}");
    let view = get(&app, &game).await;
    assert!(view.get("tokens").is_none(), "no view shows the tokens: {view}");
    assert_eq!(view["protected"], true);

    let (status, err) = post(&app, &path("move"), json!({"action": "4"})).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{err}");
    assert!(error_of(&err).contains("token of seat 0"), "{err}");
    for wrong in [&yellow, &owner_token, &"0".repeat(32)] {
        let (status, err) = post_as(&app, &path("move"), json!({"action": "4"}), wrong).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{err}");
    }
    let (status, err) = post_as(&app, &path("hint"), json!({"agent": "random"}), &yellow).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "a hint for the other seat: {err}");
    assert_eq!(get(&app, &game).await["actions"], json!([]), "nothing was played");

    let (status, _) = post_as(&app, &path("move"), json!({"action": "4"}), &red).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = post_as(&app, &path("move"), json!({"action": "3"}), &yellow).await;
    assert_eq!(status, StatusCode::OK);
    // Red cannot take back Yellow's move, nor resign for Yellow, nor abort the game.
    let (status, _) = post_as(&app, &path("undo"), json!({}), &red).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = post_as(&app, &path("resign"), json!({"player": 1}), &red).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = post_as(&app, &path("abort"), json!({}), &red).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = post(&app, &path("resign"), json!({})).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(get(&app, &game).await["actions"].as_array().unwrap().len(), 2);

    let (status, view) = post_as(&app, &path("undo"), json!({}), &yellow).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["actions"].as_array().unwrap().len(), 1);
    let (status, view) = post_as(&app, &path("resign"), json!({}), &red).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["result"]["resigned"], 0, "the token's own seat resigns");

    // Pause, speed and stop belong to the owner.
    let watched =
        new_game(&app, json!({"game": "connect4", "sides": [ai("random"), ai("random")], "delay_ms": 2000}))
            .await;
    let control = format!("/api/games/{}/control", watched["id"]);
    let (status, _) = post(&app, &control, json!({"paused": true})).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, view) = post_as(&app, &control, json!({"paused": true}), &owner(&watched)).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["paused"], true);
    let abort = format!("/api/games/{}/abort", watched["id"]);
    let (status, _) = post_as(&app, &abort, json!({}), &owner(&watched)).await;
    assert_eq!(status, StatusCode::OK);
    let (status, err) = post_as(&app, &control, json!({"paused": false}), &owner(&watched)).await;
    assert_eq!(status, StatusCode::CONFLICT, "a finished game is not controlled: {err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn series_games_are_controlled_through_their_series() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(dir.path());
    let slow = json!({"kind": "ai", "agent": "mcts", "time_ms": 3000});
    let (status, err) =
        post(&app, "/api/series", json!({"game": "connect4", "sides": [slow, slow, slow], "games": 2})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_of(&err).contains("one side per seat"), "{err}");

    let (status, series) =
        post(&app, "/api/series", json!({"game": "connect4", "sides": [slow, slow], "games": 4})).await;
    assert_eq!(status, StatusCode::CREATED, "{series}");
    let id = series["id"].as_i64().unwrap();
    let token = series["token"].as_str().unwrap().to_string();
    let mut current = Value::Null;
    for _ in 0..200 {
        current = get(&app, &format!("/api/series/{id}")).await["current_game"].clone();
        if !current.is_null() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    for (what, body) in [("control", json!({"paused": true})), ("abort", json!({}))] {
        let (status, err) = post(&app, &format!("/api/games/{current}/{what}"), body).await;
        assert_eq!(status, StatusCode::CONFLICT, "{what}: {err}");
        assert!(error_of(&err).contains(&format!("test series {id}")), "{err}");
    }
    let stop = format!("/api/series/{id}/stop");
    let (status, _) = post(&app, &stop, json!({})).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, view) = post_as(&app, &stop, json!({}), &token).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["status"], "stopped", "the answer comes once it has stopped");
    assert_eq!(get(&app, &format!("/api/games/{current}")).await["status"], "aborted");
    let (status, _) = post_as(&app, &stop, json!({}), &token).await;
    assert_eq!(status, StatusCode::CONFLICT, "a stopped series is not running");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_games_leave_memory_and_come_back_from_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = ply_web::Config::new(dir.path());
    config.idle_after = Duration::from_millis(100);
    let app = ply_web::router_with(games(), &config).unwrap();
    let created =
        new_game(&app, json!({"game": "connect4", "sides": [human(), ai("alphabeta")], "delay_ms": 0})).await;
    let id = created["id"].as_i64().unwrap();
    let me = seat(&created, 0);
    let (status, _) = post_as(&app, &format!("/api/games/{id}/move"), json!({"action": "4"}), &me).await;
    assert_eq!(status, StatusCode::OK);
    wait_for(&app, id, human_to_move).await;
    let s = wait_status(&app, Duration::from_secs(5), |s| s["games_in_memory"] == 0).await;
    assert_eq!(s["games_in_memory"], 0, "the idle game and its agents are gone: {s}");

    let view = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(view["actions"].as_array().unwrap().len(), 2, "loaded again from the store");
    let (status, _) = post_as(&app, &format!("/api/games/{id}/move"), json!({"action": "4"}), &me).await;
    assert_eq!(status, StatusCode::OK, "and played on");
    wait_for(&app, id, human_to_move).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_server_on_the_same_data_fails_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(dir.path());
    let watched =
        new_game(&app, json!({"game": "connect4", "sides": [ai("random"), ai("random")], "delay_ms": 3000}))
            .await;
    let slow = json!({"kind": "ai", "agent": "random"});
    let (_, series) =
        post(&app, "/api/series", json!({"game": "connect4", "sides": [slow, slow], "games": 10000})).await;

    let Err(err) = ply_web::router(games(), dir.path()) else { panic!("the second server is refused") };
    let err = err.to_string();
    assert!(err.contains(&dir.path().display().to_string()) && err.contains("in use by"), "{err}");
    assert_eq!(get(&app, &format!("/api/games/{}", watched["id"])).await["status"], "playing");
    assert_eq!(get(&app, &format!("/api/series/{}", series["id"])).await["status"], "running");
    post_as(
        &app,
        &format!("/api/series/{}/stop", series["id"]),
        json!({}),
        series["token"].as_str().unwrap(),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_client_can_foresee_a_roll() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(dir.path());
    let sides = json!([human(), ai("random")]);
    let created =
        new_game(&app, json!({"game": "einstein", "sides": sides, "delay_ms": 0, "seed": 11})).await;
    let id = created["id"].as_i64().unwrap();
    let me = seat(&created, 0);
    let view = wait_for(&app, id, human_to_move).await;
    assert!(view["seed"].is_null(), "the seed is secret while the game is played: {view}");
    assert!(created["seed"].is_null());

    // Each time: play the same move, note the roll that follows it, take it back. Were the roll
    // a function of the seat and the ply, undoing would preview it: the same roll every time.
    let action = view["legal"][0].as_str().unwrap().to_string();
    let ply = view["actions"].as_array().unwrap().len();
    let mut rolls = Vec::new();
    for _ in 0..12 {
        let (status, after) =
            post_as(&app, &format!("/api/games/{id}/move"), json!({"action": action}), &me).await;
        assert_eq!(status, StatusCode::OK, "{after}");
        let after = wait_for(&app, id, |v| v["actions"].as_array().unwrap().len() > ply + 1).await;
        assert_eq!(after["actions"][ply + 1]["by"], "chance", "{after}");
        rolls.push(after["actions"][ply + 1]["action"].clone());
        wait_for(&app, id, |v| human_to_move(v) || v["status"] != "playing").await;
        let (status, undone) = post_as(&app, &format!("/api/games/{id}/undo"), json!({}), &me).await;
        assert_eq!(status, StatusCode::OK, "{undone}");
        assert_eq!(undone["actions"].as_array().unwrap().len(), ply);
    }
    rolls.sort_by_key(|r| r.to_string());
    rolls.dedup();
    assert!(rolls.len() > 1, "the roll after an undo is a fresh draw: {rolls:?}");
}

/// With a single async worker, a request that waits on the database must not hold up the
/// others: the store is used from the blocking pool only.
#[tokio::test(flavor = "current_thread")]
async fn a_busy_database_does_not_stall_other_requests() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(dir.path());
    let blocker = rusqlite::Connection::open(dir.path().join("ply.sqlite3")).unwrap();
    blocker.execute_batch("BEGIN IMMEDIATE").unwrap();

    let writer = app.clone();
    let create = tokio::spawn(async move {
        post(&writer, "/api/games", json!({"game": "connect4", "sides": [human(), human()]})).await
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let catalog = tokio::time::timeout(Duration::from_secs(3), get(&app, "/api/catalog")).await;
    // Had the write waited on the one worker, it would have run out its 5 s busy timeout during
    // the sleep above, and the catalog would have come only after it.
    let write_waiting = !create.is_finished();
    blocker.execute_batch("COMMIT").unwrap();
    assert!(catalog.is_ok(), "the catalog answered while a write waited for the database");
    assert!(write_waiting, "the write was still waiting for the database when the catalog answered");
    let (status, created) = create.await.unwrap();
    assert_eq!(status, StatusCode::CREATED, "{created}");
}

/// Connect Four whose positions can be made to wait: a game loaded while the gate is shut
/// waits in its replay, as a long game on a slow disk would.
struct Gated {
    inner: Box<dyn DynGame>,
    shut: Arc<(Mutex<bool>, Condvar)>,
}

impl Gated {
    fn wait(&self) {
        let (lock, opened) = &*self.shut;
        let _open = opened.wait_while(lock.lock().unwrap(), |shut| *shut).unwrap();
    }
}

impl DynGame for Gated {
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    fn about(&self) -> &'static str {
        self.inner.about()
    }
    fn options(&self) -> Vec<ParamInfo> {
        self.inner.options()
    }
    fn agents(&self) -> Vec<AgentInfo> {
        self.inner.agents()
    }
    fn opening_plies(&self) -> usize {
        self.inner.opening_plies()
    }
    fn new_state(&self, options: &str) -> Result<Box<dyn DynState>, ply_core::Error> {
        self.wait();
        self.inner.new_state(options)
    }
    fn new_agent(&self, spec: &AgentSpec, seed: u64) -> Result<Box<dyn DynAgent>, ply_core::Error> {
        self.inner.new_agent(spec, seed)
    }
    fn run_match(
        &self,
        specs: [&AgentSpec; 2],
        options: &RunOptions,
    ) -> Result<MatchReport, ply_core::Error> {
        self.inner.run_match(specs, options)
    }
    fn run_tournament(
        &self,
        specs: &[AgentSpec],
        options: &RunOptions,
    ) -> Result<TournamentReport, ply_core::Error> {
        self.inner.run_tournament(specs, options)
    }
    fn play_batch(
        &self,
        specs: [&AgentSpec; 2],
        pairing: u64,
        indices: std::ops::Range<u64>,
        options: &RunOptions,
    ) -> Result<Vec<GameRecord>, ply_core::Error> {
        self.inner.play_batch(specs, pairing, indices, options)
    }
    fn run_ffa(
        &self,
        specs: &[AgentSpec],
        all_orders: bool,
        options: &RunOptions,
    ) -> Result<FfaReport, ply_core::Error> {
        self.inner.run_ffa(specs, all_orders, options)
    }
    fn ffa_plan(
        &self,
        specs: &[AgentSpec],
        all_orders: bool,
        options: &RunOptions,
    ) -> Result<ply_arena::ffa::FfaPlan, ply_core::Error> {
        self.inner.ffa_plan(specs, all_orders, options)
    }
    fn play_ffa_batch(
        &self,
        specs: &[AgentSpec],
        all_orders: bool,
        indices: std::ops::Range<u64>,
        options: &RunOptions,
    ) -> Result<Vec<GameRecord>, ply_core::Error> {
        self.inner.play_ffa_batch(specs, all_orders, indices, options)
    }
    fn run_sprt(
        &self,
        specs: [&AgentSpec; 2],
        sprt: Sprt,
        options: &RunOptions,
    ) -> Result<SprtReport, ply_core::Error> {
        self.inner.run_sprt(specs, sprt, options)
    }
    fn bench(&self) -> Result<BenchReport, ply_core::Error> {
        self.inner.bench()
    }
    fn tune(
        &self,
        spec: &AgentSpec,
        param: &str,
        config: &GeneticConfig,
        options: &RunOptions,
        checkpoint: Option<&ply_arena::tune::Checkpoint>,
        progress: &mut (dyn FnMut(&GenerationReport) + Send),
    ) -> Result<TuneResult, ply_core::Error> {
        self.inner.tune(spec, param, config, options, checkpoint, progress)
    }
    fn tuner(
        &self,
        spec: &AgentSpec,
        param: &str,
        config: &GeneticConfig,
        options: &RunOptions,
        checkpoint: Option<&ply_arena::tune::Checkpoint>,
    ) -> Result<ply_arena::tune::Tuner, ply_core::Error> {
        self.inner.tuner(spec, param, config, options, checkpoint)
    }
    fn play_tune_game(
        &self,
        spec: &AgentSpec,
        param: &str,
        options: &RunOptions,
        game: &ply_search::genetic::TuneGame,
    ) -> Result<f64, String> {
        self.inner.play_tune_game(spec, param, options, game)
    }
}

/// Loading a game from the store must not hold up requests for games already in memory.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_load_does_not_hold_up_other_games() {
    let dir = tempfile::tempdir().unwrap();
    let cold = {
        let app = server(dir.path());
        new_game(&app, json!({"game": "connect4", "sides": [human(), human()]})).await["id"].as_i64().unwrap()
    };
    let shut = Arc::new((Mutex::new(false), Condvar::new()));
    let gated = Gated { inner: ply_arena::entry::<ply_connect4::Connect4>(), shut: shut.clone() };
    let app = ply_web::router(vec![Box::new(gated)], dir.path()).unwrap();
    let hot = new_game(&app, json!({"game": "connect4", "sides": [human(), human()]})).await["id"]
        .as_i64()
        .unwrap();

    *shut.0.lock().unwrap() = true;
    let loader = app.clone();
    let loading = tokio::spawn(async move { get(&loader, &format!("/api/games/{cold}")).await });
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!loading.is_finished(), "the cold load waits at the gate");
    let answered =
        tokio::time::timeout(Duration::from_secs(3), get(&app, &format!("/api/games/{hot}"))).await;
    *shut.0.lock().unwrap() = false;
    shut.1.notify_all();
    assert!(answered.is_ok(), "a game in memory answered while another was loading");
    assert_eq!(loading.await.unwrap()["id"], cold);
}

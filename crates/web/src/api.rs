//! The HTTP and WebSocket API (docs/web-api.md). Bodies are read as bytes and parsed here, so
//! that every refusal — malformed JSON, a body too large, an unknown route — is a JSON error.
//! Handlers hand their work to the blocking pool ([`blocking`]): it locks games and writes
//! SQLite, which must not hold up the async workers that serve every other client.

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio::sync::broadcast;
use tower_http::limit::RequestBodyLimitLayer;

use crate::app::{App, NewGame};
use crate::auth::{Tokens, bearer};
use crate::guard::{self, HostPolicy};
use crate::live::{GameHandle, Live, lock};
use crate::model::{ApiError, ApiResult, Side, Status};
use crate::series;
use crate::store::GameFilter;
use crate::{assets, hint};

/// Requests carry a move or a few settings; nothing legitimate comes near this.
pub const MAX_BODY: usize = 64 * 1024;

type AppState = State<Arc<App>>;

pub fn routes(app: Arc<App>, hosts: HostPolicy) -> Router {
    Router::new()
        .route("/api/status", get(status))
        .route("/api/catalog", get(catalog))
        .route("/api/catalog/{game}", get(catalog_game))
        .route("/api/games", get(list_games).post(create_game))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/move", post(play_move))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/abort", post(abort))
        .route("/api/games/{id}/control", post(control))
        .route("/api/games/{id}/rematch", post(rematch))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/hint", post(hint))
        .route("/api/games/{id}/ws", get(game_socket))
        .route("/api/series", get(list_series).post(create_series))
        .route("/api/series/{id}", get(get_series))
        .route("/api/series/{id}/stop", post(stop_series))
        .route("/api/series/{id}/ws", get(series_socket))
        .fallback(assets::serve)
        .layer(RequestBodyLimitLayer::new(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(Arc::new(hosts), guard::check))
        .layer(axum::middleware::map_response(json_errors))
        .with_state(app)
}

/// Runs a request's work on the blocking pool.
async fn blocking<T: Send + 'static>(work: impl FnOnce() -> ApiResult<T> + Send + 'static) -> ApiResult<T> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError::internal(format!("the request's work failed: {e}")))?
}

/// A new game's view with its tokens, which no other answer ever shows.
fn created(view: Value, tokens: Option<Tokens>) -> Response {
    let mut view = view;
    view["tokens"] = json!(tokens);
    (StatusCode::CREATED, Json(view)).into_response()
}

async fn status(State(app): AppState) -> ApiResult<Json<Value>> {
    Ok(Json(app.status()))
}

/// Gives refusals that do not come from a handler (axum's own: unknown route, wrong method, bad
/// path parameter, body over the limit) the same `{"error": ...}` shape as the handlers' own.
async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let text = axum::body::to_bytes(response.into_body(), 4096).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text).trim().to_string();
    let message = match status {
        StatusCode::PAYLOAD_TOO_LARGE => {
            format!("request body too large: the limit is {} KiB", MAX_BODY / 1024)
        }
        StatusCode::NOT_FOUND if text.is_empty() => "no such page or endpoint".to_string(),
        StatusCode::METHOD_NOT_ALLOWED => "method not allowed here".to_string(),
        _ if text.is_empty() => status.canonical_reason().unwrap_or("error").to_string(),
        _ => text,
    };
    ApiError::new(status, message).into_response()
}

/// Parses a JSON body; an empty body counts as `{}`.
fn parse<T: DeserializeOwned>(body: &Bytes) -> ApiResult<T> {
    let body: &[u8] = if body.iter().all(u8::is_ascii_whitespace) { b"{}" } else { body };
    serde_json::from_slice(body).map_err(|e| ApiError::bad_request(format!("malformed JSON body: {e}")))
}

fn game_id(text: &str) -> ApiResult<i64> {
    text.parse().map_err(|_| ApiError::not_found(format!("no game '{text}': game ids are numbers")))
}

/// Options as sent: `"key=value,..."` or `{"key": value}`.
fn options_text(options: &Value) -> ApiResult<String> {
    match options {
        Value::Null => Ok(String::new()),
        Value::String(s) => Ok(s.clone()),
        Value::Object(map) => Ok(map
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => format!("{k}={s}"),
                other => format!("{k}={other}"),
            })
            .collect::<Vec<_>>()
            .join(",")),
        _ => Err(ApiError::bad_request("options must be a string 'key=value,...' or an object")),
    }
}

async fn catalog(State(app): AppState) -> ApiResult<Json<Value>> {
    let entries =
        (0..app.registry.len()).map(|i| app.describe(i, "", false)).collect::<ApiResult<Vec<_>>>()?;
    Ok(Json(Value::Array(entries)))
}

async fn catalog_game(
    State(app): AppState,
    Path(game): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> ApiResult<Json<Value>> {
    let index = app.game_index(&game)?;
    let options = query.get("options").map(String::as_str).unwrap_or("");
    Ok(Json(app.describe(index, options, true)?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateGame {
    game: String,
    #[serde(default)]
    options: Value,
    sides: Vec<Side>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    delay_ms: Option<u64>,
}

async fn create_game(State(app): AppState, body: Bytes) -> ApiResult<Response> {
    let req: CreateGame = parse(&body)?;
    let new = NewGame {
        game: req.game,
        options: options_text(&req.options)?,
        sides: req.sides,
        seed: req.seed,
        delay_ms: req.delay_ms,
    };
    blocking(move || {
        let (handle, tokens) = app.create_game(new, None)?;
        let view = lock(&handle).view();
        Ok(created(view, tokens))
    })
    .await
}

#[derive(Deserialize)]
struct ListQuery {
    limit: Option<i64>,
    offset: Option<i64>,
    game: Option<String>,
    status: Option<String>,
    series: Option<i64>,
}

/// A page of the list, and in `X-Total-Count` how many games pass the filter.
async fn list_games(State(app): AppState, Query(q): Query<ListQuery>) -> ApiResult<Response> {
    let limit = q.limit.unwrap_or(50).clamp(1, 500);
    let status = match q.status.as_deref().filter(|s| !s.is_empty()) {
        None => None,
        Some(text @ ("playing" | "over" | "aborted")) => Some(Status::parse(text)),
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "status must be playing, over or aborted, got '{other}'"
            )));
        }
    };
    let filter = GameFilter { game: q.game.filter(|g| !g.is_empty()), status, series: q.series };
    blocking(move || {
        let total = app.store.count_games(&filter)?;
        let page = app.game_list(limit, q.offset.unwrap_or(0).max(0), &filter)?;
        Ok(([("x-total-count", total.to_string())], Json(page)).into_response())
    })
    .await
}

/// The game as the seat whose token the request carries sees it (a spectator without one), with
/// its board data (`board`: a map, or null), which the other answers and the socket leave out.
async fn get_game(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<Value>> {
    let id = game_id(&id)?;
    let token = bearer(&headers)?;
    blocking(move || {
        let handle = app.game(id)?;
        let live = lock(&handle);
        let mut view = live.view_for(live.seat_of(token.as_deref()));
        // Sent here only, not with every change: it stays the same through the game.
        view["board"] = live.state.board_json();
        Ok(Json(view))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    action: Value,
    #[serde(default)]
    player: Option<usize>,
    #[serde(default)]
    ply: Option<usize>,
}

/// Makes a change to game `id` under its lock, on the blocking pool, tells its watchers, and
/// answers with the new view. `change` gets the request's token.
async fn change_game(
    app: Arc<App>,
    id: &str,
    headers: &HeaderMap,
    change: impl FnOnce(&mut Live, &GameHandle, Option<&str>) -> ApiResult<()> + Send + 'static,
) -> ApiResult<Json<Value>> {
    let id = game_id(id)?;
    let token = bearer(headers)?;
    blocking(move || {
        let handle = app.game(id)?;
        let mut live = lock(&handle);
        change(&mut live, &handle, token.as_deref())?;
        live.publish();
        Ok(Json(live.view_for(live.seat_of(token.as_deref()))))
    })
    .await
}

async fn play_move(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    let req: MoveRequest = parse(&body)?;
    change_game(app, &id, &headers, move |live, handle, token| {
        // A move in JSON form is turned into text by the game itself, so both forms are checked
        // the same way.
        let action = match &req.action {
            Value::String(text) => text.clone(),
            other => {
                let mut probe = live.state.clone_box();
                probe.play_json(other)?
            }
        };
        live.human_move(handle, &action, token, req.player, req.ply)
    })
    .await
}

async fn undo(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    let _: serde_json::Map<String, Value> = parse(&body)?;
    change_game(app, &id, &headers, |live, handle, token| live.undo(handle, token)).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResignRequest {
    #[serde(default)]
    player: Option<usize>,
}

async fn resign(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    let req: ResignRequest = parse(&body)?;
    change_game(app, &id, &headers, move |live, _, token| live.resign(token, req.player)).await
}

async fn abort(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    let _: serde_json::Map<String, Value> = parse(&body)?;
    change_game(app, &id, &headers, |live, _, token| live.abort(token)).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ControlRequest {
    #[serde(default)]
    paused: Option<bool>,
    #[serde(default)]
    delay_ms: Option<u64>,
}

async fn control(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    let req: ControlRequest = parse(&body)?;
    if req.delay_ms.is_some_and(|d| d > crate::model::MAX_DELAY_MS) {
        return Err(ApiError::bad_request(format!(
            "delay_ms must be at most {}",
            crate::model::MAX_DELAY_MS
        )));
    }
    change_game(app, &id, &headers, move |live, handle, token| {
        live.control(handle, token, req.paused, req.delay_ms)
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RematchRequest {
    #[serde(default)]
    swap: bool,
}

/// A new game with another game's settings; its tokens go to whoever asks, as for any new game.
async fn rematch(State(app): AppState, Path(id): Path<String>, body: Bytes) -> ApiResult<Response> {
    let req: RematchRequest = parse(&body)?;
    let id = game_id(&id)?;
    blocking(move || {
        let settings = {
            let handle = app.game(id)?;
            let live = lock(&handle);
            if live.series.is_some() {
                return Err(ApiError::conflict("games of a test series have no rematch; start a new test"));
            }
            live.settings.clone()
        };
        let mut sides = settings.sides;
        if req.swap {
            sides.reverse();
        }
        let new = NewGame {
            game: settings.game,
            options: settings.options,
            sides,
            seed: None,
            delay_ms: Some(settings.delay_ms),
        };
        let (handle, tokens) = app.create_game(new, None)?;
        let view = lock(&handle).view();
        Ok(created(view, tokens))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HintRequest {
    #[serde(default)]
    agent: Option<String>,
    #[serde(default)]
    time_ms: Option<u64>,
}

async fn hint(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    let req: HintRequest = parse(&body)?;
    let id = game_id(&id)?;
    let token = bearer(&headers)?;
    let loader = app.clone();
    let handle = blocking(move || loader.game(id)).await?;
    Ok(Json(hint::hint(&app, &handle, token.as_deref(), req.agent.as_deref(), req.time_ms).await?))
}

async fn record(State(app): AppState, Path(id): Path<String>) -> ApiResult<Response> {
    let id = game_id(&id)?;
    let record = blocking(move || {
        let handle = app.game(id)?;
        let live = lock(&handle);
        if live.is_secret() {
            return Err(ApiError::conflict(
                "the record of a game with hidden information is given once the game is over",
            ));
        }
        crate::record::of(&live)
    })
    .await?;
    let body = serde_json::to_string_pretty(&record).expect("records serialise");
    Ok((
        [
            (header::CONTENT_TYPE, "application/json".to_string()),
            (header::CONTENT_DISPOSITION, format!("inline; filename=\"ply-game-{id}.json\"")),
        ],
        body,
    )
        .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateSeries {
    game: String,
    #[serde(default)]
    options: Value,
    sides: Vec<Side>,
    games: u32,
}

async fn create_series(State(app): AppState, body: Bytes) -> ApiResult<Response> {
    let req: CreateSeries = parse(&body)?;
    let options = options_text(&req.options)?;
    let (mut view, token) =
        blocking(move || series::start(&app, req.game, options, req.sides, req.games)).await?;
    view["token"] = json!(token);
    Ok((StatusCode::CREATED, Json(view)).into_response())
}

async fn list_series(State(app): AppState) -> ApiResult<Json<Value>> {
    blocking(move || Ok(Json(series::list(&app)?))).await
}

fn series_id(text: &str) -> ApiResult<i64> {
    text.parse().map_err(|_| ApiError::not_found(format!("no series '{text}': series ids are numbers")))
}

async fn get_series(State(app): AppState, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    let id = series_id(&id)?;
    blocking(move || Ok(Json(series::view(&app, id)?))).await
}

/// Answers once the series has stopped, with its final view.
async fn stop_series(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    let _: serde_json::Map<String, Value> = parse(&body)?;
    let id = series_id(&id)?;
    let token = bearer(&headers)?;
    let run = blocking(move || series::stop(&app, id, token.as_deref())).await?;
    Ok(Json(series::stopped(run).await))
}

#[derive(Deserialize)]
struct SocketQuery {
    /// A seat's token: browsers cannot set headers on a WebSocket.
    token: Option<String>,
}

/// A game's news, as the seat of `?token=` sees it (a spectator without one). In a game with
/// hidden information every socket gets its own view of each change instead of the broadcast.
async fn game_socket(
    State(app): AppState,
    Path(id): Path<String>,
    Query(query): Query<SocketQuery>,
    ws: WebSocketUpgrade,
) -> ApiResult<Response> {
    let id = game_id(&id)?;
    let handle = blocking(move || app.game(id)).await?;
    // Subscribe before taking the first view, so no change falls between the two.
    let (rx, first, viewer, personal) = {
        let live = lock(&handle);
        let viewer = live.seat_of(query.token.as_deref());
        let first = json!({"type": "state", "game": live.view_for(viewer)}).to_string();
        (live.subscribe(), first, viewer, live.state.hidden_information())
    };
    let refresh = move || json!({"type": "state", "game": lock(&handle).view_for(viewer)}).to_string();
    Ok(ws.on_upgrade(move |socket| pump(socket, first, rx, refresh, personal)))
}

async fn series_socket(
    State(app): AppState,
    Path(id): Path<String>,
    ws: WebSocketUpgrade,
) -> ApiResult<Response> {
    let id = series_id(&id)?;
    let viewer = app.clone();
    let first =
        blocking(move || Ok(json!({"type": "series", "series": series::view(&viewer, id)?}).to_string()))
            .await?;
    let run = series::running(&app, id);
    let rx = match &run {
        Some(run) => run.subscribe(),
        // A finished series never changes: a channel that stays silent.
        None => broadcast::channel(1).1,
    };
    let unchanged = first.clone();
    let refresh = move || match &run {
        Some(run) => json!({"type": "series", "series": run.view()}).to_string(),
        None => unchanged.clone(),
    };
    Ok(ws.on_upgrade(move |socket| pump(socket, first, rx, refresh, false)))
}

/// Sends the first message, then every broadcast, until the client goes away. A client that
/// falls behind gets a fresh full view instead of the messages it missed; a `personal` one gets
/// its own fresh view for every broadcast.
async fn pump(
    mut socket: WebSocket,
    first: String,
    mut rx: broadcast::Receiver<Arc<str>>,
    refresh: impl Fn() -> String + Send + 'static,
    personal: bool,
) {
    if socket.send(Message::Text(first.into())).await.is_err() {
        return;
    }
    let mut closed = false;
    loop {
        tokio::select! {
            message = rx.recv(), if !closed => {
                let text = match message {
                    Ok(_) if personal => refresh(),
                    Ok(text) => text.to_string(),
                    Err(broadcast::error::RecvError::Lagged(_)) => refresh(),
                    Err(broadcast::error::RecvError::Closed) => { closed = true; continue; }
                };
                if socket.send(Message::Text(text.into())).await.is_err() {
                    return;
                }
            }
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(Message::Text(text)))
                    if text.as_str().contains("\"ping\"")
                        && socket.send(Message::Text(json!({"type": "pong"}).to_string().into())).await.is_err() =>
                {
                    return;
                }
                _ => {}
            }
        }
    }
}

//! Automatic tests: N games between two AI sides, seats swapped every game, one after another
//! (the machine's cores go to the searches), with a live score and its 95% interval. The client
//! that starts a series gets its token, which stopping it needs; its games have no tokens and
//! cannot be paused, taken back or aborted one by one.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use ply_arena::stats::Score;
use serde_json::{Value, json};
use tokio::sync::{broadcast, watch};

use crate::app::{App, NewGame};
use crate::auth::{new_token, refused, same};
use crate::live::lock;
use crate::model::{ApiError, ApiResult, Side, Status, now_ms};
use crate::store::GameFilter;

pub const MAX_SERIES_GAMES: u32 = 10_000;

/// One finished (or aborted) game of a series.
#[derive(Clone)]
struct Outcome {
    game: i64,
    /// The seat side A played.
    a_seat: usize,
    /// Side A's and side B's scores; `None` for an aborted game.
    scores: Option<(f64, f64)>,
}

struct Progress {
    status: String,
    outcomes: Vec<Outcome>,
    current: Option<i64>,
    updated: i64,
}

pub struct SeriesRun {
    id: i64,
    game: String,
    options: String,
    sides: [Side; 2],
    total: u32,
    created: i64,
    progress: Mutex<Progress>,
    stop: AtomicBool,
    token: String,
    tx: broadcast::Sender<Arc<str>>,
    /// Set when the run has ended and its status is stored.
    ended: watch::Sender<bool>,
}

impl SeriesRun {
    pub fn is_running(&self) -> bool {
        !*self.ended.borrow()
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Arc<str>> {
        self.tx.subscribe()
    }

    fn progress(&self) -> std::sync::MutexGuard<'_, Progress> {
        self.progress.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn view(&self) -> Value {
        let p = self.progress();
        series_view(
            self.id,
            &self.game,
            &self.options,
            &json!(self.sides),
            self.total,
            &p.status,
            p.current,
            &p.outcomes,
            self.created,
            p.updated,
        )
    }

    fn publish(&self) {
        let _ = self.tx.send(json!({"type": "series", "series": self.view()}).to_string().into());
    }
}

#[allow(clippy::too_many_arguments)]
fn series_view(
    id: i64,
    game: &str,
    options: &str,
    sides: &Value,
    total: u32,
    status: &str,
    current: Option<i64>,
    outcomes: &[Outcome],
    created: i64,
    updated: i64,
) -> Value {
    let mut score = Score::default();
    for (a, b) in outcomes.iter().filter_map(|o| o.scores) {
        score.add(a, b);
    }
    let (low, high) = score.interval();
    let elo = score.elo();
    let finite = |x: f64| if x.is_finite() { json!(x) } else { json!(null) };
    json!({
        "id": id,
        "game": game,
        "options": options,
        "sides": sides,
        "total": total,
        "played": score.games(),
        "status": status,
        "current_game": current,
        "score": {
            "wins": score.wins, "draws": score.draws, "losses": score.losses, "games": score.games(),
            "mean": score.mean(), "low": low, "high": high,
            "elo": finite(elo.elo), "elo_low": finite(elo.low), "elo_high": finite(elo.high),
        },
        "games": outcomes.iter().map(|o| json!({
            "id": o.game,
            "a_seat": o.a_seat,
            "a_score": o.scores.map(|s| s.0),
        })).collect::<Vec<_>>(),
        "created": created,
        "updated": updated,
    })
}

/// Starts a series on the blocking thread the request runs on; answers its view and its token.
pub fn start(
    app: &Arc<App>,
    game: String,
    options: String,
    sides: Vec<Side>,
    total: u32,
) -> ApiResult<(Value, String)> {
    let Ok(sides) = <[Side; 2]>::try_from(sides) else {
        return Err(ApiError::bad_request("a test has exactly two sides, A and B"));
    };
    if !(1..=MAX_SERIES_GAMES).contains(&total) {
        return Err(ApiError::bad_request(format!("games must be between 1 and {MAX_SERIES_GAMES}")));
    }
    let index = app.game_index(&game)?;
    let players = app.registry[index].new_state(&options)?.num_players();
    if players != 2 {
        return Err(ApiError::bad_request(format!(
            "a test needs a two-player game; {game} has {players} here"
        )));
    }
    let checked = [app.check_side(index, &sides[0], 0)?, app.check_side(index, &sides[1], 1)?];
    if !checked.iter().all(Side::is_ai) {
        return Err(ApiError::bad_request("both sides of a test are AIs"));
    }
    let now = now_ms();
    let token = new_token();
    let id = app.store.insert_series(&game, &options, &json!(checked), total, &token, now)?;
    let run = Arc::new(SeriesRun {
        id,
        game,
        options,
        sides: checked,
        total,
        created: now,
        progress: Mutex::new(Progress {
            status: "running".into(),
            outcomes: Vec::new(),
            current: None,
            updated: now,
        }),
        stop: AtomicBool::new(false),
        token: token.clone(),
        tx: broadcast::channel(64).0,
        ended: watch::channel(false).0,
    });
    app.series.lock().unwrap_or_else(|e| e.into_inner()).insert(id, run.clone());
    let view = run.view();
    tokio::spawn(run_series(app.clone(), run));
    Ok((view, token))
}

async fn run_series(app: Arc<App>, run: Arc<SeriesRun>) {
    let run_id = run.id;
    for index in 0..run.total {
        if run.stop.load(Ordering::Relaxed) {
            break;
        }
        let a_seat = (index % 2) as usize;
        let sides = if a_seat == 0 {
            vec![run.sides[0].clone(), run.sides[1].clone()]
        } else {
            vec![run.sides[1].clone(), run.sides[0].clone()]
        };
        let new = NewGame {
            game: run.game.clone(),
            options: run.options.clone(),
            sides,
            seed: None,
            delay_ms: Some(0),
        };
        let creator = app.clone();
        let created = tokio::task::spawn_blocking(move || creator.create_game(new, Some((run_id, index))))
            .await
            .unwrap_or_else(|e| Err(ApiError::internal(format!("starting a game panicked: {e}"))));
        let handle = match created {
            Ok((handle, _)) => handle,
            Err(e) => {
                eprintln!("ply serve: series {}: cannot start game {index}: {}", run.id, e.message);
                break;
            }
        };
        let (id, mut done) = {
            let live = lock(&handle);
            (live.id, live.watch_done())
        };
        run.progress().current = Some(id);
        run.publish();
        // A stop aborts the current game, which ends this wait.
        let _ = done.wait_for(|&over| over).await;
        let scores = {
            let live = lock(&handle);
            match (&live.status, &live.result) {
                (Status::Over, Some(r)) => Some((r.returns[a_seat], r.returns[1 - a_seat])),
                _ => None,
            }
        };
        app.evict(id);
        {
            let mut p = run.progress();
            p.outcomes.push(Outcome { game: id, a_seat, scores });
            p.current = None;
            p.updated = now_ms();
        }
        run.publish();
    }
    let status = if run.stop.load(Ordering::Relaxed) { "stopped" } else { "finished" };
    let now = now_ms();
    let store = app.store.clone();
    let stored = tokio::task::spawn_blocking(move || store.set_series_status(run_id, status, now)).await;
    if let Ok(Err(e)) = stored {
        eprintln!("ply serve: series {run_id}: cannot store its status: {e}");
    }
    {
        let mut p = run.progress();
        p.status = status.into();
        p.updated = now;
    }
    run.ended.send_replace(true);
    run.publish();
}

/// Asks a running series to stop (it needs the series' token) and aborts its current game;
/// returns the run, whose end the caller awaits with [`stopped`].
pub fn stop(app: &Arc<App>, id: i64, token: Option<&str>) -> ApiResult<Arc<SeriesRun>> {
    let run = running(app, id)
        .filter(|run| run.is_running())
        .ok_or_else(|| ApiError::conflict(format!("series {id} is not running")))?;
    if token.is_none_or(|t| !same(t, &run.token)) {
        return Err(refused(token, "the series' token"));
    }
    run.stop.store(true, Ordering::Relaxed);
    let current = run.progress().current;
    if let Some(game) = current
        && let Ok(handle) = app.game(game)
    {
        let mut live = lock(&handle);
        if live.stop_game().is_ok() {
            live.publish();
        }
    }
    Ok(run)
}

/// The view of a stopped series once its run has ended.
pub async fn stopped(run: Arc<SeriesRun>) -> Value {
    let mut ended = run.ended.subscribe();
    let _ = ended.wait_for(|&ended| ended).await;
    run.view()
}

pub fn running(app: &App, id: i64) -> Option<Arc<SeriesRun>> {
    app.series.lock().unwrap_or_else(|e| e.into_inner()).get(&id).cloned()
}

/// A series from memory if it ran since the server started, else rebuilt from the store.
pub fn view(app: &App, id: i64) -> ApiResult<Value> {
    if let Some(run) = running(app, id) {
        return Ok(run.view());
    }
    let stored = app
        .store
        .load_series(Some(id))?
        .pop()
        .ok_or_else(|| ApiError::not_found(format!("no series {id}")))?;
    stored_view(app, &stored)
}

pub fn list(app: &App) -> ApiResult<Value> {
    let stored = app.store.load_series(None)?;
    let views = stored
        .iter()
        .map(|s| match running(app, s.id) {
            Some(run) => Ok(run.view()),
            None => stored_view(app, s),
        })
        .collect::<ApiResult<Vec<_>>>()?;
    Ok(Value::Array(views))
}

fn stored_view(app: &App, s: &crate::store::StoredSeries) -> ApiResult<Value> {
    let filter = GameFilter { series: Some(s.id), ..GameFilter::default() };
    let games = app.store.list_games(i64::from(MAX_SERIES_GAMES), 0, &filter)?;
    let outcomes: Vec<Outcome> = games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let a_seat = i % 2;
            let scores = match (&g.status, &g.result) {
                (Status::Over, Some(r)) => Some((r.returns[a_seat], r.returns[1 - a_seat])),
                _ => None,
            };
            Outcome { game: g.id, a_seat, scores }
        })
        .collect();
    Ok(series_view(
        s.id, &s.game, &s.options, &s.sides, s.total, &s.status, None, &outcomes, s.created, s.updated,
    ))
}

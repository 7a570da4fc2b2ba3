//! Automatic tests: games between AI sides, one per seat of the game, played one after another
//! (the machine's cores go to the searches), with live scores and their 95% intervals. Seats
//! rotate every game — two sides swap, N sides take every rotation — and the games of one round of
//! rotations share their seed, so every side meets the same dice in every seat. Two sides get
//! A's score and Elo; more get each side's share of the wins next to the fair share, with
//! intervals from the spread of per-round means, as `ply ffa`. The client that starts a series
//! gets its token, which stopping it needs; its games have no tokens and cannot be paused, taken
//! back or aborted one by one.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use ply_arena::ffa::mean_interval;
use ply_arena::stats::Score;
use ply_core::rng::derive_seed;
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
    /// Seat `s` was played by side `(s + shift) % sides`.
    shift: usize,
    /// Each side's score (by side, not seat); `None` for an aborted game.
    scores: Option<Vec<f64>>,
}

impl Outcome {
    /// From a finished game's returns (by seat).
    fn new(game: i64, shift: usize, returns: Option<&[f64]>) -> Outcome {
        let scores = returns.map(|r| {
            let n = r.len();
            (0..n).map(|side| r[(side + n - shift) % n]).collect()
        });
        Outcome { game, shift, scores }
    }
}

/// The sides in each seat of game `index` of a series of `sides` sides.
fn seating(index: u32, sides: usize) -> (usize, Vec<usize>) {
    let shift = index as usize % sides;
    (shift, (0..sides).map(|seat| (seat + shift) % sides).collect())
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
    sides: Vec<Side>,
    /// The games of a round of rotations share a seed derived from this one.
    seed: u64,
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
    let n = sides.as_array().map_or(2, Vec::len).max(2);
    let mut score = Score::default();
    for scores in outcomes.iter().filter_map(|o| o.scores.as_ref()) {
        score.add(scores[0], scores[1..].iter().copied().fold(f64::NEG_INFINITY, f64::max));
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
        "standings": standings(outcomes, n),
        "fair_share": 1.0 / n as f64,
        "games": outcomes.iter().map(|o| json!({
            "id": o.game,
            "shift": o.shift,
            "a_seat": (n - o.shift) % n,
            "a_score": o.scores.as_ref().map(|s| s[0]),
            "scores": o.scores,
        })).collect::<Vec<_>>(),
        "created": created,
        "updated": updated,
    })
}

/// Each side's mean score with a 95% interval from per-round means (a round: one game in each
/// rotation), and its outright wins.
fn standings(outcomes: &[Outcome], n: usize) -> Vec<Value> {
    let mut rounds: Vec<Vec<Vec<f64>>> = Vec::new();
    for (index, outcome) in outcomes.iter().enumerate() {
        if index % n == 0 {
            rounds.push(Vec::new());
        }
        if let Some(scores) = &outcome.scores {
            rounds.last_mut().expect("a round was opened").push(scores.clone());
        }
    }
    (0..n)
        .map(|side| {
            let means: Vec<f64> = rounds
                .iter()
                .filter(|games| !games.is_empty())
                .map(|games| games.iter().map(|s| s[side]).sum::<f64>() / games.len() as f64)
                .collect();
            let (mean, low, high) = mean_interval(&means);
            let wins = outcomes
                .iter()
                .filter_map(|o| o.scores.as_ref())
                .filter(|s| s.iter().enumerate().all(|(other, &x)| other == side || x < s[side]))
                .count();
            json!({"score": mean, "low": low, "high": high, "wins": wins})
        })
        .collect()
}

/// Starts a series on the blocking thread the request runs on; answers its view and its token.
pub fn start(
    app: &Arc<App>,
    game: String,
    options: String,
    sides: Vec<Side>,
    total: u32,
) -> ApiResult<(Value, String)> {
    if !(1..=MAX_SERIES_GAMES).contains(&total) {
        return Err(ApiError::bad_request(format!("games must be between 1 and {MAX_SERIES_GAMES}")));
    }
    let index = app.game_index(&game)?;
    let players = app.new_state_from_network(index, &options)?.num_players();
    if sides.len() != players {
        return Err(ApiError::bad_request(format!(
            "a test has one side per seat: {game} with these options seats {players}, but {} sides were given",
            sides.len()
        )));
    }
    let checked = sides
        .iter()
        .enumerate()
        .map(|(seat, side)| app.check_side(index, side, seat))
        .collect::<ApiResult<Vec<_>>>()?;
    if !checked.iter().all(Side::is_ai) {
        return Err(ApiError::bad_request("every side of a test is an AI"));
    }
    let now = now_ms();
    let token = new_token();
    let id = app.store.insert_series(&game, &options, &json!(checked), total, &token, now)?;
    let run = Arc::new(SeriesRun {
        id,
        game,
        options,
        sides: checked,
        seed: app.fresh_seed(),
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
        let n = run.sides.len();
        let (shift, seats) = seating(index, n);
        let new = NewGame {
            game: run.game.clone(),
            options: run.options.clone(),
            sides: seats.iter().map(|&side| run.sides[side].clone()).collect(),
            seed: Some(derive_seed(run.seed, u64::from(index) / n as u64)),
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
        let outcome = {
            let live = lock(&handle);
            let returns = match (&live.status, &live.result) {
                (Status::Over, Some(r)) => Some(r.returns.as_slice()),
                _ => None,
            };
            Outcome::new(id, shift, returns)
        };
        app.evict(id);
        {
            let mut p = run.progress();
            p.outcomes.push(outcome);
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
    let n = s.sides.as_array().map_or(2, Vec::len).max(2);
    let outcomes: Vec<Outcome> = games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let returns = match (&g.status, &g.result) {
                (Status::Over, Some(r)) => Some(r.returns.as_slice()),
                _ => None,
            };
            Outcome::new(g.id, seating(i as u32, n).0, returns)
        })
        .collect();
    Ok(series_view(
        s.id, &s.game, &s.options, &s.sides, s.total, &s.status, None, &outcomes, s.created, s.updated,
    ))
}

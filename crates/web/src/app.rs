//! The server's shared state: the game registry, the store, the games in memory and the test
//! series running. Games leave memory when nobody has used or watched them for a while; the
//! store keeps them, and the next request loads them again.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use ply_arena::DynGame;
use ply_core::resource::{check_caps, check_option_files};
use ply_core::rng::derive_seed;
use ply_core::{AgentSpec, Caps};
use serde_json::{Value, json};

use crate::auth::Tokens;
use crate::config::Config;
use crate::datadir::DataDir;
use crate::live::{GameHandle, Live, Registry, lock};
use crate::model::{
    ApiError, ApiResult, DEFAULT_TIME_MS, MAX_DELAY_MS, MAX_TIME_MS, Settings, Side, SideKind, Status, now_ms,
};
use crate::series::SeriesRun;
use crate::store::{GameFilter, Store, StoredGame};

struct Slot {
    handle: GameHandle,
    used: Instant,
}

type Games = Mutex<HashMap<i64, Slot>>;

pub struct App {
    pub registry: Arc<Registry>,
    pub store: Arc<Store>,
    games: Arc<Games>,
    pub(crate) series: Mutex<HashMap<i64, Arc<SeriesRun>>>,
    seeds: AtomicU64,
    /// Searches running now (AI moves and hints), for `/api/status`.
    pub searches: Arc<AtomicUsize>,
    /// AIs pondering while a human thinks.
    pub ponders: Arc<AtomicUsize>,
    pub caps: Caps,
    /// Held for the server's life: no second server opens this data directory.
    pub data: DataDir,
}

/// What a new game needs besides its settings.
pub struct NewGame {
    pub game: String,
    pub options: String,
    pub sides: Vec<Side>,
    pub seed: Option<u64>,
    pub delay_ms: Option<u64>,
}

impl App {
    /// Opens the store in a data directory already locked for this server, and starts the task
    /// that moves idle games out of memory (when called inside a tokio runtime).
    pub fn open(games: Vec<Box<dyn DynGame>>, data: DataDir, config: &Config) -> std::io::Result<App> {
        let path = data.path().join("ply.sqlite3");
        let failed = |message: String| std::io::Error::other(format!("{}: {message}", path.display()));
        let store = Store::open(&path).map_err(failed)?;
        store.interrupt_running(now_ms()).map_err(|e| failed(e.to_string()))?;
        let clock = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        let app = App {
            registry: Arc::new(games),
            store: Arc::new(store),
            games: Arc::new(Mutex::new(HashMap::new())),
            series: Mutex::new(HashMap::new()),
            seeds: AtomicU64::new(clock),
            searches: Arc::new(AtomicUsize::new(0)),
            ponders: Arc::new(AtomicUsize::new(0)),
            caps: config.caps,
            data,
        };
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(evict_idle(Arc::downgrade(&app.games), config.idle_after));
        }
        Ok(app)
    }

    fn games(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Slot>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn fresh_seed(&self) -> u64 {
        derive_seed(self.seeds.fetch_add(1, Ordering::Relaxed), 0x5EED)
    }

    pub fn game_index(&self, name: &str) -> ApiResult<usize> {
        self.registry.iter().position(|g| g.name() == name).ok_or_else(|| {
            let names: Vec<&str> = self.registry.iter().map(|g| g.name()).collect();
            ApiError::not_found(format!("unknown game '{name}'; this server has: {}", names.join(", ")))
        })
    }

    /// The catalog entry of a game: options, agents and, for the given options, the players and
    /// the start position; with `board`, also what stays the same through a game of these
    /// options (a map, or null), for a page to draw.
    pub fn describe(&self, index: usize, options: &str, board: bool) -> ApiResult<Value> {
        let game = &self.registry[index];
        let start = self.new_state_from_network(index, options)?;
        let params = |ps: &[ply_core::ParamInfo]| -> Vec<Value> {
            ps.iter().map(|p| json!({"name": p.name, "default": p.default, "help": p.help})).collect()
        };
        let mut entry = json!({
            "name": game.name(),
            "about": game.about(),
            "options": params(&game.options()),
            "agents": game.agents().iter().map(|a| json!({
                "name": a.name, "about": a.about, "params": params(&a.params),
            })).collect::<Vec<_>>(),
            "num_players": start.num_players(),
            "start": {"text": start.to_text(), "json": start.to_json()},
        });
        if board {
            entry["board"] = start.board_json();
        }
        Ok(entry)
    }

    /// The start position for game options sent over HTTP: options naming a file on the
    /// server (a Risk map) are refused before anything reads it.
    pub fn new_state_from_network(
        &self,
        index: usize,
        options: &str,
    ) -> ApiResult<Box<dyn ply_arena::DynState>> {
        let game = &self.registry[index];
        check_option_files(&format!("game {}", game.name()), &game.options(), options)?;
        Ok(game.new_state(options)?)
    }

    /// Parses an agent spec sent over HTTP and checks it against the caps on memory, threads
    /// and files, before anything is built from it.
    pub fn check_spec(&self, index: usize, text: &str) -> ApiResult<AgentSpec> {
        let spec = AgentSpec::parse(text)?;
        // An unknown name passes here; building it fails with the list of agents.
        if let Some(info) = self.registry[index].agents().into_iter().find(|a| a.name == spec.name) {
            check_caps(&spec, &info.params, &self.caps)?;
        }
        Ok(spec)
    }

    /// Checks a side's settings against the game; fills in the default time.
    pub fn check_side(&self, index: usize, side: &Side, seat: usize) -> ApiResult<Side> {
        let mut side = side.clone();
        let context = |m: String| ApiError::bad_request(format!("side {seat}: {m}"));
        match side.kind {
            SideKind::Human => {
                if side.agent.is_some() || side.time_ms.is_some() {
                    return Err(context("a human side takes no agent or time".into()));
                }
            }
            SideKind::Ai => {
                let text =
                    side.agent.as_deref().ok_or_else(|| context("an AI side needs an agent".into()))?;
                let spec = self.check_spec(index, text).map_err(|e| context(e.message))?;
                self.registry[index].new_agent(&spec, 0).map_err(|e| context(e.to_string()))?;
                let time = side.time_ms.unwrap_or(DEFAULT_TIME_MS);
                if !(1..=MAX_TIME_MS).contains(&time) {
                    return Err(context(format!("time_ms must be between 1 and {MAX_TIME_MS}, got {time}")));
                }
                side.agent = Some(spec.to_string());
                side.time_ms = Some(time);
            }
        }
        if side.name.as_ref().is_some_and(|n| n.chars().count() > 40) {
            return Err(context("a name has at most 40 characters".into()));
        }
        Ok(side)
    }

    /// Creates and starts a game. Its tokens are returned once, here; a game of a series has
    /// none (only AIs play it, and the series' token stops it).
    pub fn create_game(
        self: &Arc<Self>,
        new: NewGame,
        series: Option<(i64, u32)>,
    ) -> ApiResult<(GameHandle, Option<Tokens>)> {
        let index = self.game_index(&new.game)?;
        let start = self.new_state_from_network(index, &new.options)?;
        let players = start.num_players();
        if new.sides.len() != players {
            return Err(ApiError::bad_request(format!(
                "{} with these options has {players} players, but {} sides were given",
                new.game,
                new.sides.len()
            )));
        }
        let sides: Vec<Side> = new
            .sides
            .iter()
            .enumerate()
            .map(|(seat, s)| self.check_side(index, s, seat))
            .collect::<ApiResult<_>>()?;
        let has_human = sides.iter().any(|s| !s.is_ai());
        let delay_ms = new.delay_ms.unwrap_or(if has_human { 700 } else { 500 });
        if delay_ms > MAX_DELAY_MS {
            return Err(ApiError::bad_request(format!("delay_ms must be at most {MAX_DELAY_MS}")));
        }
        let tokens = series.is_none().then(|| Tokens::new(sides.iter().map(|s| !s.is_ai())));
        let settings = Settings {
            game: new.game,
            options: new.options,
            sides,
            seed: new.seed.unwrap_or_else(|| self.fresh_seed()),
            delay_ms,
        };
        let now = now_ms();
        let id = self.store.insert_game(&settings, series, tokens.as_ref(), now)?;
        let stored = StoredGame {
            id,
            settings,
            status: Status::Playing,
            result: None,
            created: now,
            updated: now,
            actions: Vec::new(),
            series,
            tokens: tokens.clone(),
            rolls: 0,
        };
        let mut live = self.live(index, stored)?;
        live.paused = false;
        let handle = Arc::new(Mutex::new(live));
        self.games().insert(id, Slot { handle: handle.clone(), used: Instant::now() });
        lock(&handle).advance(&handle);
        Ok((handle, tokens))
    }

    /// A game's live state, sharing the server's registry, store and counters.
    fn live(&self, index: usize, stored: StoredGame) -> Result<Live, ApiError> {
        Live::build(
            self.registry.clone(),
            self.store.clone(),
            self.searches.clone(),
            self.ponders.clone(),
            index,
            stored,
        )
    }

    /// A game in memory, or loaded from the store (and moved on if an AI is to move). A load
    /// replays the game without holding the map's lock, so other games are not kept waiting.
    pub fn game(&self, id: i64) -> ApiResult<GameHandle> {
        if let Some(slot) = self.games().get_mut(&id) {
            slot.used = Instant::now();
            return Ok(slot.handle.clone());
        }
        let stored = self.store.load_game(id)?.ok_or_else(|| ApiError::not_found(format!("no game {id}")))?;
        let index = self.game_index(&stored.settings.game)?;
        let live = self.live(index, stored)?;
        let handle = {
            let mut games = self.games();
            // Another request may have loaded it meanwhile: theirs wins, ours is dropped unused.
            let slot = games
                .entry(id)
                .or_insert_with(|| Slot { handle: Arc::new(Mutex::new(live)), used: Instant::now() });
            slot.handle.clone()
        };
        lock(&handle).advance(&handle);
        Ok(handle)
    }

    /// Forgets a finished game (a test series plays many); the store keeps it.
    pub fn evict(&self, id: i64) {
        self.games().remove(&id);
    }

    /// For `/api/status`.
    pub fn status(&self) -> Value {
        let running =
            self.series.lock().unwrap_or_else(|e| e.into_inner()).values().filter(|s| s.is_running()).count();
        json!({
            "version": env!("CARGO_PKG_VERSION"),
            "schema": crate::store::SCHEMA_VERSION,
            "games_in_memory": self.games().len(),
            "searches": self.searches.load(Ordering::Relaxed),
            "ponders": self.ponders.load(Ordering::Relaxed),
            "series_running": running,
            "caps": {"memory_bytes": self.caps.memory_bytes, "threads": self.caps.threads},
        })
    }

    pub fn game_list(&self, limit: i64, offset: i64, filter: &GameFilter) -> ApiResult<Value> {
        let rows = self.store.list_games(limit, offset, filter)?;
        Ok(Value::Array(
            rows.into_iter()
                .map(|g| {
                    json!({
                        "id": g.id,
                        "game": g.settings.game,
                        "options": g.settings.options,
                        "sides": g.settings.sides,
                        "status": g.status,
                        "result": g.result,
                        "plies": g.plies,
                        "series": g.series,
                        "created": g.created,
                        "updated": g.updated,
                    })
                })
                .collect(),
        ))
    }
}

/// Every so often, drops from memory the games that nobody has asked for in `idle` and that
/// nothing holds: no request or search in flight (the map holds the only handle), no socket
/// watching. Their agents (tables of many MiB) go with them. Ends when the server does.
async fn evict_idle(games: Weak<Games>, idle: Duration) {
    let period = (idle / 4).clamp(Duration::from_millis(20), Duration::from_secs(30));
    loop {
        tokio::time::sleep(period).await;
        let Some(games) = games.upgrade() else { return };
        let mut games = games.lock().unwrap_or_else(|e| e.into_inner());
        games.retain(|_, slot| {
            if slot.used.elapsed() < idle || Arc::strong_count(&slot.handle) > 1 {
                return true;
            }
            match slot.handle.try_lock() {
                Ok(live) => live.is_busy(),
                Err(_) => true,
            }
        });
    }
}

//! The server's shared state: the game registry, the store, the games in memory and the test
//! series running.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use ply_arena::DynGame;
use ply_core::AgentSpec;
use ply_core::rng::derive_seed;
use serde_json::{Value, json};

use crate::live::{GameHandle, Live, Registry, lock};
use crate::model::{
    ApiError, ApiResult, DEFAULT_TIME_MS, MAX_DELAY_MS, MAX_TIME_MS, Settings, Side, SideKind, Status, now_ms,
};
use crate::series::SeriesRun;
use crate::store::{Store, StoredGame};

pub struct App {
    pub registry: Arc<Registry>,
    pub store: Arc<Store>,
    games: Mutex<HashMap<i64, GameHandle>>,
    pub(crate) series: Mutex<HashMap<i64, Arc<SeriesRun>>>,
    seeds: AtomicU64,
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
    pub fn open(games: Vec<Box<dyn DynGame>>, data_dir: &Path) -> std::io::Result<App> {
        std::fs::create_dir_all(data_dir)?;
        let store = Store::open(&data_dir.join("ply.sqlite3")).map_err(std::io::Error::other)?;
        store.interrupt_running(now_ms()).map_err(std::io::Error::other)?;
        let clock = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        Ok(App {
            registry: Arc::new(games),
            store: Arc::new(store),
            games: Mutex::new(HashMap::new()),
            series: Mutex::new(HashMap::new()),
            seeds: AtomicU64::new(clock),
        })
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
    /// the start position.
    pub fn describe(&self, index: usize, options: &str) -> ApiResult<Value> {
        let game = &self.registry[index];
        let start = game.new_state(options)?;
        let params = |ps: &[ply_core::ParamInfo]| -> Vec<Value> {
            ps.iter().map(|p| json!({"name": p.name, "default": p.default, "help": p.help})).collect()
        };
        Ok(json!({
            "name": game.name(),
            "about": game.about(),
            "options": params(&game.options()),
            "agents": game.agents().iter().map(|a| json!({
                "name": a.name, "about": a.about, "params": params(&a.params),
            })).collect::<Vec<_>>(),
            "num_players": start.num_players(),
            "start": {"text": start.to_text(), "json": start.to_json()},
        }))
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
                let spec = AgentSpec::parse(text).map_err(|e| context(e.to_string()))?;
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

    pub fn create_game(self: &Arc<Self>, new: NewGame, series: Option<(i64, u32)>) -> ApiResult<GameHandle> {
        let index = self.game_index(&new.game)?;
        let start = self.registry[index].new_state(&new.options)?;
        let players = start.num_players();
        if new.sides.len() != players {
            return Err(ApiError::bad_request(format!(
                "{} with these options has {players} players, but {} sides were given",
                new.game,
                new.sides.len()
            )));
        }
        let sides = new
            .sides
            .iter()
            .enumerate()
            .map(|(seat, s)| self.check_side(index, s, seat))
            .collect::<ApiResult<_>>()?;
        let has_human = new.sides.iter().any(|s| !s.is_ai());
        let delay_ms = new.delay_ms.unwrap_or(if has_human { 700 } else { 500 });
        if delay_ms > MAX_DELAY_MS {
            return Err(ApiError::bad_request(format!("delay_ms must be at most {MAX_DELAY_MS}")));
        }
        let settings = Settings {
            game: new.game,
            options: new.options,
            sides,
            seed: new.seed.unwrap_or_else(|| self.fresh_seed()),
            delay_ms,
        };
        let now = now_ms();
        let id = self.store.insert_game(&settings, series, now)?;
        let stored = StoredGame {
            id,
            settings,
            status: Status::Playing,
            result: None,
            created: now,
            updated: now,
            actions: Vec::new(),
            series,
        };
        let mut live = Live::build(self.registry.clone(), self.store.clone(), index, stored)?;
        live.paused = false;
        let handle = Arc::new(Mutex::new(live));
        self.games.lock().unwrap_or_else(|e| e.into_inner()).insert(id, handle.clone());
        {
            let mut live = lock(&handle);
            live.advance(&handle);
        }
        Ok(handle)
    }

    /// A game in memory, or loaded from the store (and moved on if an AI is to move).
    pub fn game(&self, id: i64) -> ApiResult<GameHandle> {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(handle) = games.get(&id) {
            return Ok(handle.clone());
        }
        let stored = self.store.load_game(id)?.ok_or_else(|| ApiError::not_found(format!("no game {id}")))?;
        let index = self.game_index(&stored.settings.game)?;
        let handle =
            Arc::new(Mutex::new(Live::build(self.registry.clone(), self.store.clone(), index, stored)?));
        games.insert(id, handle.clone());
        drop(games);
        {
            let mut live = lock(&handle);
            live.advance(&handle);
        }
        Ok(handle)
    }

    /// Forgets a finished game (a test series plays many); the store keeps it.
    pub fn evict(&self, id: i64) {
        self.games.lock().unwrap_or_else(|e| e.into_inner()).remove(&id);
    }

    pub fn game_list(
        &self,
        limit: i64,
        offset: i64,
        game: Option<&str>,
        series: Option<i64>,
    ) -> ApiResult<Value> {
        let rows = self.store.list_games(limit, offset, game, series)?;
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

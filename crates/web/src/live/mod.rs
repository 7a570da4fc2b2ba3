//! A game in progress: its position, record and players, and the loop that moves it on — chance
//! events rolled by the server, AI moves computed on the blocking pool — until a human must act
//! or the game ends. Every change is stored first, then broadcast to the game's sockets.
//!
//! Everything here runs on blocking threads (request handlers hand their work to tokio's
//! blocking pool; searches run there), never on the async workers: it locks mutexes and writes
//! SQLite.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use ply_arena::{DynAgent, DynGame, DynState};
use ply_core::rng::{derive_seed, rng_from_seed};
use ply_core::{AgentSpec, Budget, Limits, StopFlag, Turn, TurnBudget};
use serde_json::{Value, json};
use tokio::sync::{broadcast, watch};

use crate::auth::{Tokens, refused};
use crate::model::{
    ActionRecord, ApiError, ApiResult, DEFAULT_TIME_MS, GameResult, Settings, Status, info_json, now_ms,
};
use crate::store::{Store, StoredGame};

mod ponder;
mod think;
mod view;

use ponder::AgentSource;
pub use think::{Running, stop_after};
use view::observe;

pub type Registry = Vec<Box<dyn DynGame>>;
pub type GameHandle = Arc<Mutex<Live>>;

/// The sides' agents draw their seeds from these indices of the game seed's space.
const AGENT_SEED_BASE: u64 = 1 << 40;

/// The worlds re-dealt for an AI's seat, one per ply, in games with hidden information.
const AI_VIEW_SEED_BASE: u64 = 1 << 43;

/// Chance events draw theirs from here on, one index per roll ever made in the game, undone
/// rolls included: the roll after an undo is a fresh draw, so undoing cannot preview a roll.
const CHANCE_STREAM_BASE: u64 = 1 << 42;

/// How often an AI's progress reports reach the sockets, at most.
const INFO_INTERVAL: Duration = Duration::from_millis(150);

pub fn lock(handle: &GameHandle) -> MutexGuard<'_, Live> {
    handle.lock().unwrap_or_else(|e| e.into_inner())
}

pub struct Thinking {
    pub player: usize,
    stop: StopFlag,
    started: i64,
    budget_ms: Option<u64>,
    info: Option<Value>,
}

pub struct Live {
    pub id: i64,
    pub settings: Settings,
    pub status: Status,
    pub result: Option<GameResult>,
    pub created: i64,
    pub updated: i64,
    pub series: Option<(i64, u32)>,
    pub state: Box<dyn DynState>,
    pub actions: Vec<ActionRecord>,
    pub paused: bool,
    pub thinking: Option<Thinking>,
    /// `None` for games of a series and games stored before seats had tokens (open to all).
    tokens: Option<Tokens>,
    /// Chance events drawn so far: the next roll's index in the chance stream.
    rolls: u64,
    /// In a game with hidden information, how each action looked to each viewer: the
    /// spectator first, then every seat.
    observed: Vec<Vec<String>>,
    /// The hints searching this position, stopped when it changes.
    hints: Vec<(u64, StopFlag)>,
    next_hint: u64,
    pub searches: Arc<AtomicUsize>,
    /// Ponders running (`/api/status`), apart from the searches for moves and hints.
    ponders: Arc<AtomicUsize>,
    pondering: Option<ponder::Pondering>,
    /// Grows with every published change, so a client can drop a view older than one it has
    /// (an HTTP reply may arrive after the socket's news of later moves). Starts at the clock,
    /// so views after a restart are newer still.
    version: u64,
    /// Bumped whenever a search in flight becomes pointless (undo, resign, abort, pause): a
    /// search that returns into a newer epoch is dropped.
    epoch: u64,
    agents: Vec<Option<Box<dyn DynAgent>>>,
    /// The budget each seat's spec asks for, noted when its agent is built.
    spec_budgets: Vec<Budget>,
    /// Each seat's budget is per turn, shared out over a turn of several decisions.
    turn_budgets: Vec<TurnBudget>,
    agent_builds: u64,
    game: usize,
    registry: Arc<Registry>,
    store: Arc<Store>,
    tx: broadcast::Sender<Arc<str>>,
    done: watch::Sender<bool>,
}

impl Live {
    /// A new game, or a stored one rebuilt by replaying its actions.
    pub fn build(
        registry: Arc<Registry>,
        store: Arc<Store>,
        searches: Arc<AtomicUsize>,
        ponders: Arc<AtomicUsize>,
        game: usize,
        stored: StoredGame,
    ) -> Result<Live, ApiError> {
        let def = &registry[game];
        let mut state = def.new_state(&stored.settings.options)?;
        let mut observed = Vec::new();
        for record in &stored.actions {
            if state.hidden_information() {
                observed.push(observe(&*state, &record.action));
            }
            state.play(&record.action).map_err(|e| {
                ApiError::internal(format!(
                    "stored game {} does not replay at ply {}: {e}",
                    stored.id, record.ply
                ))
            })?;
        }
        let players = state.num_players();
        // Nobody watches an AI-vs-AI game that comes back from the store: it waits to be resumed.
        let paused = stored.status == Status::Playing && stored.settings.sides.iter().all(|s| s.is_ai());
        let (done, _) = watch::channel(stored.status != Status::Playing);
        Ok(Live {
            id: stored.id,
            settings: stored.settings,
            status: stored.status,
            result: stored.result,
            created: stored.created,
            updated: stored.updated,
            series: stored.series,
            state,
            actions: stored.actions,
            paused,
            thinking: None,
            tokens: stored.tokens,
            rolls: stored.rolls,
            observed,
            hints: Vec::new(),
            next_hint: 0,
            searches,
            ponders,
            pondering: None,
            version: now_ms() as u64,
            epoch: 0,
            agents: (0..players).map(|_| None).collect(),
            spec_budgets: vec![Budget::default(); players],
            turn_budgets: vec![TurnBudget::default(); players],
            agent_builds: 0,
            game,
            registry,
            store,
            tx: broadcast::channel(64).0,
            done,
        })
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Arc<str>> {
        self.tx.subscribe()
    }

    pub fn watch_done(&self) -> watch::Receiver<bool> {
        self.done.subscribe()
    }

    pub fn def(&self) -> &dyn DynGame {
        &*self.registry[self.game]
    }

    /// Whether anything needs this game in memory: a search, a hint, a watcher.
    pub fn is_busy(&self) -> bool {
        self.thinking.is_some() || !self.hints.is_empty() || self.tx.receiver_count() > 0
    }

    /// Checks that `token` is seat `seat`'s. Games without tokens let anyone act.
    pub fn authorize_seat(&self, token: Option<&str>, seat: usize) -> ApiResult<()> {
        match &self.tokens {
            Some(tokens) if token.and_then(|t| tokens.seat_of(t)) != Some(seat) => {
                Err(refused(token, &format!("the token of seat {seat}")))
            }
            _ => Ok(()),
        }
    }

    /// Checks that `token` is the game's owner token (pause, speed, abort). A series' games
    /// answer to the series.
    pub fn authorize_owner(&self, token: Option<&str>) -> ApiResult<()> {
        if let Some((series, _)) = self.series {
            return Err(ApiError::conflict(format!(
                "this game belongs to test series {series}: stop the series instead"
            )));
        }
        match &self.tokens {
            Some(tokens) if !token.is_some_and(|t| tokens.is_owner(t)) => {
                Err(refused(token, "the game's owner token"))
            }
            _ => Ok(()),
        }
    }

    /// The seat a token plays, if the game has tokens and it is one of them.
    pub fn seat_of(&self, token: Option<&str>) -> Option<usize> {
        self.tokens.as_ref().zip(token).and_then(|(tokens, t)| tokens.seat_of(t))
    }

    /// Registers a hint's stop flag: the hint stops when the position changes.
    pub fn start_hint(&mut self, stop: StopFlag) -> u64 {
        self.next_hint += 1;
        self.hints.push((self.next_hint, stop));
        self.next_hint
    }

    pub fn end_hint(&mut self, id: u64) {
        self.hints.retain(|(h, _)| *h != id);
    }

    /// The position changed: hints searching the old one stop.
    fn moved_on(&mut self) {
        for (_, stop) in self.hints.drain(..) {
            stop.stop();
        }
    }

    pub fn publish(&mut self) {
        self.version += 1;
        let message = json!({"type": "state", "game": self.view()}).to_string();
        let _ = self.tx.send(message.into());
    }

    /// Plays a human's move for the seat `token` holds. `player` and `ply`, when given, must
    /// match the game (a click on a stale board is refused rather than played in the wrong
    /// position).
    pub fn human_move(
        &mut self,
        handle: &GameHandle,
        action: &str,
        token: Option<&str>,
        player: Option<usize>,
        ply: Option<usize>,
    ) -> ApiResult<()> {
        if self.status != Status::Playing {
            return Err(ApiError::conflict(format!("game {} is {}", self.id, self.status.as_str())));
        }
        let Turn::Player(to_move) = self.state.turn() else {
            return Err(ApiError::conflict("no player is to move"));
        };
        if self.settings.sides[to_move].is_ai() {
            return Err(ApiError::conflict(format!(
                "it is the AI's turn (player {to_move}); wait for its move"
            )));
        }
        if let Some(p) = player.filter(|&p| p != to_move) {
            return Err(ApiError::conflict(format!("not your turn: player {to_move} is to move, not {p}")));
        }
        if let Some(n) = ply.filter(|&n| n != self.actions.len()) {
            return Err(ApiError::conflict(format!(
                "the game has moved on: it is at ply {}, the move was made at ply {n}",
                self.actions.len()
            )));
        }
        self.authorize_seat(token, to_move)?;
        self.record(action, Some(to_move), "human", None)?;
        self.advance(handle);
        Ok(())
    }

    /// Plays and stores one action; on any error the game is unchanged.
    fn record(
        &mut self,
        action: &str,
        player: Option<usize>,
        by: &str,
        info: Option<Value>,
    ) -> ApiResult<()> {
        let before = self.state.clone_box();
        let canonical = self.state.play(action)?;
        let seen = self.state.hidden_information().then(|| observe(&*before, &canonical));
        let record = ActionRecord {
            ply: self.actions.len(),
            action: canonical,
            player,
            by: by.to_string(),
            ts: now_ms(),
            info,
        };
        if let Err(e) = self.store.append_action(self.id, &record) {
            self.state = before;
            return Err(e.into());
        }
        self.updated = record.ts;
        if by == "chance" {
            self.rolls += 1;
        }
        self.observed.extend(seen);
        self.actions.push(record);
        self.moved_on();
        Ok(())
    }

    /// Moves the game on as far as it goes without a human: rolls chance events, starts the AI
    /// whose turn it is, or records the end.
    pub fn advance(&mut self, handle: &GameHandle) {
        while self.status == Status::Playing {
            match self.state.turn() {
                Turn::Over => {
                    let returns = self.state.returns().unwrap_or_default();
                    self.finish(Status::Over, Some(GameResult::from_returns(returns, "end", None)));
                }
                Turn::Chance => {
                    let mut rng = rng_from_seed(self.seed_at(CHANCE_STREAM_BASE + self.rolls));
                    let outcome = match self.state.sample_chance(&mut rng) {
                        Ok(outcome) => outcome,
                        Err(e) => return self.fail(&format!("chance event: {e}")),
                    };
                    if let Err(e) = self.record(&outcome, None, "chance", None) {
                        return self.fail(&e.message);
                    }
                }
                Turn::Player(p) => {
                    if self.settings.sides[p].is_ai() {
                        if !self.paused && self.thinking.is_none() {
                            self.start_thinking(handle, p);
                        }
                    } else {
                        self.start_pondering(handle, p);
                    }
                    return;
                }
            }
        }
    }

    fn finish(&mut self, status: Status, result: Option<GameResult>) {
        self.stop_thinking();
        self.moved_on();
        self.status = status;
        self.result = result;
        self.updated = now_ms();
        if let Err(e) = self.store.set_status(self.id, status, self.result.as_ref(), self.updated) {
            eprintln!("ply serve: game {}: cannot store its status: {e}", self.id);
        }
        self.done.send_replace(true);
    }

    /// Something that should never happen (an agent's error, a database failure mid-game): the
    /// game stops, and says why in the server log.
    fn fail(&mut self, message: &str) {
        eprintln!("ply serve: game {} aborted: {message}", self.id);
        self.finish(Status::Aborted, None);
    }

    /// The seed at `index` of this game's seed space: the sides' agents from `AGENT_SEED_BASE`,
    /// hints from `hint::HINT_SEED_BASE`, chance events from `CHANCE_STREAM_BASE`.
    pub fn seed_at(&self, index: u64) -> u64 {
        derive_seed(self.settings.seed, index)
    }

    /// Where an undo goes back to: before the last move a human made, taking back everything
    /// after it (the AI's replies, the dice) — but not the chance events before it, so the human
    /// moves again with the same die.
    fn undo_point(&self) -> Result<usize, ApiError> {
        if self.series.is_some() {
            return Err(ApiError::conflict("games of a test series cannot be taken back"));
        }
        match (&self.status, &self.result) {
            (Status::Aborted, _) => return Err(ApiError::conflict("the game was aborted")),
            (_, Some(r)) if r.reason == "resign" => return Err(ApiError::conflict("the game was resigned")),
            _ => {}
        }
        self.actions
            .iter()
            .rposition(|a| a.by == "human")
            .ok_or_else(|| ApiError::conflict("there is no human move to take back"))
    }

    /// Takes back the last human move, for the seat that made it.
    pub fn undo(&mut self, handle: &GameHandle, token: Option<&str>) -> ApiResult<()> {
        let point = self.undo_point()?;
        if let Some(seat) = self.actions[point].player {
            self.authorize_seat(token, seat)?;
        }
        let mut state = self.def().new_state(&self.settings.options)?;
        for record in &self.actions[..point] {
            state.play(&record.action)?;
        }
        let now = now_ms();
        self.store.truncate_actions(self.id, point, now)?;
        if self.status != Status::Playing {
            self.store.set_status(self.id, Status::Playing, None, now)?;
        }
        self.stop_thinking();
        self.moved_on();
        // Agents may keep state about the line that was taken back (a search tree): rebuild.
        self.agents.iter_mut().for_each(|a| *a = None);
        self.actions.truncate(point);
        self.observed.truncate(point);
        self.state = state;
        self.status = Status::Playing;
        self.result = None;
        self.updated = now;
        self.done.send_replace(false);
        self.advance(handle);
        Ok(())
    }

    /// `player` resigns: by default the seat `token` holds, or in a game without tokens the
    /// human to move, else the first human side.
    pub fn resign(&mut self, token: Option<&str>, player: Option<usize>) -> ApiResult<()> {
        self.require_playing()?;
        let player = player.or(self.seat_of(token));
        let sides = &self.settings.sides;
        let humans: Vec<usize> = (0..sides.len()).filter(|&p| !sides[p].is_ai()).collect();
        let to_move = match self.state.turn() {
            Turn::Player(p) => Some(p),
            _ => None,
        };
        let player = match player {
            Some(p) if p >= sides.len() => {
                return Err(ApiError::bad_request(format!("there is no player {p}")));
            }
            Some(p) if sides[p].is_ai() => {
                return Err(ApiError::conflict(format!("player {p} is an AI; only a human side resigns")));
            }
            Some(p) => {
                self.authorize_seat(token, p)?;
                p
            }
            None if self.tokens.is_some() => return Err(refused(token, "the token of a human seat")),
            None => to_move
                .filter(|p| humans.contains(p))
                .or(humans.first().copied())
                .ok_or_else(|| ApiError::conflict("no human plays this game: abort it instead"))?,
        };
        let others = (sides.len() - 1).max(1) as f64;
        let returns = (0..sides.len()).map(|p| if p == player { 0.0 } else { 1.0 / others }).collect();
        self.finish(Status::Over, Some(GameResult::from_returns(returns, "resign", Some(player))));
        Ok(())
    }

    pub fn abort(&mut self, token: Option<&str>) -> ApiResult<()> {
        self.authorize_owner(token)?;
        self.stop_game()
    }

    /// Ends the game without a result: an abort, or a series stopping its current game.
    pub fn stop_game(&mut self) -> ApiResult<()> {
        self.require_playing()?;
        self.finish(Status::Aborted, None);
        Ok(())
    }

    pub fn control(
        &mut self,
        handle: &GameHandle,
        token: Option<&str>,
        paused: Option<bool>,
        delay_ms: Option<u64>,
    ) -> ApiResult<()> {
        // A series game paused would stall the series with nothing on its page saying why.
        self.authorize_owner(token)?;
        self.require_playing()?;
        if let Some(delay) = delay_ms {
            self.settings.delay_ms = delay;
            self.store.update_settings(self.id, &self.settings, now_ms())?;
        }
        match paused {
            Some(true) if !self.paused => {
                self.paused = true;
                self.stop_thinking();
            }
            Some(false) if self.paused => {
                self.paused = false;
                self.advance(handle);
            }
            _ => {}
        }
        Ok(())
    }

    pub fn require_playing(&self) -> ApiResult<()> {
        if self.status != Status::Playing {
            return Err(ApiError::conflict(format!("game {} is {}", self.id, self.status.as_str())));
        }
        Ok(())
    }
}

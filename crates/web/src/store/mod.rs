//! Every game and test series in one SQLite file, written as it happens: a game's row when it is
//! created, one row per action the moment it is played, the status when it changes. A restart
//! rebuilds unfinished games by replaying their actions, so nothing else needs saving.

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, params};
use serde_json::Value;

use crate::model::{ActionRecord, GameResult, Settings, Status};

pub struct Store {
    // One connection behind a mutex: every statement is a few microseconds, far below the cost
    // of a pool, and SQLite serialises writers anyway.
    conn: Mutex<Connection>,
}

/// A game as stored, before its state is rebuilt.
pub struct StoredGame {
    pub id: i64,
    pub settings: Settings,
    pub status: Status,
    pub result: Option<GameResult>,
    pub created: i64,
    pub updated: i64,
    pub actions: Vec<ActionRecord>,
    pub series: Option<(i64, u32)>,
}

/// One line of the game list.
pub struct GameSummary {
    pub id: i64,
    pub settings: Settings,
    pub status: Status,
    pub result: Option<GameResult>,
    pub created: i64,
    pub updated: i64,
    pub plies: i64,
    pub series: Option<i64>,
}

pub struct StoredSeries {
    pub id: i64,
    pub game: String,
    pub options: String,
    pub sides: Value,
    pub total: u32,
    pub status: String,
    pub created: i64,
    pub updated: i64,
}

pub type DbResult<T> = Result<T, rusqlite::Error>;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    settings TEXT NOT NULL,
    seed TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    series_id INTEGER,
    series_index INTEGER,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    action TEXT NOT NULL,
    player INTEGER,
    by TEXT NOT NULL,
    ts INTEGER NOT NULL,
    info TEXT,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE IF NOT EXISTS series (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    sides TEXT NOT NULL,
    total INTEGER NOT NULL,
    status TEXT NOT NULL,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS games_series ON games(series_id);
";

impl Store {
    pub fn open(path: &Path) -> DbResult<Store> {
        let conn = Connection::open(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(SCHEMA)?;
        Ok(Store { conn: Mutex::new(conn) })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn insert_game(&self, settings: &Settings, series: Option<(i64, u32)>, now: i64) -> DbResult<i64> {
        let conn = self.conn();
        conn.execute(
            "INSERT INTO games (game, options, settings, seed, status, series_id, series_index, created, updated)
             VALUES (?1, ?2, ?3, ?4, 'playing', ?5, ?6, ?7, ?7)",
            params![
                settings.game,
                settings.options,
                serde_json::to_string(settings).expect("settings serialise"),
                settings.seed.to_string(),
                series.map(|s| s.0),
                series.map(|s| s.1),
                now
            ],
        )?;
        Ok(conn.last_insert_rowid())
    }

    pub fn update_settings(&self, id: i64, settings: &Settings, now: i64) -> DbResult<()> {
        let json = serde_json::to_string(settings).expect("settings serialise");
        self.conn()
            .execute("UPDATE games SET settings = ?2, updated = ?3 WHERE id = ?1", params![id, json, now])?;
        Ok(())
    }

    pub fn append_action(&self, id: i64, record: &ActionRecord) -> DbResult<()> {
        let conn = self.conn();
        conn.execute(
            "INSERT INTO actions (game_id, ply, action, player, by, ts, info) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                id,
                record.ply as i64,
                record.action,
                record.player.map(|p| p as i64),
                record.by,
                record.ts,
                record.info.as_ref().map(|v| v.to_string())
            ],
        )?;
        conn.execute("UPDATE games SET updated = ?2 WHERE id = ?1", params![id, record.ts])?;
        Ok(())
    }

    /// Removes the actions from `ply` on (an undo).
    pub fn truncate_actions(&self, id: i64, ply: usize, now: i64) -> DbResult<()> {
        let conn = self.conn();
        conn.execute("DELETE FROM actions WHERE game_id = ?1 AND ply >= ?2", params![id, ply as i64])?;
        conn.execute("UPDATE games SET updated = ?2 WHERE id = ?1", params![id, now])?;
        Ok(())
    }

    pub fn set_status(&self, id: i64, status: Status, result: Option<&GameResult>, now: i64) -> DbResult<()> {
        self.conn().execute(
            "UPDATE games SET status = ?2, result = ?3, updated = ?4 WHERE id = ?1",
            params![
                id,
                status.as_str(),
                result.map(|r| serde_json::to_string(r).expect("result serialises")),
                now
            ],
        )?;
        Ok(())
    }

    pub fn load_game(&self, id: i64) -> DbResult<Option<StoredGame>> {
        let conn = self.conn();
        let row = conn
            .query_row(
                "SELECT settings, status, result, created, updated, series_id, series_index FROM games WHERE id = ?1",
                params![id],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, Option<String>>(2)?,
                        r.get::<_, i64>(3)?,
                        r.get::<_, i64>(4)?,
                        r.get::<_, Option<i64>>(5)?,
                        r.get::<_, Option<i64>>(6)?,
                    ))
                },
            )
            .optional()?;
        let Some((settings, status, result, created, updated, series_id, series_index)) = row else {
            return Ok(None);
        };
        let mut stmt = conn.prepare(
            "SELECT ply, action, player, by, ts, info FROM actions WHERE game_id = ?1 ORDER BY ply",
        )?;
        let actions = stmt
            .query_map(params![id], |r| {
                Ok(ActionRecord {
                    ply: r.get::<_, i64>(0)? as usize,
                    action: r.get(1)?,
                    player: r.get::<_, Option<i64>>(2)?.map(|p| p as usize),
                    by: r.get(3)?,
                    ts: r.get(4)?,
                    info: r.get::<_, Option<String>>(5)?.and_then(|s| serde_json::from_str(&s).ok()),
                })
            })?
            .collect::<DbResult<Vec<_>>>()?;
        Ok(Some(StoredGame {
            id,
            settings: parse_json_column(&settings)?,
            status: Status::parse(&status),
            result: result.as_deref().map(parse_json_column).transpose()?,
            created,
            updated,
            actions,
            series: series_id.zip(series_index.map(|i| i as u32)),
        }))
    }

    /// Newest first. `series`: only that series' games, in series order.
    pub fn list_games(
        &self,
        limit: i64,
        offset: i64,
        game: Option<&str>,
        series: Option<i64>,
    ) -> DbResult<Vec<GameSummary>> {
        let conn = self.conn();
        let order = if series.is_some() { "g.series_index ASC" } else { "g.id DESC" };
        let sql = format!(
            "SELECT g.id, g.settings, g.status, g.result, g.created, g.updated, g.series_id,
                    (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id)
             FROM games g
             WHERE (?3 IS NULL OR g.game = ?3) AND (?4 IS NULL OR g.series_id = ?4)
             ORDER BY {order} LIMIT ?1 OFFSET ?2"
        );
        let mut stmt = conn.prepare(&sql)?;
        let rows = stmt.query_map(params![limit, offset, game, series], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, Option<String>>(3)?,
                r.get::<_, i64>(4)?,
                r.get::<_, i64>(5)?,
                r.get::<_, Option<i64>>(6)?,
                r.get::<_, i64>(7)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, settings, status, result, created, updated, series, plies) = row?;
            out.push(GameSummary {
                id,
                settings: parse_json_column(&settings)?,
                status: Status::parse(&status),
                result: result.as_deref().map(parse_json_column).transpose()?,
                created,
                updated,
                plies,
                series,
            });
        }
        Ok(out)
    }

    pub fn insert_series(
        &self,
        game: &str,
        options: &str,
        sides: &Value,
        total: u32,
        now: i64,
    ) -> DbResult<i64> {
        let conn = self.conn();
        conn.execute(
            "INSERT INTO series (game, options, sides, total, status, created, updated)
             VALUES (?1, ?2, ?3, ?4, 'running', ?5, ?5)",
            params![game, options, sides.to_string(), total, now],
        )?;
        Ok(conn.last_insert_rowid())
    }

    pub fn set_series_status(&self, id: i64, status: &str, now: i64) -> DbResult<()> {
        self.conn()
            .execute("UPDATE series SET status = ?2, updated = ?3 WHERE id = ?1", params![id, status, now])?;
        Ok(())
    }

    pub fn load_series(&self, id: Option<i64>) -> DbResult<Vec<StoredSeries>> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT id, game, options, sides, total, status, created, updated FROM series
             WHERE (?1 IS NULL OR id = ?1) ORDER BY id DESC LIMIT 100",
        )?;
        let rows = stmt.query_map(params![id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, i64>(4)?,
                r.get::<_, String>(5)?,
                r.get::<_, i64>(6)?,
                r.get::<_, i64>(7)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, game, options, sides, total, status, created, updated) = row?;
            out.push(StoredSeries {
                id,
                game,
                options,
                sides: parse_json_column(&sides)?,
                total: total as u32,
                status,
                created,
                updated,
            });
        }
        Ok(out)
    }

    /// After a restart nothing runs: series that were running stop, and their unfinished games
    /// (which nobody is watching) are aborted rather than left to wake up one by one.
    pub fn interrupt_running(&self, now: i64) -> DbResult<()> {
        let conn = self.conn();
        conn.execute(
            "UPDATE games SET status = 'aborted', updated = ?1 WHERE status = 'playing' AND series_id IS NOT NULL",
            params![now],
        )?;
        conn.execute(
            "UPDATE series SET status = 'stopped', updated = ?1 WHERE status = 'running'",
            params![now],
        )?;
        Ok(())
    }
}

fn parse_json_column<T: serde::de::DeserializeOwned>(text: &str) -> DbResult<T> {
    serde_json::from_str(text).map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))
}

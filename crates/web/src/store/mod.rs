//! Every game and test series in one SQLite file, written as it happens: a game's row when it is
//! created, one row per action the moment it is played, the status when it changes. A restart
//! rebuilds unfinished games by replaying their actions, so nothing else needs saving. A change
//! of several rows is one transaction; the server calls the store only from blocking threads,
//! never from the async workers.

mod schema;

use std::path::Path;
use std::sync::Mutex;

use rusqlite::types::Value as SqlValue;
use rusqlite::{Connection, OptionalExtension, params};
use serde_json::Value;

use crate::auth::Tokens;
use crate::model::{ActionRecord, GameResult, Settings, Status};

pub use schema::VERSION as SCHEMA_VERSION;

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
    /// `None` for games of a series, and for games stored before seats had tokens.
    pub tokens: Option<Tokens>,
    /// Chance events drawn so far, undone ones included: the position in the chance stream.
    pub rolls: u64,
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
    pub token: Option<String>,
}

/// Which games a list shows; `None` lets everything through.
#[derive(Clone, Debug, Default)]
pub struct GameFilter {
    pub game: Option<String>,
    pub status: Option<Status>,
    pub series: Option<i64>,
}

/// The filter's condition on `games g`, with its values as the named parameters of
/// [`GameFilter::params`].
const FILTER: &str = "(:game IS NULL OR g.game = :game) AND (:series IS NULL OR g.series_id = :series)
    AND (:status IS NULL OR g.status = :status)";

impl GameFilter {
    /// The filter's parameters and `extra` ones, by name.
    fn values(&self, extra: &[(&'static str, i64)]) -> Vec<(&'static str, SqlValue)> {
        let text = |t: Option<&str>| t.map_or(SqlValue::Null, |t| SqlValue::Text(t.to_string()));
        let mut values = vec![
            (":game", text(self.game.as_deref())),
            (":series", self.series.map_or(SqlValue::Null, SqlValue::Integer)),
            (":status", text(self.status.map(Status::as_str))),
        ];
        values.extend(extra.iter().map(|&(name, v)| (name, SqlValue::Integer(v))));
        values
    }
}

/// Named parameters as rusqlite takes them.
fn named<'a>(values: &'a [(&'static str, SqlValue)]) -> Vec<(&'static str, &'a dyn rusqlite::ToSql)> {
    values.iter().map(|(name, value)| (*name, value as &dyn rusqlite::ToSql)).collect()
}

pub type DbResult<T> = Result<T, rusqlite::Error>;

impl Store {
    /// Opens (or creates) the database and brings its schema up to date. The message of an
    /// error says what went wrong, for the caller to put after the path.
    pub fn open(path: &Path) -> Result<Store, String> {
        let mut conn = Connection::open(path).map_err(|e| format!("cannot open it: {e}"))?;
        let setup = |conn: &Connection| -> DbResult<()> {
            conn.pragma_update(None, "journal_mode", "WAL")?;
            conn.pragma_update(None, "synchronous", "NORMAL")?;
            conn.pragma_update(None, "foreign_keys", "ON")?;
            conn.busy_timeout(std::time::Duration::from_secs(5))
        };
        setup(&conn).map_err(|e| format!("cannot use it as a database: {e}"))?;
        schema::migrate(&mut conn)?;
        Ok(Store { conn: Mutex::new(conn) })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn insert_game(
        &self,
        settings: &Settings,
        series: Option<(i64, u32)>,
        tokens: Option<&Tokens>,
        now: i64,
    ) -> DbResult<i64> {
        let conn = self.conn();
        conn.execute(
            "INSERT INTO games (game, options, settings, seed, status, series_id, series_index, created, updated, tokens)
             VALUES (?1, ?2, ?3, ?4, 'playing', ?5, ?6, ?7, ?7, ?8)",
            params![
                settings.game,
                settings.options,
                serde_json::to_string(settings).expect("settings serialise"),
                settings.seed.to_string(),
                series.map(|s| s.0),
                series.map(|s| s.1),
                now,
                tokens.map(|t| serde_json::to_string(t).expect("tokens serialise")),
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

    /// Stores an action; a chance event also moves the game's chance stream on.
    pub fn append_action(&self, id: i64, record: &ActionRecord) -> DbResult<()> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute(
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
        tx.execute(
            "UPDATE games SET updated = ?2, rolls = rolls + ?3 WHERE id = ?1",
            params![id, record.ts, i64::from(record.by == "chance")],
        )?;
        tx.commit()
    }

    /// Removes the actions from `ply` on (an undo).
    pub fn truncate_actions(&self, id: i64, ply: usize, now: i64) -> DbResult<()> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute("DELETE FROM actions WHERE game_id = ?1 AND ply >= ?2", params![id, ply as i64])?;
        tx.execute("UPDATE games SET updated = ?2 WHERE id = ?1", params![id, now])?;
        tx.commit()
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
                "SELECT settings, status, result, created, updated, series_id, series_index, tokens, rolls
                 FROM games WHERE id = ?1",
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
                        r.get::<_, Option<String>>(7)?,
                        r.get::<_, i64>(8)?,
                    ))
                },
            )
            .optional()?;
        let Some((settings, status, result, created, updated, series_id, series_index, tokens, rolls)) = row
        else {
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
            tokens: tokens.as_deref().map(parse_json_column).transpose()?,
            rolls: rolls.max(0) as u64,
        }))
    }

    /// Newest first; a series' games in series order.
    pub fn list_games(&self, limit: i64, offset: i64, filter: &GameFilter) -> DbResult<Vec<GameSummary>> {
        let conn = self.conn();
        let order = if filter.series.is_some() { "g.series_index ASC" } else { "g.id DESC" };
        let sql = format!(
            "SELECT g.id, g.settings, g.status, g.result, g.created, g.updated, g.series_id,
                    (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id)
             FROM games g
             WHERE {FILTER}
             ORDER BY {order} LIMIT :limit OFFSET :offset"
        );
        let mut stmt = conn.prepare(&sql)?;
        let values = filter.values(&[(":limit", limit), (":offset", offset)]);
        let rows = stmt.query_map(&*named(&values), |r| {
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

    /// How many games pass `filter`.
    pub fn count_games(&self, filter: &GameFilter) -> DbResult<i64> {
        let values = filter.values(&[]);
        self.conn().query_row(
            &format!("SELECT COUNT(*) FROM games g WHERE {FILTER}"),
            &*named(&values),
            |r| r.get(0),
        )
    }

    pub fn insert_series(
        &self,
        game: &str,
        options: &str,
        sides: &Value,
        total: u32,
        token: &str,
        now: i64,
    ) -> DbResult<i64> {
        let conn = self.conn();
        conn.execute(
            "INSERT INTO series (game, options, sides, total, status, created, updated, token)
             VALUES (?1, ?2, ?3, ?4, 'running', ?5, ?5, ?6)",
            params![game, options, sides.to_string(), total, now, token],
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
            "SELECT id, game, options, sides, total, status, created, updated, token FROM series
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
                r.get::<_, Option<String>>(8)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, game, options, sides, total, status, created, updated, token) = row?;
            out.push(StoredSeries {
                id,
                game,
                options,
                sides: parse_json_column(&sides)?,
                total: total as u32,
                status,
                created,
                updated,
                token,
            });
        }
        Ok(out)
    }

    /// After a restart nothing runs: series that were running stop, and their unfinished games
    /// (which nobody is watching) are aborted rather than left to wake up one by one.
    pub fn interrupt_running(&self, now: i64) -> DbResult<()> {
        let mut conn = self.conn();
        let conn = conn.transaction()?;
        conn.execute(
            "UPDATE games SET status = 'aborted', updated = ?1 WHERE status = 'playing' AND series_id IS NOT NULL",
            params![now],
        )?;
        conn.execute(
            "UPDATE series SET status = 'stopped', updated = ?1 WHERE status = 'running'",
            params![now],
        )?;
        conn.commit()
    }
}

fn parse_json_column<T: serde::de::DeserializeOwned>(text: &str) -> DbResult<T> {
    serde_json::from_str(text).map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))
}

#[cfg(test)]
mod tests;

//! The database's schema and how an older file is brought up to it. SQLite's `user_version`
//! holds the schema version; each step below runs once, in its own transaction, in order, so a
//! file from any earlier Ply opens, and a file from a later Ply is refused before it is touched.

use rusqlite::{Connection, TransactionBehavior};

/// The schema this build reads and writes.
pub const VERSION: u32 = MIGRATIONS.len() as u32;

/// Step `i` takes a database from version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    // 1: the first schema. Files written before versions were kept have these tables and
    // version 0, hence IF NOT EXISTS.
    "
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
    ",
    // 2: seat tokens (games created before have none, and stay open to every client), the
    // position of each game's chance stream (the rolls made so far, undone ones included), and
    // the token that stops a series.
    "
    ALTER TABLE games ADD COLUMN tokens TEXT;
    ALTER TABLE games ADD COLUMN rolls INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET rolls = (SELECT COUNT(*) FROM actions a WHERE a.game_id = games.id AND a.by = 'chance');
    ALTER TABLE series ADD COLUMN token TEXT;
    CREATE INDEX IF NOT EXISTS games_game ON games(game, id);
    ",
];

/// Brings the database up to [`VERSION`].
pub fn migrate(conn: &mut Connection) -> Result<(), String> {
    let found: u32 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .map_err(|e| format!("cannot read its schema version: {e}"))?;
    if found > VERSION {
        return Err(format!(
            "it has schema version {found}, written by a newer Ply; this one reads up to version {VERSION}"
        ));
    }
    for (step, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        let to = step + 1;
        let failed = |e: rusqlite::Error| format!("cannot upgrade it to schema version {to}: {e}");
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(failed)?;
        tx.execute_batch(sql).map_err(failed)?;
        tx.pragma_update(None, "user_version", to as u32).map_err(failed)?;
        tx.commit().map_err(failed)?;
    }
    Ok(())
}

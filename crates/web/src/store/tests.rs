use rusqlite::Connection;

use super::*;
use crate::model::{Side, SideKind};

fn settings() -> Settings {
    let human = Side { kind: SideKind::Human, agent: None, time_ms: None, name: None };
    Settings {
        game: "connect4".into(),
        options: String::new(),
        sides: vec![human.clone(), human],
        seed: 7,
        delay_ms: 0,
    }
}

fn action(ply: usize, by: &str) -> ActionRecord {
    ActionRecord {
        ply,
        action: "4".into(),
        player: (by != "chance").then_some(0),
        by: by.into(),
        ts: 1,
        info: None,
    }
}

fn version_of(path: &Path) -> u32 {
    Connection::open(path).unwrap().pragma_query_value(None, "user_version", |r| r.get(0)).unwrap()
}

#[test]
fn an_action_and_the_games_update_are_one_transaction() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ply.sqlite3");
    let store = Store::open(&path).unwrap();
    let id = store.insert_game(&settings(), None, None, 0).unwrap();
    // Make the second statement of the pair fail: the first must not stay behind.
    Connection::open(&path)
        .unwrap()
        .execute_batch(
            "CREATE TRIGGER refuse_updates BEFORE UPDATE ON games BEGIN SELECT RAISE(ABORT, 'refused'); END;",
        )
        .unwrap();
    assert!(store.append_action(id, &action(0, "human")).is_err());
    assert!(store.load_game(id).unwrap().unwrap().actions.is_empty(), "the action was rolled back");
}

#[test]
fn foreign_keys_are_enforced() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("ply.sqlite3")).unwrap();
    let err = store.append_action(99, &action(0, "human")).unwrap_err().to_string();
    assert!(err.contains("FOREIGN KEY"), "{err}");
}

#[test]
fn chance_actions_move_the_chance_stream_and_an_undo_does_not_move_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("ply.sqlite3")).unwrap();
    let id = store.insert_game(&settings(), None, None, 0).unwrap();
    store.append_action(id, &action(0, "chance")).unwrap();
    store.append_action(id, &action(1, "human")).unwrap();
    store.append_action(id, &action(2, "chance")).unwrap();
    assert_eq!(store.load_game(id).unwrap().unwrap().rolls, 2);
    store.truncate_actions(id, 1, 5).unwrap();
    let game = store.load_game(id).unwrap().unwrap();
    assert_eq!((game.actions.len(), game.rolls), (1, 2));
}

/// The schema as Ply wrote it before schema versions were kept (version 0).
const FIRST_SCHEMA: &str = "
CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL, options TEXT NOT NULL,
    settings TEXT NOT NULL, seed TEXT NOT NULL, status TEXT NOT NULL, result TEXT, series_id INTEGER,
    series_index INTEGER, created INTEGER NOT NULL, updated INTEGER NOT NULL);
CREATE TABLE actions (game_id INTEGER NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,
    action TEXT NOT NULL, player INTEGER, by TEXT NOT NULL, ts INTEGER NOT NULL, info TEXT,
    PRIMARY KEY (game_id, ply));
CREATE TABLE series (id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL, options TEXT NOT NULL,
    sides TEXT NOT NULL, total INTEGER NOT NULL, status TEXT NOT NULL, created INTEGER NOT NULL,
    updated INTEGER NOT NULL);
CREATE INDEX games_series ON games(series_id);
";

#[test]
fn a_database_from_before_schema_versions_is_upgraded_and_keeps_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ply.sqlite3");
    {
        let old = Connection::open(&path).unwrap();
        old.execute_batch(FIRST_SCHEMA).unwrap();
        let settings = serde_json::to_string(&settings()).unwrap();
        old.execute(
            "INSERT INTO games (game, options, settings, seed, status, created, updated)
             VALUES ('connect4', '', ?1, '7', 'playing', 1, 1)",
            [settings],
        )
        .unwrap();
        old.execute_batch(
            "INSERT INTO actions VALUES (1, 0, '4', 0, 'human', 1, NULL);
             INSERT INTO actions VALUES (1, 1, '3', NULL, 'chance', 1, NULL);",
        )
        .unwrap();
    }
    assert_eq!(version_of(&path), 0);
    let store = Store::open(&path).unwrap();
    assert_eq!(version_of(&path), SCHEMA_VERSION);
    let game = store.load_game(1).unwrap().unwrap();
    assert_eq!(game.actions.len(), 2);
    assert_eq!(game.rolls, 1, "the chance stream starts after the rolls already made");
    assert!(game.tokens.is_none(), "an old game has no tokens");
    drop(store);
    Store::open(&path).expect("opening an up-to-date file again changes nothing");
}

#[test]
fn a_database_from_a_newer_ply_is_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ply.sqlite3");
    Connection::open(&path).unwrap().pragma_update(None, "user_version", SCHEMA_VERSION + 1).unwrap();
    let err = Store::open(&path).err().expect("refused");
    assert!(err.contains("newer Ply") && err.contains(&format!("version {}", SCHEMA_VERSION + 1)), "{err}");
    assert_eq!(version_of(&path), SCHEMA_VERSION + 1);
}

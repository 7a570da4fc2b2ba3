//! `gomoku-train` end to end: games played, tables fitted and read back by the engine's
//! parser, and bad input refused with a message that says what was wrong.

use std::process::Command;

fn train(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gomoku-train")).args(args).output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Six games at 300 nodes from seed 2 on `threads` threads, written to `out`.
fn play_six_games(threads: &str, out: &std::path::Path) -> (bool, String) {
    let out = out.to_str().unwrap();
    train(&["play", "--games", "6", "--nodes", "300", "--seed", "2", "-t", threads, "--out", out])
}

#[test]
fn plays_fits_and_writes_tables_the_engine_reads() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.txt");
    let weights = dir.path().join("weights.txt");
    let (ok, err) = play_six_games("1", &games);
    assert!(ok, "{err}");
    assert!(err.contains("played 6 games"), "{err}");
    let (ok, err) = train(&[
        "fit",
        games.to_str().unwrap(),
        "--epochs",
        "20",
        "--holdout",
        "0.2",
        "--out",
        weights.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&weights).unwrap();
    assert!(text.starts_with("# "), "the command and the fit's figures head the file");
    ply_gomoku::EvalWeights::parse(&text).unwrap();
    // The same seed plays the same games.
    let again = dir.path().join("again.txt");
    play_six_games("2", &again);
    assert_eq!(std::fs::read_to_string(&games).unwrap(), std::fs::read_to_string(&again).unwrap());
}

#[test]
fn labels_positions_and_fits_tables_to_their_values() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.txt");
    let (ok, err) = play_six_games("1", &games);
    assert!(ok, "{err}");
    let label = |threads: &str, out: &std::path::Path| {
        let args =
            ["label", games.to_str().unwrap(), "--per-game", "3", "--walk-nodes", "50", "--nodes", "300"];
        train(&[&args[..], &["-t", threads, "--out", out.to_str().unwrap()]].concat())
    };
    let positions = dir.path().join("positions.txt");
    let (ok, err) = label("1", &positions);
    assert!(ok && err.contains("labelled"), "{err}");
    // The same seed labels the same positions, however many threads do it.
    let again = dir.path().join("again.txt");
    label("2", &again);
    let body = |path: &std::path::Path| {
        let text = std::fs::read_to_string(path).unwrap();
        text.lines().filter(|l| !l.starts_with('#')).map(str::to_string).collect::<Vec<_>>()
    };
    assert!(!body(&positions).is_empty());
    assert_eq!(body(&positions), body(&again));
    let weights = dir.path().join("weights.txt");
    let (ok, err) = train(&[
        "fit",
        "--positions",
        positions.to_str().unwrap(),
        "--scale",
        "150",
        "--epochs",
        "20",
        "--out",
        weights.to_str().unwrap(),
    ]);
    assert!(ok && err.contains("labelled positions"), "{err}");
    ply_gomoku::EvalWeights::parse(&std::fs::read_to_string(&weights).unwrap()).unwrap();
}

#[test]
fn bad_input_gets_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "1-0 h8 h8\n").unwrap();
    let out = dir.path().join("w.txt");
    let out = out.to_str().unwrap();
    let positions = dir.path().join("positions.txt");
    std::fs::write(&positions, "0.25 h8\n2 h8 h9\n").unwrap();
    let positions = positions.to_str().unwrap();
    let good = dir.path().join("good.txt");
    std::fs::write(&good, "0.25 h8 h9 i8 i9 g7\n").unwrap();
    let cases: [(&[&str], &str); 9] = [
        (&["fit", bad.to_str().unwrap(), "--out", out], "line 1: move 2 (h8): the point is taken"),
        (&["fit", "/nonexistent/games.txt", "--out", out], "reading /nonexistent/games.txt"),
        (
            &["fit", bad.to_str().unwrap(), "--holdout", "1.5", "--out", out],
            "--holdout must be at least 0 and below 1",
        ),
        (&["play", "--games", "0", "--out", out], "--games and --nodes must be at least 1"),
        (
            &["fit", "--positions", positions, "--scale", "150", "--out", out],
            "line 2: '2' is not a value from -1 to 1",
        ),
        (&["fit", "--out", out], "give game files, --positions files, or both"),
        (
            &["fit", "--positions", good.to_str().unwrap(), "--out", out],
            "--scale is needed when only positions are given",
        ),
        (&["fit", "--positions", positions, "--scale=-1", "--out", out], "--scale must be a positive number"),
        (
            &["label", bad.to_str().unwrap(), "--nodes", "0", "--out", out],
            "--per-game, --walk-nodes and --nodes must be at least 1",
        ),
    ];
    for (args, expected) in cases {
        let (ok, err) = train(args);
        assert!(!ok && err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

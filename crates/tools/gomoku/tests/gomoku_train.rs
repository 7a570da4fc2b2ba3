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

/// A stand-in for a Gomocup brain: its score is 100 a stone the side to move has more than the
/// opponent (so the colours it is told are checked); at `max_node 7` it reports a forced win
/// and then thinks on for a minute, as a brain deepening a found mate may; at `max_node 9` it
/// refuses the board. Each run of it adds a line to `starts.log` beside it, and it counts the
/// stones from `START` on, so that a brain kept from position to position must be told each
/// afresh.
const FAKE_BRAIN: &str = r#"#!/bin/sh
echo start >> "$(dirname "$0")/starts.log"
own=0; opp=0; nodes=0
while read -r line; do
  case "$line" in
    "START "*) own=0; opp=0 ;;
    "INFO max_node "*) nodes=${line#INFO max_node } ;;
    *,*,1) own=$((own + 1)) ;;
    *,*,2) opp=$((opp + 1)) ;;
    DONE)
      if [ "$nodes" = 7 ]; then echo "MESSAGE Depth 9 | Eval +M5 | Time 1ms"; sleep 60; fi
      if [ "$nodes" = 9 ]; then echo "ERROR bad board"; continue; fi
      echo "MESSAGE Depth 1 | Eval $(( (own - opp) * 100 )) | Node $nodes"
      echo "7,7" ;;
    END) exit 0 ;;
  esac
done
"#;

#[cfg(unix)]
#[test]
fn teach_relabels_positions_with_a_brains_judgement() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let brain = dir.path().join("pbrain-fake");
    std::fs::write(&brain, FAKE_BRAIN).unwrap();
    std::fs::set_permissions(&brain, std::fs::Permissions::from_mode(0o755)).unwrap();
    let positions = dir.path().join("positions.txt");
    // White to move with one stone against two; black to move with two against two.
    std::fs::write(&positions, "# from label\n0.5 h8 h9 i8\n-0.5 h8 h9 i8 i9\n").unwrap();
    let out = dir.path().join("taught.txt");
    let teach = |nodes: &str| {
        let args = ["teach", positions.to_str().unwrap(), "--brain", brain.to_str().unwrap()];
        train(&[&args[..], &["--nodes", nodes, "--timeout", "20", "--out", out.to_str().unwrap()]].concat())
    };
    let teach_kept = |nodes: &str| {
        let args = ["teach", positions.to_str().unwrap(), "--brain", brain.to_str().unwrap(), "--keep-brain"];
        let rest = ["--nodes", nodes, "--timeout", "20", "-t", "1", "--out", out.to_str().unwrap()];
        train(&[&args[..], &rest[..]].concat())
    };
    let starts = || std::fs::read_to_string(dir.path().join("starts.log")).map_or(0, |t| t.lines().count());
    let body = || {
        let text = std::fs::read_to_string(&out).unwrap();
        text.lines().filter(|l| !l.starts_with('#')).map(str::to_string).collect::<Vec<_>>()
    };
    let (ok, err) = teach("100");
    assert!(ok && err.contains("labelled 2 positions"), "{err}");
    // A score of −100 at Rapfi's scale of 200 is tanh(−0.25).
    assert_eq!(body(), ["-0.245 h8 h9 i8", "0.000 h8 h9 i8 i9"]);
    assert_eq!(starts(), 2);
    // One brain for both positions, told each afresh: the same labels.
    let (ok, err) = teach_kept("100");
    assert!(ok && err.contains("labelled 2 positions"), "{err}");
    assert_eq!(body(), ["-0.245 h8 h9 i8", "0.000 h8 h9 i8 i9"]);
    assert_eq!(starts(), 3);
    let (ok, err) = teach("7");
    assert!(ok, "{err}");
    assert_eq!(body(), ["1.000 h8 h9 i8", "1.000 h8 h9 i8 i9"]);
    // A kept brain that thinks on past a forced result is ended rather than waited for.
    let (ok, err) = teach_kept("7");
    assert!(ok, "{err}");
    assert_eq!(body(), ["1.000 h8 h9 i8", "1.000 h8 h9 i8 i9"]);
    assert_eq!(starts(), 7);
    let (ok, err) = teach("9");
    assert!(!ok && err.contains("no position was labelled") && err.contains("ERROR bad board"), "{err}");
    let (ok, err) =
        train(&["teach", positions.to_str().unwrap(), "--brain", "/nonexistent/pbrain", "--out", "x"]);
    assert!(!ok && err.contains("starting /nonexistent/pbrain"), "{err}");
    let (ok, err) = teach("0");
    assert!(!ok && err.contains("--nodes and --timeout must be at least 1"), "{err}");
}

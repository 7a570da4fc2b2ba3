//! The `ply` binary end to end: commands, errors, and the engine protocol under good and bad
//! input.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn ply(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ply")).args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn match_is_reproducible_across_runs_and_threads() {
    let args = ["match", "connect4", "alphabeta", "random", "--games", "20", "--seed", "1", "--json"];
    let (ok, one, err) = ply(&[&args[..], &["--threads", "1"]].concat());
    assert!(ok, "{err}");
    let (_, two, _) = ply(&[&args[..], &["--threads", "2"]].concat());
    let score = |s: &str| serde_json::from_str::<serde_json::Value>(s).unwrap()["result"]["score"].clone();
    assert_eq!(score(&one), score(&two));
    assert_eq!(score(&one)["losses"], 0);
}

#[test]
fn table_output_and_records() {
    let dir = std::env::temp_dir().join(format!("ply-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.jsonl");
    let (ok, out, err) = ply(&[
        "tournament",
        "pig",
        "expectimax:depth=4",
        "mcts",
        "random",
        "-n",
        "4",
        "--iters",
        "300",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("round robin") && out.contains("Elo") && out.contains("expectimax:depth=4 vs mcts"),
        "{out}"
    );
    let lines = std::fs::read_to_string(&file).unwrap();
    assert_eq!(lines.lines().count(), 12);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn bad_arguments_get_clear_errors() {
    let cases: [(&[&str], &str); 8] = [
        (&["match", "chess", "a", "b"], "unknown game 'chess'; Ply has: connect4, pig"),
        (&["match", "connect4", "alphabet", "random"], "valid: alphabeta, mcts, random"),
        (&["match", "connect4", "mcts:c=two", "random"], "parameter c must be"),
        (&["match", "connect4", "mcts", "random", "--games", "0"], "--games must be at least 1"),
        (&["match", "pig", "mcts", "random", "-o", "players=1"], "between 2 and 6"),
        (&["sprt", "connect4", "mcts", "random", "--elo0", "5", "--elo1", "5"], "--elo1 must be greater"),
        (&["sprt", "connect4", "random", "random", "--elo0", "NaN", "--iters", "1"], "must be finite"),
        (&["perft", "connect4", "2", "--position", "xx"], "rows"),
    ];
    for (args, expected) in cases {
        let (ok, _, err) = ply(args);
        assert!(!ok, "{args:?} should fail");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn agents_bench_and_perft() {
    let (ok, out, _) = ply(&["agents", "pig"]);
    assert!(ok && out.contains("expectimax") && out.contains("depth") && out.contains("iters"));
    let (ok, out, _) = ply(&["bench", "pig"]);
    assert!(ok && out.contains("signature:"), "{out}");
    let (ok, again, _) = ply(&["bench", "pig"]);
    let signature = |s: &str| s.lines().find(|l| l.starts_with("signature")).unwrap().to_string();
    assert!(ok && signature(&out) == signature(&again));
    let (ok, out, _) = ply(&["perft", "connect4", "5"]);
    assert!(ok && out.contains("perft 5: 16807"), "{out}");
    // Risk: claiming in turn, 42 × 41 × 40 ways; the deal, one of 2 seats per territory dealt.
    let (ok, out, _) = ply(&["perft", "risk", "3", "-o", "setup=pick"]);
    assert!(ok && out.contains("perft 3: 68880"), "{out}");
    let (ok, out, _) = ply(&["perft", "risk", "4", "-o", "players=2"]);
    assert!(ok && out.contains("perft 4: 16"), "{out}");
}

/// `ply perft tactics` from the start on a fixed map and from an endgame across a turn: the
/// counts the crate's test checks against a naive move generator
/// (crates/games/tactics/tests/moves.rs).
#[test]
fn tactics_perft_from_fixed_positions() {
    let (ok, out, err) = ply(&["perft", "tactics", "3", "-o", "map_seed=1"]);
    assert!(ok, "{err}");
    assert!(
        out.contains("perft 1: 42 ") && out.contains("perft 2: 1453 ") && out.contains("perft 3: 40104 "),
        "{out}"
    );
    let endgame = "tactics size=8 round=7 player=0; map ......../..#...../..#..~~./......../..~.#.../....#.../.##...../........; side0 Fc3:100 Ad2:35 Wx; side1 We6:40 Fe7:100 Ah3:10";
    let (ok, out, err) = ply(&["perft", "tactics", "3", "--position", endgame]);
    assert!(ok, "{err}");
    assert!(
        out.contains("perft 1: 32 ") && out.contains("perft 2: 576 ") && out.contains("perft 3: 26806 "),
        "{out}"
    );
    let (ok, _, err) = ply(&["perft", "tactics", "1", "--position", &endgame.replace("Fc3:100", "Fc3:101")]);
    assert!(!ok && err.contains("101 hit points") && !err.contains("panicked"), "{err}");
}

/// Runs an engine session: sends lines, returns everything it printed.
fn engine(game: &str, lines: &[&str]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["engine", game])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for line in lines {
        writeln!(stdin, "{line}").unwrap();
    }
    drop(stdin);
    let out = BufReader::new(child.stdout.take().unwrap()).lines().map(Result::unwrap).collect();
    assert!(child.wait().unwrap().success());
    out
}

#[test]
fn engine_answers_every_documented_command() {
    let out = engine(
        "connect4",
        &[
            "about",
            "isready",
            "new",
            "position start moves 4 4",
            "legal",
            "play 3",
            "turn",
            "show",
            "agents",
            "agent alphabeta:depth=6",
            "seed 9",
            "go iters 5000",
        ],
    );
    let has = |prefix: &str| out.iter().any(|l| l.starts_with(prefix));
    assert!(has("id name ply") && has("id game connect4") && has("readyok"), "{out:?}");
    assert!(out.contains(&"legal 4 3 5 2 6 1 7".to_string()), "{out:?}");
    assert!(out.contains(&"ok 3".to_string()) && out.contains(&"turn player 1".to_string()));
    assert!(has("position ......./......./......./......./...o.../..xx...") && has("json {"));
    assert!(has("agents alphabeta mcts random"));
    assert!(has("info depth") && has("bestmove "), "{out:?}");
    assert!(!has("error"), "{out:?}");
}

#[test]
fn engine_drives_chance_and_reports_the_end() {
    let out = engine(
        "pig",
        &[
            "new players=2,target=5",
            "play roll",
            "legal",
            "play 6",
            "turn",
            "roll",
            "go",
            "position text 0,0;0;0;roll;0",
            "roll",
            "turn",
        ],
    );
    assert!(out.iter().any(|l| l.starts_with("chance 1=0.166667 2=0.166667")), "{out:?}");
    assert!(out.contains(&"turn over returns 1 0".to_string()), "{out:?}");
    assert!(out.iter().any(|l| l.starts_with("error no chance event is pending")), "{out:?}");
    assert!(out.iter().any(|l| l.starts_with("error the game is over")), "{out:?}");
}

#[test]
fn engine_survives_garbage() {
    let garbage = [
        "",
        "frobnicate",
        "play",
        "play 9",
        "play 4 4 4 4 4 4 4",
        "position",
        "position text zzz",
        "position json {not json",
        "position json {\"rows\": 5}",
        "position start 4 4",
        "go iters -5",
        "go depth 3",
        "go iters",
        "agent",
        "agent nosuch",
        "agent mcts:c=",
        "seed x",
        "new players=3",
        "roll",
        "\u{0}\u{7f}",
        "isready",
    ];
    let out = engine("connect4", &garbage);
    let errors = out.iter().filter(|l| l.starts_with("error ")).count();
    assert_eq!(errors, garbage.len() - 2, "every bad line but the empty one gets one error: {out:?}");
    assert_eq!(out.last().unwrap(), "readyok");
    // The position is unchanged by the rejected lines: a full column was refused as a whole.
    let out = engine("connect4", &["play 4 4 4 4 4 4 4", "show"]);
    assert!(out.iter().any(|l| l == "position ......./......./......./......./......./......."), "{out:?}");
}

#[test]
fn engine_plays_tactics_a_turn_at_a_time() {
    let out = engine(
        "tactics",
        &[
            "new map_seed=1",
            "turn",
            "play a1 b1 a2 b2-b3 c1 a3",
            "turn",
            "play j10-j9",
            "play j10 j10",
            "new",
            "roll",
            "turn",
            "agent max_agro:order=reversed",
            "go",
        ],
    );
    assert!(
        out.contains(&"turn player 0".to_string()) && out.contains(&"turn player 1".to_string()),
        "{out:?}"
    );
    assert!(out.contains(&"ok a1 b1 a2 b2-b3 c1 a3".to_string()), "{out:?}");
    assert!(
        out.iter()
            .any(|l| l.starts_with("error action 1 'j10-j9'") && l.contains("another unit stands there")),
        "{out:?}"
    );
    assert!(
        out.iter().any(|l| l.starts_with("error action 2 'j10'") && l.contains("already acted")),
        "{out:?}"
    );
    assert!(out.iter().any(|l| l.starts_with("bestmove ")), "{out:?}");
    assert!(out.iter().any(|l| l.starts_with("ok deal:")), "{out:?}");
}

/// An engine session driven a line at a time, its output read on a thread of its own so that a
/// wait for a reply can give up instead of hanging the test.
struct Session {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: std::sync::mpsc::Receiver<String>,
}

impl Session {
    fn start(game: &str) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
            .args(["engine", game])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Session { child, stdin, lines }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The lines up to and including the first that is `last`; panics after `limit` without it.
    fn read_until(&self, last: &str, limit: Duration) -> Vec<String> {
        let deadline = Instant::now() + limit;
        let mut read = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line == last || line.starts_with(&format!("{last} ")) => {
                    read.push(line);
                    return read;
                }
                Ok(line) => read.push(line),
                Err(_) => panic!("no '{last}' within {limit:?}; read {read:?}"),
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // The engine started by this session, if a failed assertion left it thinking.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn engine_stop_answers_long_before_the_budget_and_the_session_goes_on() {
    let patience = Duration::from_secs(15);
    let mut engine = Session::start("connect4");
    // Nothing is thinking: `stop` still gets its reply.
    engine.send("stop");
    assert_eq!(engine.read_until("ok", patience), ["ok"]);

    // MCTS never finishes early on its own: only `stop` can end a 20 s search in seconds.
    engine.send("agent mcts");
    engine.read_until("ok", patience);
    engine.send("go time 20000");
    engine.send("isready");
    let thinking = engine.read_until("readyok", patience);
    assert!(!thinking.iter().any(|l| l.starts_with("bestmove")), "still thinking: {thinking:?}");
    std::thread::sleep(Duration::from_millis(300));
    let stopped = Instant::now();
    engine.send("stop");
    let reply = engine.read_until("ok", patience);
    let elapsed = stopped.elapsed();
    assert!(elapsed < Duration::from_secs(5), "stop took {elapsed:?} of the 20 s budget: {reply:?}");
    let bestmoves: Vec<&String> = reply.iter().filter(|l| l.starts_with("bestmove ")).collect();
    assert_eq!(bestmoves.len(), 1, "one bestmove, then ok: {reply:?}");
    assert_eq!(reply.last().unwrap(), "ok");

    // The session goes on: the move is legal, and the next search and stop answer as before.
    let best = bestmoves[0].strip_prefix("bestmove ").unwrap().to_string();
    engine.send(&format!("play {best}"));
    assert_eq!(engine.read_until("ok", patience), [format!("ok {best}")]);
    engine.send("go iters 200");
    let searched = engine.read_until("bestmove", patience);
    assert!(searched.iter().all(|l| l.starts_with("info ") || l.starts_with("bestmove ")), "{searched:?}");
    // The search had already answered: `stop` has nothing to stop and just says ok.
    engine.send("stop");
    assert_eq!(engine.read_until("ok", patience), ["ok"]);
    // Sent together, `go` and `stop` give one bestmove and then the ok, never the other way round.
    engine.send("go iters 1000000000");
    engine.send("stop");
    let reply = engine.read_until("ok", patience);
    assert_eq!(reply.iter().filter(|l| l.starts_with("bestmove ")).count(), 1, "{reply:?}");
    engine.send("quit");
    assert!(engine.child.wait().unwrap().success());
}

#[test]
fn tune_evolves_weights_and_rejects_agents_without_them() {
    let args = [
        "tune",
        "connect4",
        "alphabeta:depth=2",
        "--weights",
        "2",
        "--population",
        "12",
        "--tournaments",
        "2",
        "--tournament-size",
        "4",
        "--selected",
        "2",
        "--children",
        "3",
        "--mutants",
        "1",
        "--generations",
        "2",
        "--iters",
        "2000",
    ];
    let (ok, out, err) = ply(&args);
    assert!(ok, "{err}");
    assert!(
        out.contains("generation 2: 12 games") && out.contains("best: alphabeta:depth=2,weights="),
        "{out}"
    );
    let (again_ok, again, _) = ply(&args);
    assert!(again_ok && again == out, "tuning replays exactly");
    let (ok, _, err) = ply(&["tune", "connect4", "random", "--weights", "2"]);
    assert!(!ok && err.contains("no parameter 'weights'"), "{err}");
    let (ok, _, err) = ply(&["tune", "connect4", "alphabeta", "--weights", "3"]);
    assert!(!ok && err.contains("2 numbers"), "{err}");
}

#[test]
fn tune_resumed_from_its_checkpoint_ends_as_if_never_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("run.json");
    let path = file.to_str().unwrap();
    let run: &[&str] = &[
        "tune",
        "connect4",
        "alphabeta:depth=1",
        "--weights",
        "2",
        "--population",
        "10",
        "--tournaments",
        "2",
        "--tournament-size",
        "4",
        "--selected",
        "2",
        "--children",
        "3",
        "--mutants",
        "2",
        "--iters",
        "500",
        "--seed",
        "5",
    ];
    let (ok, whole, err) = ply(&[run, &["--generations", "3"]].concat());
    assert!(ok, "{err}");
    let (ok, whole_json, _) = ply(&[run, &["--generations", "3", "--json"]].concat());
    assert!(ok);
    // Stopped after the first generation: a run of one generation with a checkpoint.
    let (ok, first, err) = ply(&[run, &["--generations", "1", "--checkpoint", path]].concat());
    assert!(ok, "{err}");
    assert!(whole.starts_with(first.lines().next().unwrap()), "{first}\n{whole}");
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(saved["generations_done"], 1);
    assert_eq!(saved["population"].as_array().unwrap().len(), 10);
    assert_eq!(saved["offspring"].as_array().unwrap().len(), 5, "waiting for generation 2");
    assert!(
        saved["reports"][0]["best_fitness"].is_number() && saved["reports"][0]["mean_fitness"].is_number()
    );
    // Without --resume an existing checkpoint is not written over.
    let (ok, _, err) = ply(&[run, &["--generations", "3", "--checkpoint", path]].concat());
    assert!(!ok && err.contains("--resume"), "{err}");
    // Resumed to three generations: the same lines, the same best weights, in table and JSON.
    let resumed: Vec<&str> = vec!["--generations", "3", "--checkpoint", path, "--resume"];
    let (ok, again, err) = ply(&[run, &resumed].concat());
    assert!(ok, "{err}");
    assert_eq!(again, whole);
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(saved["generations_done"], 3);
    assert_eq!(saved["reports"].as_array().unwrap().len(), 3);
    // Resuming a finished run plays nothing and reports the same (also in JSON).
    let (ok, again_json, err) = ply(&[run, &resumed, &["--json"]].concat());
    assert!(ok, "{err}");
    assert_eq!(again_json, whole_json);
    // Only its own run resumes it.
    for other in [&["--seed", "6"][..], &["--population", "12"], &["--iters", "400"]] {
        let mut args = run.to_vec();
        for pair in other.chunks(2) {
            let at = args.iter().position(|a| *a == pair[0]).unwrap();
            args[at + 1] = pair[1];
        }
        let (ok, _, err) = ply(&[&args[..], &resumed].concat());
        assert!(!ok && err.contains("checkpoint"), "{other:?}: {err}");
    }
    let (ok, _, err) = ply(&[run, &["--resume"]].concat());
    assert!(!ok && err.contains("--checkpoint"), "{err}");
}

#[test]
fn tune_reports_a_failed_game_and_bad_bounds_as_errors() {
    let small = [
        "--population",
        "4",
        "--tournaments",
        "1",
        "--tournament-size",
        "4",
        "--selected",
        "1",
        "--children",
        "1",
        "--mutants",
        "1",
        "--generations",
        "1",
        "--iters",
        "50",
    ];
    // c=0 (the lowest weight) is accepted before the games; mcts refuses c above 100 in them.
    let failing: &[&str] = &["tune", "connect4", "mcts", "--param", "c", "--weights", "1", "--max", "200"];
    let (ok, _, err) = ply(&[failing, &small].concat());
    assert!(!ok && err.contains("tuning game failed") && err.contains("between 0 and 100"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    for bounds in [&["--max", "inf"][..], &["--min", "-1e308", "--max", "1e308"]] {
        let args: &[&str] = &["tune", "connect4", "alphabeta:depth=1", "--weights", "2"];
        let (ok, _, err) = ply(&[args, bounds, &small].concat());
        assert!(!ok && err.contains("finite") && !err.contains("panicked"), "{bounds:?}: {err}");
    }
}

#[test]
fn einstein_engine_drives_dice_and_refuses_bad_input() {
    let out = engine(
        "einstein",
        &[
            "new first=blue",
            "play setup:654321 setup:123456",
            "play 3",
            "legal",
            "play 7",
            "play 4",
            "play 3e",
            "position text r1r2r3../r4r5.../r6...b6/...b5b4/..b3b2b9 red 3",
            "position text r1r2r3../r4r5.../r6...b6/...b5b4/..b3b2b1 red 3 0-0",
            "agent uct:best_of=4",
            "agent uct",
            "go iters 300",
        ],
    );
    let errors: Vec<&String> = out.iter().filter(|l| l.starts_with("error")).collect();
    assert!(out.contains(&"legal 3w 3n 3nw".to_string()), "{out:?}");
    assert_eq!(errors.len(), 5, "{out:?}");
    assert!(errors[0].contains("'7' is not an EinStein action"), "{out:?}");
    assert!(errors[1].contains("4 is not a legal move"), "a die while blue must move: {out:?}");
    assert!(errors[2].contains("3e is not a legal move"), "red's direction for blue: {out:?}");
    assert!(errors[3].contains("'b9' is not a cell"), "{out:?}");
    assert!(errors[4].contains("best_of must be odd"), "{out:?}");
    assert!(out.iter().any(|l| l.starts_with("bestmove ")), "{out:?}");
}

#[test]
fn pbrain_ply_speaks_gomocup() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-ply"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let script = "ABOUT\nSTART 15\nINFO timeout_turn 300\nINFO timeout_match 60000\nINFO time_left 60000\nINFO max_memory 67108864\nINFO rule 1\nBEGIN\nTURN 0,0\nHELLO\nTURN 99,99\nEND\n";
    stdin.write_all(script.as_bytes()).unwrap();
    drop(stdin);
    let out: Vec<String> = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(Result::unwrap)
        .filter(|l| !l.starts_with("MESSAGE"))
        .collect();
    assert!(child.wait().unwrap().success(), "exits on END");
    assert!(out[0].starts_with("name=\"Ply\""), "{out:?}");
    assert_eq!(out[1], "OK");
    let is_move = |l: &str| {
        l.split_once(',').is_some_and(|(x, y)| x.parse::<u32>().is_ok() && y.parse::<u32>().is_ok())
    };
    assert!(is_move(&out[2]) && is_move(&out[3]), "{out:?}");
    assert!(out[4].starts_with("UNKNOWN"), "{out:?}");
    assert!(out[5].starts_with("ERROR") && out[5].contains("off the 15x15 board"), "{out:?}");
}

#[test]
fn a_closed_output_pipe_ends_quietly() {
    // As in `ply games | head -1`: the reader is gone before ply writes.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .arg("games")
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "exit {:?}, stderr: {stderr}", out.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn a_free_for_all_prints_shares_with_intervals_and_replays_at_any_thread_count() {
    let args = [
        "ffa",
        "pig",
        "mcts",
        "expectimax",
        "random",
        "-o",
        "players=3",
        "--games",
        "6",
        "--iters",
        "300",
        "--json",
    ];
    let (ok, one, err) = ply(&[&args[..], &["--threads", "1"]].concat());
    assert!(ok, "{err}");
    let (_, two, _) = ply(&[&args[..], &["--threads", "2"]].concat());
    let standings = |s: &str| serde_json::from_str::<serde_json::Value>(s).unwrap()["standings"].clone();
    assert_eq!(standings(&one), standings(&two));
    assert_eq!(standings(&one).as_array().unwrap().len(), 3);
    let (ok, table, err) =
        ply(&["ffa", "pig", "mcts", "random", "random", "-o", "players=3", "--games", "3", "--iters", "200"]);
    assert!(ok, "{err}");
    assert!(table.contains("fair share 33.3%") && table.contains("score"), "{table}");
    let (ok, _, err) = ply(&["ffa", "pig", "mcts", "random", "-o", "players=3", "--games", "3"]);
    assert!(!ok && err.contains("seats 3 players, but 2 agents"), "{err}");
}

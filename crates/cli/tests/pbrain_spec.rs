//! `pbrain-ply SPEC`: the brain plays an `alphabeta` variant, and a bad spec is refused before
//! any protocol is spoken.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// Runs the brain with `args` on `script`, then END once it has played a move (END read during a
/// search stops it at once). The exit code, the lines it wrote, and its stderr.
fn brain(args: &[&str], script: &str) -> (Option<i32>, Vec<String>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-ply"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // A brain that refused its spec has already exited: the writes may find the pipe closed.
    let _ = stdin.write_all(script.as_bytes()).and_then(|()| stdin.flush());
    let mut out = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        let is_move =
            line.split_once(',').is_some_and(|(x, y)| x.parse::<u32>().is_ok() && y.parse::<u32>().is_ok());
        out.push(line);
        if is_move {
            let _ = stdin.write_all(b"END\n");
            break;
        }
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    (output.status.code(), out, String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn a_spec_sets_the_engine_the_brain_plays() {
    let script = "START 15\nINFO timeout_turn 500\nBOARD\n7,7,1\n8,8,2\nDONE\n";
    let (code, out, err) = brain(&["alphabeta:depth=2,threads=2"], script);
    assert_eq!(code, Some(0), "{err}");
    let report = out.iter().find(|l| l.starts_with("MESSAGE depth")).expect("a search report");
    let words: Vec<&str> = report.split_whitespace().collect();
    let depth: u32 = words[2].parse().unwrap();
    assert!(depth <= 2, "the spec's depth bounds the search: {report}");
    assert!(report.ends_with("threads 2"), "the spec's threads, with no INFO thread_num: {report}");

    // Without a spec: the defaults, one thread.
    let (code, out, _) = brain(&[], script);
    assert_eq!(code, Some(0));
    let report = out.iter().find(|l| l.starts_with("MESSAGE depth")).expect("a search report");
    assert!(report.ends_with("threads 1"), "{report}");
}

#[test]
fn a_bad_spec_is_refused_with_the_reason() {
    for (args, reason) in [
        (&["alphabeta:bogus=1"][..], "bogus"),
        (&["alphabeta:threatext=x"], "threatext"),
        (&["alphabeta:time=100"], "time"),
        (&["mcts"], "alphabeta"),
        (&["alphabeta", "extra"], "usage"),
    ] {
        let (code, out, err) = brain(args, "START 15\n");
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: no protocol is spoken: {out:?}");
        assert!(err.contains(reason), "{args:?}: the error names {reason}: {err}");
    }
}

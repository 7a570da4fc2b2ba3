//! `ply bench`'s signature, pinned: the total iteration count and checksum of every game's fixed
//! searches, as the command prints them. Searches run on iteration budgets, so the numbers are
//! the same on every machine and build; a change in search behaviour (an agent, an evaluation, a
//! game's rules or move order) changes them, and the commit that makes the change updates the
//! numbers below with it, saying why (docs/formats.md, "Bench output").

use std::process::Command;

/// The `signature:` line of `ply bench` (all games) for the code in this commit.
const EXPECTED: &str = "signature: 14892753 iterations, checksum eaedef863026598f";

#[test]
fn the_bench_signature_is_the_one_written_here() {
    let out = Command::new(env!("CARGO_BIN_EXE_ply")).arg("bench").output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "ply bench failed: {}", String::from_utf8_lossy(&out.stderr));
    let signature =
        stdout.lines().find(|l| l.starts_with("signature:")).unwrap_or_else(|| panic!("{stdout}"));
    assert_eq!(
        signature, EXPECTED,
        "search behaviour changed. If that is intended, put the new line in EXPECTED \
         (crates/cli/tests/bench.rs) in the same commit and say in its message what changed; \
         to see which searches differ, compare these lines with the previous commit's:\n{stdout}"
    );
}

/// `--json` gives the same signature as the table.
#[test]
fn the_json_output_carries_the_signature() {
    let out = Command::new(env!("CARGO_BIN_EXE_ply")).args(["bench", "pig", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let table = Command::new(env!("CARGO_BIN_EXE_ply")).args(["bench", "pig"]).output().unwrap();
    let table = String::from_utf8_lossy(&table.stdout).into_owned();
    let line = format!(
        "signature: {} iterations, checksum {}",
        json["signature"],
        json["checksum"].as_str().unwrap()
    );
    assert!(table.contains(&line), "{line} not in\n{table}");
}

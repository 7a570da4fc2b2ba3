//! `alphabeta:weights=FILE`: the engine evaluating with tables read from a file (a fit to be
//! played against the shipped tables), and clear errors for files that are not tables.

use ply_core::{AgentSpec, Budget, Game, GameDef, Limits};
use ply_gomoku::{EvalWeights, Gomoku};

fn build(spec: &str) -> Result<ply_core::BuiltAgent<Gomoku>, ply_core::Error> {
    Gomoku::build_agent(&AgentSpec::parse(spec)?, 0)
}

fn temp_file(name: &str, contents: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("ply-gomoku-{name}-{}", std::process::id()));
    std::fs::write(&path, contents).unwrap();
    path
}

/// The move and the node count of a fixed-depth search, which replays exactly.
fn search(spec: &str) -> (String, u64) {
    let game = Gomoku::new_from_text_options("").unwrap();
    let board = game.parse_state("h10 j6 g9 i5 f8 e7 i9 k7 i11 j12 h4 j9").unwrap();
    let mut agent = build(&format!("{spec},depth=6")).unwrap().agent;
    let decision = agent.choose(&board, &Limits::new(Budget::iterations(50_000_000)), &mut |_| {});
    (board.action_to_text(decision.action), decision.info.iterations)
}

#[test]
fn tables_read_from_a_file_are_the_ones_searched_with() {
    let shipped = temp_file("shipped", include_str!("../src/engine/weights.txt"));
    let hand = temp_file("hand", &EvalWeights::hand(130).to_text("the hand-set scores as tables"));
    let default = search("alphabeta:eval=learned");
    let from_file = search(&format!("alphabeta:weights={}", shipped.display()));
    let hand_in_file = search(&format!("alphabeta:weights={}", hand.display()));
    let hand_built_in = search("alphabeta:eval=hand,attack=130");
    let tables_only: String = include_str!("../src/engine/weights.txt")
        .lines()
        .filter(|l| !l.starts_with("hidden"))
        .map(|l| l.to_string() + "\n")
        .collect();
    let without_layer = temp_file("without-layer", &tables_only);
    let layer_left_out = search(&format!("alphabeta:weights={}", without_layer.display()));
    std::fs::remove_file(&shipped).ok();
    std::fs::remove_file(&hand).ok();
    std::fs::remove_file(&without_layer).ok();
    assert_eq!(from_file, default, "the shipped tables from a file search the same tree");
    assert!(EvalWeights::learned().hidden.is_some(), "the shipped evaluation has a hidden layer");
    assert_ne!(layer_left_out.1, default.1, "the hidden layer is read: without it, another tree");
    assert_eq!(hand_in_file, hand_built_in, "the hand-set tables from a file search as eval=hand");
    assert_ne!(hand_in_file.1, default.1, "other tables give another tree");
}

#[test]
fn files_that_are_not_tables_are_refused_with_the_reason() {
    let missing = build("alphabeta:weights=/no/such/tables").err().unwrap().to_string();
    assert!(missing.contains("cannot read tables '/no/such/tables'"), "{missing}");
    let bad = temp_file("bad", "none,none,none,none 12 x\n");
    let refused = build(&format!("alphabeta:weights={}", bad.display())).err().unwrap().to_string();
    std::fs::remove_file(&bad).ok();
    assert!(refused.contains("line 1"), "{refused}");
    if std::path::Path::new("/dev/zero").exists() {
        let endless = build("alphabeta:weights=/dev/zero").err().unwrap().to_string();
        assert!(endless.contains("larger than"), "{endless}");
    }
}

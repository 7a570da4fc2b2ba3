//! The taught position files kept in `data/`: each says how it was made, and every position in
//! it replays as a legal game with a value a fit can use.

use ply_gomoku_tools::leaves::positions_from_text;

#[test]
fn the_kept_position_files_parse_and_name_their_commands() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(!files.is_empty(), "no position files in {}", dir.display());
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for step in ["# games: ", "# positions: gomoku-train label", "# values: gomoku-train teach"] {
            assert!(text.contains(step), "{} does not say '{step}'", file.display());
        }
        let positions = positions_from_text(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(positions.len() > 1000, "{}: {} positions", file.display(), positions.len());
        assert!(positions.iter().all(|p| (-1.0..=1.0).contains(&p.value)), "{}", file.display());
    }
}

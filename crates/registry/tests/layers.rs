//! The rule of docs/architecture.md that keeps games reusable: a game crate depends on the game
//! model (`ply-core`) and the generic search (`ply-search`) only, never on the arena, the CLI,
//! the web server or another game. Tools that need more live in `crates/tools`.

use std::path::Path;

/// The Ply crates a manifest's `[dependencies]` name (dev-dependencies may use anything).
fn ply_dependencies(manifest: &str) -> Vec<String> {
    let mut section = "";
    let mut found = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
        } else if section == "[dependencies]" && line.starts_with("ply-") {
            let name = line.split(['.', ' ', '=']).next().unwrap_or(line);
            found.push(name.to_string());
        }
    }
    found
}

#[test]
fn game_crates_depend_on_core_and_search_only() {
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("../games");
    let mut checked = 0;
    for entry in std::fs::read_dir(&games).unwrap() {
        let manifest = entry.unwrap().path().join("Cargo.toml");
        let Ok(text) = std::fs::read_to_string(&manifest) else { continue };
        for dependency in ply_dependencies(&text) {
            assert!(
                ["ply-core", "ply-search"].contains(&dependency.as_str()),
                "{} depends on {dependency}: a game crate may use ply-core and ply-search only",
                manifest.display()
            );
        }
        checked += 1;
    }
    assert!(checked >= ply_games::all().len(), "every registered game's crate is under crates/games");
}

#[test]
fn the_manifest_reader_sees_dependencies_and_skips_dev_dependencies() {
    let manifest = "[package]\nname = \"ply-x\"\n[dependencies]\nply-core.workspace = true\n\
                    ply-arena = { path = \"a\" }\nrand.workspace = true\n[dev-dependencies]\nply-web.workspace = true\n";
    assert_eq!(ply_dependencies(manifest), ["ply-core", "ply-arena"]);
}

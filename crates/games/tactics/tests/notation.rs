//! The notation: actions, turns and positions in text and JSON read back exactly; bad text is
//! refused with a reason that names what was wrong.

mod common;

use common::{game, open, pos, text};
use ply_core::testing::check_position;
use ply_core::{Game, Turn};
use ply_tactics::{Dir, Tactics, TacticsAction, parse_cell, parse_turn, turn_text};
use proptest::prelude::*;
use serde_json::json;

#[test]
fn actions_in_text_and_json() {
    let state = game("map_seed=1");
    let cell = |c: &str| parse_cell(c).unwrap();
    let cases = [
        ("b2", TacticsAction::Unit { from: cell("b2"), to: cell("b2"), attack: None }),
        ("b2>n", TacticsAction::Unit { from: cell("b2"), to: cell("b2"), attack: Some(Dir::North) }),
        ("b2-d4", TacticsAction::Unit { from: cell("b2"), to: cell("d4"), attack: None }),
        ("p16-o12>w", TacticsAction::Unit { from: cell("p16"), to: cell("o12"), attack: Some(Dir::West) }),
        ("deal:42", TacticsAction::Deal(42)),
    ];
    for (text, action) in cases {
        assert_eq!(state.parse_action(text), Ok(action), "{text}");
        assert_eq!(state.action_to_text(action), text);
        assert_eq!(state.action_from_json(&state.action_to_json(action)), Ok(action));
        assert_eq!(state.action_from_json(&json!(text)), Ok(action));
    }
    assert_eq!(state.parse_action("b2-b2"), state.parse_action("b2"));
    assert_eq!(
        state.action_to_json(state.parse_action("b2-d4>e").unwrap()),
        json!({"from": "b2", "to": "d4", "attack": "e"})
    );
    assert_eq!(state.action_to_json(TacticsAction::Deal(7)), json!({"deal": 7}));
    assert_eq!(state.action_from_json(&json!({"from": "c3"})), state.parse_action("c3"));
    for (bad, why) in [
        ("", "not a cell"),
        ("b2-", "not a cell"),
        ("b2>x", "not a direction"),
        ("b2>ne", "not a direction"),
        ("b2-d4-e5", "not a cell"),
        ("q1", "not a cell"),
        ("deal:", "a deal is 'deal:N'"),
        ("deal:-1", "a deal is 'deal:N'"),
        ("deal:+1", "a deal is 'deal:N'"),
    ] {
        let err = state.parse_action(bad).unwrap_err().to_string();
        assert!(err.contains(why), "{bad}: {err}");
    }
    for bad in [
        json!({"from": "b2", "attack": "x"}),
        json!({"from": 3}),
        json!({"deal": -1}),
        json!({"from": "b2", "via": "c2"}),
        json!(5),
    ] {
        assert!(state.action_from_json(&bad).is_err(), "{bad}");
    }
}

#[test]
fn turns_in_text() {
    let actions = parse_turn("b2-d4>n, c1 a3-a5").unwrap();
    assert_eq!(turn_text(&actions), "b2-d4>n c1 a3-a5");
    let err = parse_turn("b2 c1-x9").unwrap_err().to_string();
    assert!(err.starts_with("action 2: 'c1-x9'"), "{err}");
}

#[test]
fn positions_read_back() {
    let state = pos(&open(8), "Fa1:100 Ab1:60* Wx", "Fh8:100 Ag8:1", 0);
    let text = state.to_text();
    assert_eq!(
        text,
        "tactics size=8 round=1 player=0; map ......../......../......../......../......../......../......../........; side0 Fa1:100 Ab1:60* Wx; side1 Fh8:100 Ag8:1"
    );
    assert_eq!(state.parse_state(&text.replace("; ", "\n")), Ok(state.clone()));
    let json = state.to_json();
    assert_eq!(json["sides"][0][1], json!({"kind": "A", "cell": "b1", "hp": 60, "acted": true}));
    assert_eq!(json["sides"][0][2], json!({"kind": "W", "cell": null, "hp": 0, "acted": false}));
    assert_eq!(json["phase"], "play");
    assert_eq!(json["values"], json!([170_000.0, 100_000.0 + 70_000.0 * 61.0 / 120.0]));
    assert_eq!(state.state_from_json(&json), Ok(state.clone()));
    check_position(&state, &state).unwrap();
}

#[test]
fn bad_positions_are_refused_with_reasons() {
    let template = game("map_seed=1");
    let good = text(&open(8), "Fa1:100 Ab1:60", "Fh8:100", 0);
    assert!(template.parse_state(&good).is_ok());
    let cases: Vec<(String, &str)> = vec![
        (good.replace("size=8", "size=9"), "size=9 but the map is 8x8"),
        (good.replace("size=8", "size=20"), "not a board side"),
        (good.replace("......../", "......./"), "the map is square"),
        (good.replacen("........", "...?....", 1), "'?' at d8 is not a cell of a map"),
        (good.replacen("......../", "", 1), "8 to 16 rows, this one 7"),
        (good.replace("Fa1:100", "Fa1:101"), "101 hit points; at most 100"),
        (good.replace("Fa1:100", "Fa1:0"), "a living unit"),
        (good.replace("Ab1:60", "Aa1:60"), "two units stand on a1"),
        (good.replace("Ab1:60", "Ai1:60"), "off the board"),
        (good.replace("Fa1:100 Ab1:60", "Fa1:100* Ab1:60*"), "every unit of player 0 has acted"),
        (good.replace("Fh8:100", "Fh8:100*"), "has acted, but it is player 0's turn"),
        (good.replace("Fa1:100 Ab1:60", "Fx Ax"), "player 0 is to move but has no unit left"),
        (good.replace("Fh8:100", "Xh8:100"), "does not start with F, A or W"),
        (good.replace("Fh8:100", "Fh8"), "a unit is KIND CELL:HP"),
        (good.replace("Fh8:100", "Fh8:1e2"), "not a number of hit points"),
        (good.replace("round=1", "round=0"), "round 0 is the deal"),
        (good.replace("round=1", "round=102"), "past the cap"),
        (good.replace("round=1 player=0", "round=101 player=1"), "only marks the end"),
        (good.replace("player=0", "player=2"), "the players are 0 and 1"),
        (good.replace("; side1 Fh8:100", ""), "both sides"),
        (good.replace("side1 Fh8:100", "side0 Fh8:100"), "given twice"),
        (format!("{good}; side2 Fa2:100"), "unexpected section"),
        (good.replace("tactics ", "chess "), "starts with 'tactics'"),
        (good.replace("size=8 ", ""), "lacks 'size='"),
        (good.replace("size=8", "size=8 colour=red"), "not a field of the header"),
        (
            good.replace("Fh8:100", "Fh8:100 Fa2:100 Fb2:100 Fc2:100 Fd2:100 Fe2:100 Ff2:100 Fg2:100"),
            "at most 7",
        ),
        (good.replace("map ........", "map .......#"), "stands on h8, which is a wall"),
        (text(&[".........", "........"], "Fa1:100", "Fh8:100", 0), "8 to 16 rows"),
        (String::new(), "empty"),
    ];
    for (text, why) in cases {
        let err = template.parse_state(&text).map(|s| s.to_text()).unwrap_err().to_string();
        assert!(why.split('|').any(|w| err.contains(w)), "{text}: {err}");
    }
    // Sides that cannot reach each other, and units on water or walls.
    let split =
        ["........", "........", "........", "~~~~~~~~", "........", "........", "........", "........"];
    let err = template.parse_state(&text(&split, "Fa1:100", "Fh8:100", 0)).unwrap_err().to_string();
    assert!(err.contains("bad map: no path between a1 and h8"), "{err}");
    let wet =
        ["........", "........", "........", "........", "........", "........", "........", "~......."];
    let err = template.parse_state(&text(&wet, "Fa1:100", "Fh8:100", 0)).unwrap_err().to_string();
    assert!(err.contains("stands on a1, which is water"), "{err}");
}

#[test]
fn positions_before_the_deal() {
    let dealing = game("");
    assert_eq!(dealing.to_text(), "tactics size=10 round=0 player=0; deal");
    let template = game("size=12");
    assert_eq!(template.parse_state("tactics size=12 round=0 player=0; deal"), Ok(template.clone()));
    for (bad, why) in [
        ("tactics size=10 round=0 player=0; deal", "deal a 12x12 map"),
        ("tactics size=12 round=0 player=1; deal", "before the deal player 0"),
        ("tactics size=12 round=0 player=0", "round 0 is the deal"),
        ("tactics size=12 round=1 player=0; deal", "round 0 is the deal"),
    ] {
        let err = template.parse_state(bad).unwrap_err().to_string();
        assert!(err.contains(why), "{bad}: {err}");
    }
    let fixed = game("map_seed=4");
    let err = fixed.parse_state("tactics size=10 round=0 player=0; deal").unwrap_err().to_string();
    assert!(err.contains("no deal"), "{err}");
    let river = concat!(env!("CARGO_MANIFEST_DIR"), "/maps/river.txt");
    let given = game(&format!("map={river}"));
    assert!(
        given.to_text().starts_with("tactics size=10 round=0 player=0; deal; map ..........")
            && given.is_dealing()
    );
    assert_eq!(given.parse_state(&given.to_text()), Ok(given.clone()));
    assert_eq!(given.state_from_json(&given.to_json()), Ok(given.clone()));
}

#[test]
fn json_phase_must_agree() {
    let state = pos(&open(8), "Fa1:100", "Fh8:100", 0);
    let mut json = state.to_json();
    json["phase"] = json!("over");
    let err = state.state_from_json(&json).unwrap_err().to_string();
    assert!(err.contains("phase"), "{err}");
    json["phase"] = json!("play");
    json["sides"][1][0]["cell"] = json!(null);
    assert!(state.state_from_json(&json).is_err());
}

fn options() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec![8u8, 10, 13, 16]),
        -1i8..=1,
        prop::sample::select(vec!["random", "FAW", "WWAAFF", "F"]),
    )
        .prop_map(|(size, handicap, team)| {
            format!("size={size},handicap={handicap},team={team},max_turns=12")
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Positions of random games on random options read back from text and JSON (the
    /// conformance harness's check), and the line played reads back as a run of actions.
    #[test]
    fn random_positions_and_lines_read_back(options in options(), seed in any::<u64>(), plies in 0usize..120) {
        let start = game(&options);
        let mut state = start.clone();
        let mut rng = ply_core::rng::rng_from_seed(seed);
        let mut line = Vec::new();
        for _ in 0..plies {
            let action = match state.turn() {
                Turn::Over => break,
                Turn::Chance => state.sample_chance(&mut rng),
                Turn::Player(_) => {
                    let actions = state.actions();
                    actions[rand::RngExt::random_range(&mut rng, 0..actions.len())]
                }
            };
            line.push(action);
            state.apply(action);
        }
        check_position(&start, &state).map_err(TestCaseError::fail)?;
        prop_assert_eq!(parse_turn(&turn_text(&line)).ok().filter(|_| !line.is_empty()).unwrap_or_default(), line.clone());
        let mut replay: Tactics = start.clone();
        if !line.is_empty() {
            replay.play_turn(&turn_text(&line), false).map_err(|e| TestCaseError::fail(e.to_string()))?;
        }
        prop_assert_eq!(replay, state);
    }
}

//! Every rule's edge cases, on positions written in the state notation: movement and its
//! blocks, each kind of attack with walls and water, friendly fire, turns, the end and the cap.

mod common;

use common::{action, game, hps, legal, open, play, pos, refused};
use ply_core::{Game, GameDef, Turn};
use ply_tactics::{Kind, Tactics, unit_value};

fn rows(r: &[&str]) -> Vec<String> {
    r.iter().map(|s| s.to_string()).collect()
}

#[test]
fn a_fighter_reaches_41_cells_and_archers_and_sorcerers_25() {
    for (unit, cells) in [("Fe5:100", 41), ("Ae5:60", 25), ("We5:40", 25)] {
        let state = pos(&open(10), unit, "Fj10:100", 0);
        assert_eq!(legal(&state).len(), cells, "{unit}: {:?}", legal(&state));
        let mut reach = Vec::new();
        state.reach(0, &mut reach);
        assert_eq!(reach.len(), cells);
    }
}

#[test]
fn walls_water_and_units_block_movement_friends_included() {
    let map = rows(&[
        "........", "........", "........", "........", "........", ".#......", ".#......", ".#......",
    ]);
    let state = pos(&map, "Fa1:100", "Fh8:100", 0);
    assert_eq!(legal(&state), ["a1", "a1-a2", "a1-a3", "a1-a4", "a1-a5", "a1-b4"]);
    assert!(refused(&state, "a1-b1").contains("b1: it is a wall"), "{}", refused(&state, "a1-b1"));
    let blocked = refused(&state, "a1-c1");
    assert!(blocked.contains("block every way there within 4 steps"), "{blocked}");
    assert!(refused(&state, "a1-f1").contains("it is 5 steps away, and it moves 4"));

    let water = rows(&[
        "........", "........", "........", "........", "........", "~.......", ".~......", "........",
    ]);
    let state = pos(&water, "Aa1:60", "Fh8:100", 0);
    assert!(refused(&state, "a1-a3").contains("a3: it is water"));
    assert_eq!(legal(&state), ["a1", "a1-a2", "a1-b1", "a1-c1", "a1-c2", "a1-d1"]);

    let boxed = pos(&open(8), "Fa1:100 Ab1:60 Aa2:60", "Fh8:100", 0);
    let fighter: Vec<String> = legal(&boxed).into_iter().filter(|a| a.starts_with("a1")).collect();
    assert_eq!(fighter, ["a1"]);
    assert!(refused(&boxed, "a1-b1").contains("another unit stands there"));
    let squeezed = pos(&open(8), "Fa1:100 Aa2:60", "Fb1:100 Fh8:100", 0);
    assert!(refused(&squeezed, "a1-c1").contains("block every way"), "enemies block too");
}

#[test]
fn arrows_fly_over_water_sorcerer_fire_does_not_and_walls_stop_both() {
    let water = rows(&[
        "........", "........", "........", "........", "~.......", "........", "........", "........",
    ]);
    let mut archer = pos(&water, "Aa1:60", "Fa6:100 Fh8:100", 0);
    play(&mut archer, "a1>n");
    assert_eq!(hps(&archer, 1), [75, 100]);
    let sorcerer = pos(&water, "Wa1:40", "Fa6:100 Fh8:100", 0);
    let why = refused(&sorcerer, "a1>n");
    assert!(
        why.contains("would hit no enemy attacking north from a1")
            && why.contains("stopped by walls and water")
    );
    let wall = rows(&[
        "........", "........", "........", "........", "#.......", "........", "........", "........",
    ]);
    for unit in ["Aa1:60", "Wa1:40"] {
        let state = pos(&wall, unit, "Fa6:100 Fh8:100", 0);
        assert!(refused(&state, "a1>n").contains("would hit no enemy"), "{unit}");
    }
}

#[test]
fn ranges_are_1_to_7_for_arrows_1_to_5_for_fire_and_adjacent_for_fighters() {
    let cases = [
        ("Aa1:60", "a8", true),
        ("Aa1:60", "a9", false),
        ("Wa1:40", "a6", true),
        ("Wa1:40", "a7", false),
        ("Fa1:100", "a2", true),
        ("Fa1:100", "a3", false),
    ];
    for (unit, enemy, hits) in cases {
        let state = pos(&open(10), unit, &format!("F{enemy}:100 Fj1:100"), 0);
        let a = action(&state, "a1>n");
        assert_eq!(state.is_legal(a), hits, "{unit} at {enemy}");
    }
}

#[test]
fn an_arrow_hits_the_first_unit_only_and_never_a_friend() {
    let mut state = pos(&open(8), "Aa1:60", "Fa3:100 Fa5:100", 0);
    play(&mut state, "a1>n");
    assert_eq!(hps(&state, 1), [75, 100]);
    let shielded = pos(&open(8), "Aa1:60 Fa3:100", "Fa5:100", 0);
    assert!(refused(&shielded, "a1>n").contains("would hit no enemy"));
}

#[test]
fn sorcerer_fire_hits_every_unit_on_the_line_friends_too() {
    let mut state = pos(&open(8), "Wa1:40 Fa2:100", "Fa4:100 Aa5:60 Wa6:40 Fa7:100", 0);
    play(&mut state, "a1>n");
    assert_eq!(hps(&state, 0), [40, 65]);
    assert_eq!(hps(&state, 1), [65, 25, 5, 100]);
    // Fire that would hit only friends is no attack at all.
    let friends_only = pos(&open(8), "Wa1:40 Fa2:100", "Fh8:100", 0);
    assert!(refused(&friends_only, "a1>n").contains("would hit no enemy"));
}

#[test]
fn a_fighter_kills_a_sorcerer_in_one_hit_and_the_cell_is_free() {
    let mut state = pos(&open(8), "Fa1:100 Ac1:60", "Wa2:40 Fh8:100", 0);
    play(&mut state, "a1>n");
    assert_eq!(hps(&state, 1), [0, 100]);
    assert!(state.to_text().ends_with("side1 Wx Fh8:100"), "{}", state.to_text());
    play(&mut state, "c1-a2");
}

#[test]
fn a_unit_acts_once_a_turn_and_the_turn_passes_when_all_have_acted() {
    let mut state = pos(&open(8), "Fa1:100 Fc1:100", "Fh8:100", 0);
    assert!(!state.continues_turn());
    assert_eq!(state.decisions_left_in_turn(), Some(2));
    play(&mut state, "a1-a2");
    assert!(refused(&state, "a2-a3").contains("the fighter on a2 has already acted this turn"));
    assert!(refused(&state, "h8-h7").contains("player 1's, and player 0 is to move"));
    assert!(refused(&state, "a1").contains("no unit stands on a1"));
    assert!(state.continues_turn());
    assert_eq!(state.decisions_left_in_turn(), Some(1));
    play(&mut state, "c1");
    assert_eq!((state.turn(), state.round()), (Turn::Player(1), 1));
    assert!(!state.continues_turn());
    play(&mut state, "h8-h7");
    assert_eq!((state.turn(), state.round()), (Turn::Player(0), 2));
}

#[test]
fn friendly_fire_can_end_the_turn_by_killing_the_last_unit_to_act() {
    let mut state = pos(&open(8), "Wa1:40 Fa2:10", "Fa3:100 Fh8:100", 0);
    play(&mut state, "a1>n");
    assert_eq!(hps(&state, 0), [40, 0]);
    assert_eq!(hps(&state, 1), [65, 100]);
    assert_eq!(state.turn(), Turn::Player(1));
}

#[test]
fn wiping_out_the_other_side_wins_at_once() {
    let mut state = pos(&open(8), "Fa1:100 Fc1:100", "Wa2:40", 0);
    play(&mut state, "a1>n");
    assert_eq!(state.turn(), Turn::Over);
    assert_eq!(state.returns().as_slice(), [1.0, 0.0]);
    assert!(state.actions().is_empty());
    assert!(refused(&state, "c1").contains("the game is over"));
}

#[test]
fn the_turn_cap_goes_to_the_side_whose_units_are_worth_more() {
    let template = game("map_seed=1,max_turns=1");
    let at_cap = |side0: &str, side1: &str| {
        let text = common::text(&open(8), side0, side1, 1);
        let mut state = template.parse_state(&text).unwrap();
        let last: Vec<String> = state.to_act().map(|s| ply_tactics::cell_name(state.unit(s).cell)).collect();
        state.play_turn(&last.join(" "), true).unwrap();
        assert_eq!(state.turn(), Turn::Over);
        assert_eq!(state.round(), 2);
        state.returns().as_slice().to_vec()
    };
    assert_eq!(at_cap("Fa1:100", "Fh8:50"), [1.0, 0.0]);
    assert_eq!(at_cap("Fa1:50", "Fh8:100"), [0.0, 1.0]);
    assert_eq!(at_cap("Fa1:100", "Fh8:100"), [0.5, 0.5]);
    // The same units in another order and mixed hit points add up exactly: a draw.
    assert_eq!(at_cap("Fa1:50 Ab1:37 Wc1:1", "Wh8:1 Fg8:50 Ah7:37"), [0.5, 0.5]);
    assert_eq!(unit_value(Kind::Fighter, 50), 75_000.0);
}

#[test]
fn whole_turns_are_played_all_or_nothing() {
    let mut state = pos(&open(8), "Fa1:100 Fc1:100 Ae1:60", "Fh8:100", 0);
    let before = state.clone();
    let err = state.play_turn("a1-a2 c1 a2-a3", true).unwrap_err().to_string();
    assert!(err.contains("action 3 'a2-a3'") && err.contains("already acted"), "{err}");
    assert_eq!(state, before);
    let err = state.play_turn("a1-a2 c1", true).unwrap_err().to_string();
    assert!(err.contains("the turn is not over: the units on e1 have not acted"), "{err}");
    assert_eq!(state, before);
    state.play_turn("a1-a2 c1", false).unwrap();
    state.play_turn("e1-e4", true).unwrap();
    assert_eq!(state.turn(), Turn::Player(1));
    assert!(state.play_turn("", true).unwrap_err().to_string().contains("at least one action"));
}

#[test]
fn handicaps_give_player_0_a_fighter_more_or_its_last_unit_less() {
    let even = game("map_seed=3,team=WAFWAF");
    assert_eq!(even.team(0).len(), 6);
    let plus = game("map_seed=3,team=WAFWAF,handicap=1");
    let kinds = |s: &Tactics, side: usize| s.team(side).iter().map(|u| u.kind.letter()).collect::<String>();
    assert_eq!((kinds(&plus, 0).as_str(), kinds(&plus, 1).as_str()), ("WAFWAFF", "WAFWAF"));
    let minus = game("map_seed=3,team=WAFWAF,handicap=-1");
    assert_eq!((kinds(&minus, 0).as_str(), kinds(&minus, 1).as_str()), ("WAFWA", "WAFWAF"));
    assert!(
        plus.to_text().contains("Wa1:40 Ab1:60 Fa2:100 Wb2:40 Ac1:60 Fa3:100 Fc2:100"),
        "{}",
        plus.to_text()
    );
}

#[test]
fn teams_start_mirrored_in_their_corners() {
    for seed in 0..50 {
        let state = game(&format!("map_seed={seed}"));
        let map = state.map();
        assert!(map.is_point_symmetric());
        for (a, b) in state.team(0).iter().zip(state.team(1)) {
            assert_eq!((a.kind, a.hp), (b.kind, b.hp));
            assert_eq!(map.mirror(a.cell), b.cell);
        }
    }
}

#[test]
fn the_deal_is_the_seed_drawn_at_random() {
    let start = game("");
    assert_eq!(start.turn(), Turn::Chance);
    let outcomes = start.outcomes();
    assert_eq!(outcomes.len(), 10_000);
    assert!((outcomes.iter().map(|o| o.1).sum::<f64>() - 1.0).abs() < 1e-9);
    let mut dealt = start.clone();
    dealt.play(action(&start, "deal:77")).unwrap();
    assert_eq!(dealt.to_text(), game("map_seed=77").to_text());
    assert!(refused(&dealt, "deal:5").contains("dealt already"));
    assert!(refused(&start, "deal:10000").contains("from 0 to 9999"));
    assert!(refused(&start, "a1").contains("still to be dealt"));
    assert_eq!(start.parse_state(&start.to_text()).unwrap(), start);
}

#[test]
fn bad_options_are_refused_with_reasons() {
    let cases = [
        ("size=7", "size"),
        ("size=17", "size"),
        ("handicap=2", "handicap"),
        ("team=FFX", "'X' in team"),
        ("team=FFAAWWF", "1 to 6 letters"),
        ("max_turns=0", "max_turns"),
        ("map_seed=-1", "map_seed must be 'random' or a number"),
        ("map=/nonexistent/tactics.map", "cannot be read"),
    ];
    for (options, expected) in cases {
        let err = Tactics::new_from_text_options(options).unwrap_err().to_string();
        assert!(err.contains(expected), "{options}: {err}");
    }
    let river = concat!(env!("CARGO_MANIFEST_DIR"), "/maps/river.txt");
    let err = Tactics::new_from_text_options(&format!("map={river},size=12")).unwrap_err().to_string();
    assert!(err.contains("is 10x10, but size=12"), "{err}");
    assert_eq!(game(&format!("map={river},size=10")).map().size(), 10);
}

#[test]
fn a_map_file_without_a_way_between_the_sides_is_refused() {
    let dir = std::env::temp_dir().join(format!("ply-tactics-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let walled = write(
        "walled.txt",
        &["........", "........", "........", "########", "........", "........", "........", "........"]
            .join("\n"),
    );
    let err = Tactics::new_from_text_options(&format!("map={walled}")).unwrap_err().to_string();
    assert!(err.contains("bad map: no path between the sides"), "{err}");
    let small = write("small.txt", "......\n......\n......\n......\n......\n......\n");
    let err = Tactics::new_from_text_options(&format!("map={small}")).unwrap_err().to_string();
    assert!(err.contains("8 to 16 rows"), "{err}");
    let odd = write("odd.txt", &[&["....?..."][..], &["........"; 7]].concat().join("\n"));
    let err = Tactics::new_from_text_options(&format!("map={odd}")).unwrap_err().to_string();
    assert!(err.contains("'?' at e8 is not a cell of a map"), "{err}");
    let cramped = write(
        "cramped.txt",
        &["~~~~~~~~", "~~~~~~~~", "~~~~~~~~", "~~~~~~~~", "~~~~~~~~", "~~~~~~~~", "~~~~~~..", "~~~~~~~."]
            .join("\n"),
    );
    let err = Tactics::new_from_text_options(&format!("map={cramped}")).unwrap_err().to_string();
    assert!(err.contains("room for 0 units of side 0"), "{err}");
    std::fs::remove_dir_all(dir).ok();
}

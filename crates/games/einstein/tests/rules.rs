//! EinStein rules: every edge case of the standard rules, move counts against an independent
//! move generator, random games checked at every step by the conformance harness, notation and
//! bad input.

use ply_core::rng::rng_from_seed;
use ply_core::testing::Conformance;
use ply_core::{Game, GameDef, Turn, perft, random_playout};
use ply_einstein::{Action, Einstein, Options, Phase, SETUPS, SetupMode, movable_cubes};
use proptest::prelude::*;
use rand::RngExt;

fn game(options: &str) -> Einstein {
    Einstein::new_from_text_options(options).unwrap()
}

fn at(text: &str) -> Einstein {
    game("").parse_state(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves(state: &Einstein) -> Vec<String> {
    let mut m: Vec<String> = state.actions().iter().map(|&a| state.action_to_text(a)).collect();
    m.sort();
    m
}

#[test]
fn setup_by_choice_or_by_chance_then_the_starter_rolls() {
    let mut s = game("setup=choose,first=blue");
    assert_eq!(s.turn(), Turn::Player(1), "the starter arranges first");
    assert_eq!(s.actions().len(), SETUPS as usize);
    s.play_text("setup:654321").unwrap();
    assert_eq!(s.turn(), Turn::Player(0));
    s.play_text("setup:123456").unwrap();
    assert_eq!((s.turn(), s.phase(), s.side()), (Turn::Chance, Phase::Roll, 1));
    assert_eq!(s.cube_at(24), Some((1, 6)), "blue's arrangement starts at its corner");
    assert_eq!(s.cube_at(0), Some((0, 1)));
    assert_eq!(s.cube_at(10), Some((0, 6)));
    let r = game("");
    assert_eq!(r.turn(), Turn::Chance);
    assert_eq!(r.outcomes().len(), 720);
    assert!((r.outcomes().iter().map(|o| o.1).sum::<f64>() - 1.0).abs() < 1e-9);
}

#[test]
fn the_die_picks_the_cube_or_its_nearest_neighbours() {
    let all: Vec<u8> = movable_cubes(0b11_1111, 3).collect();
    assert_eq!(all, vec![3]);
    // Cube 3 gone: the next lower (2) and next higher (4).
    assert_eq!(movable_cubes(0b11_1011, 3).collect::<Vec<_>>(), vec![2, 4]);
    // 2, 3 and 4 gone: 1 and 5.
    assert_eq!(movable_cubes(0b11_0001, 3).collect::<Vec<_>>(), vec![1, 5]);
    // No lower cube: only the higher one, and the other way round.
    assert_eq!(movable_cubes(0b10_0000, 2).collect::<Vec<_>>(), vec![6]);
    assert_eq!(movable_cubes(0b00_0001, 4).collect::<Vec<_>>(), vec![1]);
    // On the board: red has lost cube 3; a 3 lets cubes 2 and 4 move.
    let s = at("r1r2.../r4r5.../r6...b6/...b5b4/..b3b2b1 red 3 0-0");
    assert_eq!(moves(&s), vec!["2e", "2s", "2se", "4e", "4s", "4se"]);
}

#[test]
fn moves_stay_on_the_board_and_point_at_the_goal() {
    // Red cube 5 on the bottom row can only go east; blue cube 2 on the left edge only north.
    let s = at("...../...../..b1../b2..../...r5. red 5 0-0");
    assert_eq!(moves(&s), vec!["5e"]);
    let s = at("...../...../..r1../b2..../...r5. blue 2 0-0");
    assert_eq!(moves(&s), vec!["2n"]);
    let s = at("...../...../..r1../.b2.../...r5. blue 2 0-0");
    assert_eq!(moves(&s), vec!["2n", "2nw", "2w"]);
}

#[test]
fn captures_take_any_cube_including_ones_own() {
    let mut s = at("r1r2.../r3..../...../...b1./....b2 red 1 0-0");
    s.play_text("1e").unwrap();
    assert_eq!(s.cubes_left(0), 2, "red took its own cube 2");
    assert_eq!(s.cube_at(1), Some((0, 1)));
    assert_eq!(s.phase(), Phase::Roll);
    assert_eq!(s.side(), 1);
    let mut s = at("r1..../.b4.../...../...../....b2 red 1 0-0");
    s.play_text("1se").unwrap();
    assert_eq!(s.cubes_left(1), 1);
}

#[test]
fn taking_the_last_cube_or_reaching_the_corner_wins() {
    let mut s = at("r1..../.b4.../...../...../..... red 1 0-0");
    s.play_text("1se").unwrap();
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(s.returns().as_slice(), &[1.0, 0.0]);
    let mut s = at("...../...../...../...r6./b1.... red 6 0-0");
    s.play_text("6se").unwrap();
    assert_eq!(s.returns().as_slice(), &[1.0, 0.0]);
    let mut s = at("...../.b3.../...../...r6./..... blue 3 0-0");
    s.play_text("3nw").unwrap();
    assert_eq!(s.returns().as_slice(), &[0.0, 1.0]);
    assert!(s.play_text("1").is_err());
}

#[test]
fn a_match_continues_with_the_starter_alternating() {
    let mut s = game("match=2,setup=choose");
    assert_eq!(s.side(), 0);
    s.play_text("setup:123456").unwrap();
    s.play_text("setup:123456").unwrap();
    // Play the first game to its end at random.
    let mut rng = rng_from_seed(4);
    while s.score() == [0, 0] {
        match s.turn() {
            Turn::Chance => {
                let a = s.sample_chance(&mut rng);
                s.apply(a)
            }
            Turn::Player(_) => {
                let a = s.actions();
                s.apply(a[rng.random_range(0..a.len())])
            }
            Turn::Over => unreachable!(),
        }
    }
    assert_eq!(s.phase(), Phase::Setup);
    assert_eq!(s.side(), 1, "blue starts the second game");
    assert_eq!(s.starter(), 1);
    assert!(!s.is_over());
    assert_eq!(s.current_game().options().match_to, 1);
    assert_eq!(s.parse_state(&s.to_text()).unwrap(), s);
}

/// An independent move generator: scans the board cell by cell.
fn naive_moves(s: &Einstein, die: u8) -> Vec<(u8, usize)> {
    let side = s.side();
    let mine: Vec<(u8, usize)> =
        (0..25).filter_map(|sq| s.cube_at(sq).filter(|c| c.0 == side).map(|c| (c.1, sq))).collect();
    let chosen: Vec<(u8, usize)> = match mine.iter().find(|c| c.0 == die) {
        Some(&c) => vec![c],
        None => {
            let lower = mine.iter().filter(|c| c.0 < die).max_by_key(|c| c.0).copied();
            let higher = mine.iter().filter(|c| c.0 > die).min_by_key(|c| c.0).copied();
            lower.into_iter().chain(higher).collect()
        }
    };
    let steps: [(i32, i32); 3] =
        if side == 0 { [(0, 1), (1, 0), (1, 1)] } else { [(0, -1), (-1, 0), (-1, -1)] };
    let mut out = Vec::new();
    for (cube, sq) in chosen {
        for (dr, dc) in steps {
            let (r, c) = ((sq / 5) as i32 + dr, (sq % 5) as i32 + dc);
            if (0..5).contains(&r) && (0..5).contains(&c) {
                out.push((cube, (r * 5 + c) as usize));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn move_generation_matches_a_naive_scan_in_random_games() {
    let mut rng = rng_from_seed(11);
    for _ in 0..3000 {
        let mut s = game("");
        while !s.is_over() {
            if let Phase::Move(die) = s.phase() {
                let mut ours: Vec<(u8, usize)> = s
                    .actions()
                    .iter()
                    .map(|&a| {
                        let Action::Move { cube, .. } = a else { panic!() };
                        let mut after = s.clone();
                        after.apply(a);
                        // Where did the cube go? (It may have won and cleared nothing: the
                        // board keeps the final position.)
                        let to = (0..25)
                            .find(|&sq| {
                                after.cube_at(sq) == Some((s.side(), cube))
                                    && s.cube_at(sq) != Some((s.side(), cube))
                            })
                            .unwrap();
                        (cube, to)
                    })
                    .collect();
                ours.sort();
                assert_eq!(ours, naive_moves(&s, die), "{}", s.to_text());
            }
            random_playout(&mut s, &mut rng, 1);
        }
    }
}

#[test]
fn move_counts_from_fixed_positions() {
    // Three plies from a fixed opening position: red's 3 moves, then 6 rolls, then blue's moves.
    let s = at("r1r2r3../r4r5.../r6...b6/...b5b4/..b3b2b1 red 3 0-0");
    assert_eq!(perft(&s, 1), 3);
    assert_eq!(perft(&s, 2), 18);
    let counts: Vec<u64> = (1..=5).map(|d| perft(&s, d)).collect();
    assert_eq!(counts, naive_perft_counts(&s, 5));
}

fn naive_perft_counts(s: &Einstein, depth: u32) -> Vec<u64> {
    fn count(s: &Einstein, depth: u32) -> u64 {
        if depth == 0 || s.is_over() {
            return 1;
        }
        match s.phase() {
            Phase::Roll => (1..=6)
                .map(|d| {
                    let mut c = s.clone();
                    c.apply(Action::Roll(d));
                    count(&c, depth - 1)
                })
                .sum(),
            Phase::Move(die) => naive_moves(s, die)
                .into_iter()
                .map(|(cube, to)| {
                    let mut c = s.clone();
                    let action = *c
                        .actions()
                        .iter()
                        .find(|&&a| {
                            let mut x = s.clone();
                            x.apply(a);
                            matches!(a, Action::Move { cube: k, .. } if k == cube)
                                && x.cube_at(to) == Some((s.side(), cube))
                        })
                        .unwrap();
                    c.apply(action);
                    count(&c, depth - 1)
                })
                .sum(),
            _ => unreachable!(),
        }
    }
    (1..=depth).map(|d| count(s, d)).collect()
}

#[test]
fn random_games_end_and_keep_every_invariant() {
    for match_to in [1, 3] {
        for setup in ["random", "choose"] {
            // Every rule of the model (ply_core::testing), and EinStein's own: the cubes counted
            // on the board are the cubes left, and a match ends when one side has won it.
            let start = game(&format!("setup={setup},match={match_to}"));
            let seed = u64::from(match_to) * 10 + (setup == "choose") as u64;
            Conformance::new(500, seed).max_actions(400 * match_to as usize).run_with(&start, |s| {
                for side in 0..2 {
                    let counted = (0..25).filter(|&sq| s.cube_at(sq).is_some_and(|c| c.0 == side)).count();
                    if counted as u32 != s.cubes_left(side) {
                        return Err(format!(
                            "{counted} cubes of side {side} on the board, {} left",
                            s.cubes_left(side)
                        ));
                    }
                }
                let score = s.score();
                let winner = if score[0] > score[1] { 0 } else { 1 };
                if s.is_over() && (score[winner] != match_to || s.returns().get(winner) != 1.0) {
                    return Err(format!(
                        "over at {score:?} in a match to {match_to}, returns {:?}",
                        s.returns()
                    ));
                }
                Ok(())
            });
        }
    }
}

#[test]
fn bad_input_is_refused_with_reasons() {
    let s = at("r1r2r3../r4r5.../r6...b6/...b5b4/..b3b2b1 red 3 0-0");
    let mut t = s.clone();
    assert!(t.play_text("1e").unwrap_err().to_string().contains("not a legal move"));
    assert!(t.play_text("3w").unwrap_err().to_string().contains("not a legal move"));
    assert!(t.play_text("4").unwrap_err().to_string().contains("not a legal"), "no die while red must move");
    assert_eq!(t, s);
    for bad in ["7", "0", "3x", "3", "setup:12345", "setup:123455", "", "up"] {
        if bad == "3" {
            continue;
        }
        assert!(s.parse_action(bad).is_err(), "{bad}");
    }
    let cases = [
        ("r1r2r3../r4r5.../r6...b6/...b5b4/..b3b2b1 red 7 0-0", "phase"),
        ("r1r2r3../r4r5.../r6...b6/...b5b4/..b3b2b1 green 3", "red or blue"),
        ("r1r2r3../r4r5.../r6...b6/...b5b4 red 3", "5 rows"),
        ("r1r1r3../r4r5.../r6...b6/...b5b4/..b3b2b1 red 3", "twice"),
        ("r1r2r3.../r4r5.../r6...b6/...b5b4/..b3b2b1 red 3", "6 cells"),
        ("r1r2r3../r4r5.../r6...b6/...b5b4/..b3b2x1 red 3", "not a cell"),
        // Found by fuzzing: a cube letter followed by a character of two bytes.
        ("r1r2r3../r4r5.../r6...b6/.r5b6b¡b5/..b3b2b1 red 3", "'b¡' is not a cell"),
        ("r1r2r3../r4r5.../r6..../...../..... red roll", "no cubes"),
        ("b1r2r3../r4r5.../r6...b6/...b5b4/..b3b2r1 red roll", "goal"),
        ("r1r2r3../r4r5.../r6...b6/...b5b4/..b3b2b1 red 3 1-0", "decided"),
        ("r1r2r3../r4r5.../r6...b6/...b5b4/..b3b2b1 red over 0-0", "over"),
        ("r1r2r3../r4r5.../r6...b6/...b5b4/..b3b2b1 red setup", "setup phase"),
        ("r1r2r3../r4r5.../r6...b6/...b5b4/..b3b2b1", "position is"),
    ];
    for (text, reason) in cases {
        let err = s.parse_state(text).unwrap_err().to_string();
        assert!(err.contains(reason), "{text}: {err}");
    }
    assert!(
        Einstein::new_from_text_options("setup=maybe").unwrap_err().to_string().contains("random, choose")
    );
    assert!(Einstein::new_from_text_options("match=0").is_err());
    assert!(s.state_from_json(&serde_json::json!({"board": 1})).is_err());
    assert!(
        s.state_from_json(
            &serde_json::json!({"board": [[null,null,null,null,null]], "side": "red", "phase": "roll"})
        )
        .is_err()
    );
}

proptest! {
    #[test]
    fn any_text_is_parsed_or_refused_without_panic(text in "[rb1-6./ a-z0-9-]{0,80}") {
        let _ = game("").parse_state(&text);
        let _ = game("").parse_action(&text);
    }
}

#[test]
fn options_work() {
    let s = Einstein::new_from_text_options("setup=choose,first=blue,match=3").unwrap();
    assert_eq!(s.options(), Options { setup: SetupMode::Choose, first: 1, match_to: 3 });
}

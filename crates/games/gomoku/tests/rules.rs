//! Gomoku rules: fives under each rule, renju's forbidden points, move counts, notation, random
//! games checked at every step by the conformance harness, and bad input.

use ply_core::rng::rng_from_seed;
use ply_core::testing::Conformance;
use ply_core::{Game, GameDef, Turn, perft};
use ply_gomoku::{BLACK, Board, Gomoku, Rule, WHITE, is_forbidden, winning_line};
use proptest::prelude::*;

fn game(options: &str) -> Gomoku {
    Gomoku::new_from_text_options(options).unwrap()
}

fn play(options: &str, moves: &str) -> Gomoku {
    game(options).parse_state(moves).unwrap_or_else(|e| panic!("{moves}: {e}"))
}

#[test]
fn five_wins_and_overlines_depend_on_the_rule() {
    // Black: a8 b8 c8 d8 . f8 with white elsewhere; black e8 makes six.
    let six = "a8 a1 b8 c1 c8 e1 d8 g1 f8 i1";
    for (rule, winner) in [("freestyle", Some(BLACK)), ("standard", None)] {
        let mut b = play(&format!("rule={rule}"), six);
        b.play_text("e8").unwrap();
        assert_eq!(b.winner(), winner, "{rule}");
        if winner.is_none() {
            assert_eq!(b.turn(), Turn::Player(1), "an overline does not end a standard game");
        }
    }
    // Renju: black may not play e8 at all; white's overline wins.
    let b = play("rule=renju", six);
    assert!(is_forbidden(&b, b.parse_action("e8").unwrap()));
    assert!(b.clone().play_text("e8").unwrap_err().to_string().contains("not a legal move"));
    let mut w = play("rule=renju", "o15 a8 n15 b8 o13 c8 n13 d8 o11 f8 n11");
    w.play_text("e8").unwrap();
    assert_eq!(w.winner(), Some(WHITE));
    // Exactly five wins everywhere, with the winning line reported.
    let mut b = play("", "h8 a1 h9 a2 h10 a3 h11 a4");
    b.play_text("h12").unwrap();
    assert_eq!(b.returns().as_slice(), &[1.0, 0.0]);
    let line: Vec<String> = winning_line(&b).iter().map(|&p| b.action_to_text(p)).collect();
    assert_eq!(line, ["h8", "h9", "h10", "h11", "h12"]);
    assert!(b.actions().is_empty());
}

#[test]
fn renju_forbidden_points_are_not_legal_for_black_only() {
    // Double three at j8 for black (g8 h8 . j8 and j8 j9 j10).
    let b = play("rule=renju", "g8 a1 h8 a3 j10 a5 j9 a7");
    let j8 = b.parse_action("j8").unwrap();
    assert!(!b.actions().contains(&j8));
    assert_eq!(b.actions().len(), 225 - 8 - 1);
    let json = b.to_json();
    assert_eq!(json["forbidden"], serde_json::json!(["j8"]));
    // The same shape for white is fine: white to move, white has the stones.
    let w = play("rule=renju", "a1 g8 a3 h8 a5 j10 a7 j9 c1");
    assert!(w.actions().contains(&w.parse_action("j8").unwrap()));
    // Freestyle has no forbidden points.
    let f = play("", "g8 a1 h8 a3 j10 a5 j9 a7");
    assert!(f.actions().contains(&j8));
}

/// 5×5 renju, black to move: each empty point (d2, a5, d5) would make two fours.
const ONLY_FORBIDDEN: &str = "e5 b1 b5 a1 a4 b2 d4 a2 b4 c4 c5 e3 d1 e2 c3 c2 d3 e4 c1 a3 e1 b3";

#[test]
fn renju_black_with_only_forbidden_points_has_lost() {
    let b = play("size=5,rule=renju", ONLY_FORBIDDEN);
    assert!(b.points().all(|p| b.at(p) != 0 || is_forbidden(&b, p)));
    assert_eq!(b.turn(), Turn::Over);
    assert!(b.actions().is_empty());
    assert_eq!(b.winner(), Some(WHITE));
    assert_eq!(b.returns().as_slice(), &[0.0, 1.0]);
    assert_eq!(b.to_json()["winner"], "white");
    assert!(b.clone().play_text("d2").is_err());
    // The same stones as a diagram, and with white's last stone taken back.
    let diagram = b.state_from_json(&serde_json::json!({"rows": b.to_json()["rows"]})).unwrap();
    assert_eq!(diagram.winner(), Some(WHITE));
    let mut before = b.clone();
    before.undo(*b.moves().last().unwrap());
    assert!(!before.is_over() && before.winner().is_none());
    // Without renju black plays on.
    assert_eq!(play("size=5", ONLY_FORBIDDEN).turn(), Turn::Player(0));
}

#[test]
fn the_engine_asked_about_a_finished_game_answers_without_panicking() {
    use ply_core::{Agent, Budget, Limits};
    let b = play("size=5,rule=renju", ONLY_FORBIDDEN);
    let mut engine =
        ply_gomoku::EnginePlayer::new(ply_gomoku::EngineConfig { tt_bits: 10, ..Default::default() });
    let decision = engine.choose(&b, &Limits::new(Budget::iterations(1000)), &mut |_| {});
    assert!(!b.is_legal(decision.action), "nothing is legal once the game is over");
}

#[test]
fn move_counts() {
    let b = game("");
    assert_eq!(perft(&b, 1), 225);
    assert_eq!(perft(&b, 2), 225 * 224);
    let small = game("size=5");
    assert_eq!(perft(&small, 3), 25 * 24 * 23);
    // Black has four on the top row of a 5x5 board and white is to move (18 moves): unless white
    // takes e1, black's reply e1 ends the game, a leaf of its own.
    let near_end = play("size=5", "a1 a2 b1 b2 c1 c2 d1");
    assert_eq!(perft(&near_end, 2), 18 * 17);
    assert_eq!(perft(&near_end, 3), 17 * (1 + 16 * 16) + 17 * 16);
}

#[test]
fn notation_in_both_forms() {
    let b = game("size=19");
    let a = b.parse_state("h8 i9 7,9").unwrap();
    assert_eq!(a.to_text(), "h8 i9 h10");
    assert_eq!(b.parse_action("s19").unwrap(), b.parse_action("18,18").unwrap());
    assert_eq!(a.action_to_json(b.parse_action("h8").unwrap()), serde_json::json!({"x": 7, "y": 7}));
    assert_eq!(
        a.action_from_json(&serde_json::json!({"x": 7, "y": 9})).unwrap(),
        b.parse_action("h10").unwrap()
    );
    assert_eq!(a.state_from_json(&a.to_json()).unwrap(), a);
    let rows_only = serde_json::json!({"rows": a.to_json()["rows"]});
    assert_eq!(a.state_from_json(&rows_only).unwrap(), a);
}

#[test]
fn a_diagram_is_read_with_an_order_of_play_that_replays() {
    let rows = |rows: &[&str]| serde_json::json!({ "rows": rows });
    // Found by fuzzing: black's five is on the diagonal c2-g6; put down in row order, black's
    // stones made five before the last one, and the printed moves did not read back.
    let b = game("size=7");
    let won = ["xooxoox", "ooxoxxx", "oxxxo.o", "x..xxxx", ".oooxxx", "xooooxx", "oxooxoo"];
    let diagram = b.state_from_json(&rows(&won)).unwrap();
    assert_eq!(diagram.winner(), Some(BLACK));
    assert_eq!(b.parse_state(&diagram.to_text()).unwrap(), diagram);
    // Standard: six in a row wins nothing, but five on the way to it would have.
    let b = game("size=9,rule=standard");
    let six = ["xxxxxx...", ".........", "o.o.o.o..", ".........", "o.o......"];
    let six: Vec<&str> = six.iter().copied().chain(std::iter::repeat_n(".........", 4)).collect();
    let diagram = b.state_from_json(&rows(&six)).unwrap();
    assert_eq!((diagram.winner(), diagram.turn()), (None, Turn::Player(0)));
    assert_eq!(b.parse_state(&diagram.to_text()).unwrap(), diagram);
    // Two fives of black: the game would have ended at the first.
    let b = game("size=9");
    let two = ["xxxxx....", ".........", "xxxxx....", ".........", "o.o.o.o.o", "o.o.o....", "o........"];
    let two: Vec<&str> = two.iter().copied().chain(std::iter::repeat_n(".........", 2)).collect();
    let err = b.state_from_json(&rows(&two)).unwrap_err().to_string();
    assert!(err.contains("order of play"), "{err}");
}

#[test]
fn random_openings_go_on_when_the_centre_is_full() {
    // `ply match gomoku ... --openings 100` hung: opening stones were drawn from the 7x7 centre
    // until one was free, and a game can fill it without a five. This fill has no line longer
    // than two in any direction.
    let colour = |x: usize, y: usize| if (x + 2 * y) % 4 < 2 { 'x' } else { 'o' };
    let mut rows: Vec<String> = (0..15)
        .map(|y| {
            (0..15)
                .map(|x| if (4..=10).contains(&x) && (4..=10).contains(&y) { colour(x, y) } else { '.' })
                .collect()
        })
        .collect();
    let count = |c: char| rows.iter().map(|r| r.matches(c).count()).sum::<usize>();
    if count('o') > count('x') {
        rows = rows.iter().map(|r| r.replace('x', "t").replace('o', "x").replace('t', "o")).collect();
    }
    let b = game("").state_from_json(&serde_json::json!({ "rows": rows })).unwrap();
    assert!(!b.is_over() && b.moves().len() == 49);
    let mut rng = rng_from_seed(5);
    for _ in 0..20 {
        assert!(b.is_legal(b.opening_action(&mut rng)));
    }
}

#[test]
fn bad_input_is_refused_with_reasons() {
    let b = game("");
    let cases = [
        ("p1", "off the 15x15 board"),
        ("15,3", "off the 15x15 board"),
        ("h0", "not a point"),
        ("8h", "not a point"),
        ("x,y", "whole numbers"),
        ("", "not a point"),
    ];
    for (text, reason) in cases {
        let err = b.parse_action(text).unwrap_err().to_string();
        assert!(err.contains(reason), "{text}: {err}");
    }
    assert!(b.parse_state("h8 h8").unwrap_err().to_string().contains("taken"));
    assert!(
        b.parse_state("h8 a1 h9 a2 h10 a3 h11 a4 h12 a5").unwrap_err().to_string().contains("already over")
    );
    assert!(b.parse_state("h8 zz").unwrap_err().to_string().contains("move 2"));
    for (options, reason) in [
        ("size=4", "between 5 and 22"),
        ("size=23", "between 5 and 22"),
        ("rule=caro", "freestyle, standard, renju"),
    ] {
        let err = Gomoku::new_from_text_options(options).unwrap_err().to_string();
        assert!(err.contains(reason), "{options}: {err}");
    }
    let mut c = b.parse_state("h8").unwrap();
    assert!(c.play_text("h8").is_err());
    assert_eq!(c.to_text(), "h8");
    let bad = serde_json::json!({"rows": ["xx"]});
    assert!(b.state_from_json(&bad).unwrap_err().to_string().contains("rows"));
    let impossible =
        serde_json::json!({"rows": std::iter::repeat_n("o..............", 15).collect::<Vec<_>>()});
    assert!(b.state_from_json(&impossible).unwrap_err().to_string().contains("black must have"));
}

#[test]
fn random_games_keep_every_invariant() {
    for (options, games, perft_depth) in
        [("size=7", 300, 2), ("size=9,rule=standard", 200, 2), ("size=9,rule=renju", 100, 2), ("", 30, 1)]
    {
        // Every rule of the model (ply_core::testing), and Gomoku's own: a game without a winner
        // ends on a full board.
        let start = game(options);
        let conformance =
            Conformance::new(games, 2).max_actions(start.size() * start.size()).perft_depth(perft_depth);
        conformance.run_with(&start, |b| {
            let drawn_early = b.is_over() && b.winner().is_none() && !b.is_full();
            if drawn_early { Err("over without a winner on a board with room".into()) } else { Ok(()) }
        });
    }
}

proptest! {
    #[test]
    fn any_text_is_parsed_or_refused_without_panic(text in "[a-z0-9, ;]{0,40}") {
        let b = game("");
        let _ = b.parse_action(&text);
        let _ = b.parse_state(&text);
    }
}

#[test]
fn boards_of_every_size() {
    for size in 5..=22 {
        let b = Board::new(size, Rule::Freestyle);
        assert_eq!(b.actions().len(), size * size);
        let corner = b.point(size - 1, size - 1).unwrap();
        assert_eq!(b.parse_action(&b.action_to_text(corner)).unwrap(), corner);
    }
}

//! Connect Four rules: move counts against an independent naive implementation, edge cases, and
//! random games checked at every step by the conformance harness.

use ply_connect4::{Connect4, HEIGHT, WIDTH};
use ply_core::testing::Conformance;
use ply_core::{Game, GameDef, Turn, perft};
use proptest::prelude::*;

/// A deliberately simple board: a grid of cells and a four-in-a-row scan.
#[derive(Clone)]
struct Naive {
    cells: [[Option<u8>; HEIGHT]; WIDTH],
    to_move: u8,
    over: bool,
}

impl Naive {
    fn new() -> Self {
        Naive { cells: [[None; HEIGHT]; WIDTH], to_move: 0, over: false }
    }
    fn moves(&self) -> Vec<usize> {
        if self.over {
            return vec![];
        }
        (0..WIDTH).filter(|&c| self.cells[c][HEIGHT - 1].is_none()).collect()
    }
    fn play(&mut self, col: usize) {
        let row = (0..HEIGHT).find(|&r| self.cells[col][r].is_none()).unwrap();
        self.cells[col][row] = Some(self.to_move);
        let me = Some(self.to_move);
        let at = |c: i32, r: i32| {
            (0..WIDTH as i32).contains(&c)
                && (0..HEIGHT as i32).contains(&r)
                && self.cells[c as usize][r as usize] == me
        };
        for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let run = |sign: i32| {
                (1..4).take_while(|k| at(col as i32 + sign * k * dc, row as i32 + sign * k * dr)).count()
            };
            if 1 + run(1) + run(-1) >= 4 {
                self.over = true;
            }
        }
        if self.moves().is_empty() {
            self.over = true;
        }
        self.to_move = 1 - self.to_move;
    }
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 || self.over {
            return 1;
        }
        self.moves()
            .into_iter()
            .map(|c| {
                let mut child = self.clone();
                child.play(c);
                child.perft(depth - 1)
            })
            .sum()
    }
}

#[test]
fn move_counts_match_a_naive_implementation() {
    let expected = [7, 49, 343, 2401, 16807, 117649, 823536, 5686266];
    for (depth, &count) in (1..=8).zip(&expected) {
        assert_eq!(perft(&Connect4::new(), depth), count, "depth {depth}");
    }
    assert_eq!(Naive::new().perft(8), expected[7]);
    // From a midgame position, where wins cut lines short.
    let mid = "......./......./...o.../..xx.../..ox.../..xoxo.";
    let state = Connect4::new().parse_state(mid).unwrap();
    let mut naive = Naive::new();
    for (col, row, p) in (0..WIDTH)
        .flat_map(|c| (0..HEIGHT).map(move |r| (c, r)))
        .filter_map(|(c, r)| state.stone_at(c, r).map(|p| (c, r, p as u8)))
    {
        naive.cells[col][row] = Some(p);
    }
    naive.to_move = state.side_to_move() as u8;
    for depth in 1..=6 {
        assert_eq!(perft(&state, depth), naive.perft(depth), "midgame depth {depth}");
    }
}

#[test]
fn vertical_horizontal_and_diagonal_wins() {
    let play = |moves: &str| {
        let mut s = Connect4::new();
        for m in moves.chars() {
            s.play_text(&m.to_string()).unwrap();
        }
        s
    };
    assert_eq!(play("1212121").winner(), Some(0)); // vertical
    assert_eq!(play("1122334").winner(), Some(0)); // horizontal
    assert_eq!(play("1223").winner(), None);
    let diagonal = Connect4::new().parse_state("......./......./...x.../..xo.../.xoo.../xooxx..").unwrap();
    assert_eq!(diagonal.winner(), Some(0));
    let anti = Connect4::new().parse_state("......./......./...x.../...ox../...oox./..xxoox").unwrap();
    assert_eq!(anti.winner(), Some(0));
    let s = play("1122334");
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(s.returns().as_slice(), &[1.0, 0.0]);
    assert!(s.actions().is_empty());
    let mut after = s.clone();
    assert!(after.play_text("5").unwrap_err().to_string().contains("the game is over"));
}

#[test]
fn full_column_and_full_board() {
    let mut s = Connect4::new();
    for _ in 0..6 {
        s.play_text("1").unwrap();
    }
    assert!(!s.actions().contains(&0));
    let err = s.play_text("1").unwrap_err().to_string();
    assert!(err.contains("not a legal move"), "{err}");
    // A drawn full board (no four anywhere), the end of a random game.
    let drawn = "oxooxxo/xoxxoxx/oxoooxo/xoxxxox/xoooxoo/xooxxxo";
    let board = Connect4::new().parse_state(drawn).unwrap();
    assert_eq!(board.turn(), Turn::Over);
    assert_eq!(board.winner(), None);
    assert_eq!(board.returns().as_slice(), &[0.5, 0.5]);
}

#[test]
fn bad_positions_are_rejected_with_reasons() {
    let base = Connect4::new();
    let cases = [
        ("......./......./......./......./...x.../.......", "floating"),
        ("......./......./......./......./......./xx.....", "first player"),
        ("......./......./......./......./......./.o.....", "first player"),
        ("......./......./......./......./......./.......x", "expected 7"),
        ("......./......./......./......./.......", "6 rows"),
        ("......./......./......./......./......./...z...", "'z'"),
        ("......./......./..o..../..o..../..o..../xxxxo..", "player to move already"),
    ];
    for (text, reason) in cases {
        let err = base.parse_state(text).unwrap_err().to_string();
        assert!(err.contains(reason), "{text}: {err}");
    }
    for bad in ["0", "8", "h", "", "12", "x"] {
        assert!(base.parse_action(bad).is_err(), "{bad}");
    }
    assert!(base.state_from_json(&serde_json::json!({"rows": 3})).is_err());
    assert!(base.state_from_json(&serde_json::json!({"cells": []})).is_err());
}

#[test]
fn random_games_keep_every_invariant() {
    // Every rule of the model (ply_core::testing); no game outlasts a full board.
    Conformance::new(2000, 99).max_actions(WIDTH * HEIGHT).run(&Connect4::new());
}

proptest! {
    #[test]
    fn any_move_sequence_is_handled(moves in proptest::collection::vec(0u8..7, 0..60)) {
        let mut state = Connect4::new();
        for m in moves {
            let legal = state.is_legal(m);
            let before = state.clone();
            let result = state.play(m);
            prop_assert_eq!(result.is_ok(), legal);
            if !legal {
                prop_assert_eq!(&state, &before);
            }
        }
    }

    #[test]
    fn any_text_is_parsed_or_rejected_without_panic(text in "[xo./1-9a-z]{0,60}") {
        let _ = Connect4::new().parse_state(&text);
        let _ = Connect4::new().parse_action(&text);
    }
}

#[test]
fn game_definition_is_consistent() {
    let state = Connect4::new_from_text_options("").unwrap();
    assert_eq!(state, Connect4::new());
    assert!(
        Connect4::new_from_text_options("size=3").unwrap_err().to_string().contains("no parameter 'size'")
    );
    let names: Vec<&str> = Connect4::agents().iter().map(|a| a.name).collect();
    assert_eq!(names, ["alphabeta", "mcts", "random"]);
}

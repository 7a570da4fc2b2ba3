//! An oracle for wins by threats, written from the board's rules alone (no engine code), that
//! the tactics and defence suites check the engine's answers with.

// Each test binary that includes this module uses only some of it.
#![allow(dead_code)]

use ply_gomoku::{BLACK, Board, EMPTY, Point, WHITE};

pub fn other(color: u8) -> u8 {
    BLACK + WHITE - color
}

/// Empty points where `color` would make five (by the board's own rule check).
pub fn five_points(b: &Board, color: u8) -> Vec<Point> {
    b.points().filter(|&p| b.at(p) == EMPTY && b.makes_five(p, color)).collect()
}

pub fn near_stones(b: &Board, p: Point) -> bool {
    let (x, y) = b.xy(p);
    b.moves().iter().any(|&q| {
        let (qx, qy) = b.xy(q);
        qx.abs_diff(x) <= 2 && qy.abs_diff(y) <= 2
    })
}

/// Whether the side to move wins by continuous fours within `depth` of its own moves.
pub fn vcf_oracle(b: &Board, depth: u32) -> bool {
    let me = b.to_move();
    if !five_points(b, me).is_empty() {
        return true;
    }
    let theirs = five_points(b, other(me));
    if depth == 0 || theirs.len() >= 2 {
        return false;
    }
    let moves: Vec<Point> = b
        .points()
        .filter(|&p| {
            b.at(p) == EMPTY && near_stones(b, p) && (theirs.is_empty() || theirs[0] == p) && b.is_legal(p)
        })
        .collect();
    for p in moves {
        let mut after = b.clone();
        after.place(p);
        if after.winner().is_some() {
            return true;
        }
        let wins = five_points(&after, me);
        if wins.is_empty() || !five_points(&after, other(me)).is_empty() {
            continue;
        }
        if wins.len() >= 2 || !after.is_legal(wins[0]) {
            return true;
        }
        let mut blocked = after.clone();
        blocked.place(wins[0]);
        if blocked.winner().is_none() && vcf_oracle(&blocked, depth - 1) {
            return true;
        }
    }
    false
}

/// Whether `m`, played by the side to move, wins: at once, by continuous fours, or (for `vct`)
/// because every reply leaves a win by continuous fours.
pub fn move_wins(b: &Board, m: Point, kind: &str) -> bool {
    if !b.is_legal(m) {
        return false;
    }
    let mut after = b.clone();
    after.place(m);
    if after.winner().is_some() {
        return true;
    }
    let me = b.to_move();
    let wins = five_points(&after, me);
    if !five_points(&after, other(me)).is_empty() {
        return false;
    }
    if wins.len() >= 2 {
        return true;
    }
    if wins.len() == 1 {
        let mut blocked = after.clone();
        blocked.place(wins[0]);
        return blocked.winner().is_none() && vcf_oracle(&blocked, 10);
    }
    if kind != "vct" {
        return false;
    }
    after.points().filter(|&r| after.at(r) == EMPTY).all(|r| {
        let mut replied = after.clone();
        replied.place(r);
        replied.winner().is_none() && vcf_oracle(&replied, 8)
    })
}

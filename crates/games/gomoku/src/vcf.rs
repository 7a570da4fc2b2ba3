//! Victory by continuous fours: the attacker plays a four, the defender must take its only
//! completion point, and so on, until the attacker makes two fives at once (or the defender,
//! black under renju, cannot block on a forbidden point). Every attacker move is forcing, so the
//! tree is narrow and a solution is a proof.

use ply_core::Clock;

use crate::board::{BLACK, DIRECTIONS, EMPTY, Point, Rule};
use crate::engine::{Engine, other};
use crate::lines::Shape;

/// Mixed into the table key so that the two attackers' results never meet.
const ATTACKER_SALT: [u64; 3] = [0, 0x9E37_79B9_7F4A_7C15, 0xC2B2_AE3D_27D4_EB4F];

/// Empty points on the lines through `p` where `color` would make five.
fn fives_through(engine: &Engine, p: Point, color: u8) -> Vec<Point> {
    let mut out = Vec::new();
    for (dir, &d) in DIRECTIONS.iter().enumerate() {
        for k in (-4..=4isize).filter(|&k| k != 0) {
            let q = (p as isize + k * d) as Point;
            if engine.cells[q as usize] == EMPTY
                && engine.shape_at(q, dir, color) == Shape::Five
                && !out.contains(&q)
            {
                out.push(q);
            }
        }
    }
    out
}

/// A winning line of continuous fours for `attacker`, the side to move, within `depth` plies:
/// the moves of both sides, ending with the attacker's five.
pub fn vcf(engine: &mut Engine, attacker: u8, depth: i32, clock: &Clock) -> Option<Vec<Point>> {
    engine.nodes += 1;
    if engine.out_of_budget(clock) {
        return None;
    }
    let defender = other(attacker);
    let candidates = engine.candidates();
    let mut their_fives = Vec::new();
    let mut fours = Vec::new();
    for &p in &candidates {
        let mine = engine.threat(p, attacker);
        if mine.five {
            return Some(vec![p]);
        }
        if engine.threat(p, defender).five {
            their_fives.push(p);
        }
        if mine.fours > 0 {
            fours.push((mine.score, p));
        }
    }
    if depth <= 0 || their_fives.len() >= 2 {
        return None;
    }
    let key = engine.hash ^ ATTACKER_SALT[attacker as usize];
    let slot = (key as usize) & (engine.vcf_table.len() - 1);
    let (k, d, _) = engine.vcf_table[slot];
    if k == key && d as i32 >= depth {
        return None;
    }
    // Facing a five, the attacker must block it, and the block must itself be a four.
    if let Some(&must) = their_fives.first() {
        fours.retain(|&(_, p)| p == must);
    }
    fours.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
    for (_, p) in fours {
        engine.place(p);
        let wins = fives_through(engine, p, attacker);
        let defender_wins =
            !wins.is_empty() && engine.candidates().iter().any(|&q| engine.threat(q, defender).five);
        let result = if wins.is_empty() || defender_wins {
            None
        } else if wins.len() >= 2 {
            Some(vec![p, wins[0], wins[1]])
        } else {
            let block = wins[0];
            if defender == BLACK
                && engine_rule_is_renju(engine)
                && crate::renju::is_forbidden_cells(&mut engine.cells, block)
            {
                Some(vec![p, block])
            } else {
                engine.place(block);
                let deeper = vcf(engine, attacker, depth - 2, clock);
                engine.unplace();
                deeper.map(|line| [vec![p, block], line].concat())
            }
        };
        engine.unplace();
        if result.is_some() {
            return result;
        }
    }
    if !engine.out_of_budget(clock) {
        engine.vcf_table[slot] = (key, depth.clamp(0, 255) as u8, false);
    }
    None
}

fn engine_rule_is_renju(engine: &Engine) -> bool {
    engine.rule() == Rule::Renju
}

//! Victory by continuous fours: the attacker plays a four, the defender must take its only
//! completion point, and so on, until the attacker makes two fives at once (or the defender,
//! black under renju, cannot block on a forbidden point). Every attacker move is forcing, so the
//! tree is narrow and a solution is a proof.

use ply_core::Clock;

use crate::board::{BLACK, DIRECTIONS, EMPTY, Point, Rule};
use crate::engine::{Engine, PointSet, move_point, other, pack_move};
use crate::lines::Shape;

/// Mixed into the table key so that the two attackers' results never meet.
const ATTACKER_SALT: [u64; 3] = [0, 0x9E37_79B9_7F4A_7C15, 0xC2B2_AE3D_27D4_EB4F];

/// Up to two empty points on the lines through `p` where `color` would make five, and how many
/// of those there are (counting to two at most: that is all the search needs to know).
fn fives_through(engine: &Engine, p: Point, color: u8) -> (usize, [Point; 2]) {
    let mut out = [0; 2];
    let mut n = 0;
    for (dir, &d) in DIRECTIONS.iter().enumerate() {
        for k in (-4..=4isize).filter(|&k| k != 0) {
            let q = (p as isize + k * d) as Point;
            // The set rules out most points at the cost of one bit test.
            if engine.fives_of(color).contains(q as usize)
                && engine.cells[q as usize] == EMPTY
                && engine.shape_at(q, dir, color) == Shape::Five
            {
                out[n] = q;
                n += 1;
                if n == 2 {
                    return (n, out);
                }
            }
        }
    }
    (n, out)
}

/// A winning line of continuous fours for `attacker`, the side to move, within `depth` plies:
/// the moves of both sides, ending with the attacker's five.
pub fn vcf(engine: &mut Engine, attacker: u8, depth: i32, clock: &Clock) -> Option<Vec<Point>> {
    engine.nodes += 1;
    if engine.out_of_budget(clock) {
        return None;
    }
    let defender = other(attacker);
    let candidates = engine.candidate_set();
    if let Some(p) = (engine.fives_of(attacker) & candidates).first() {
        return Some(vec![p]);
    }
    let their_fives = engine.fives_of(defender) & candidates;
    if depth <= 0 || their_fives.len() >= 2 {
        return None;
    }
    let key = engine.hash ^ ATTACKER_SALT[attacker as usize];
    let slot = (key as usize) & (engine.vcf_table.len() - 1);
    let entry = engine.vcf_table[slot];
    if entry & !0xFF == key & !0xFF && (entry & 0xFF) as i32 >= depth {
        return None;
    }
    // Facing a five, the attacker must block it, and the block must itself be a four.
    let mut fours = engine.fours_of(attacker) & candidates;
    if let Some(must) = their_fives.first() {
        fours = PointSet::default();
        if engine.fours_of(attacker).contains(must as usize) {
            fours.insert(must as usize);
        }
    }
    // Best first by score, ties to the lower point; the score sits above the point in one key.
    // The list is borrowed from the engine, one per remaining depth: depth falls with every
    // level of one solver run, and runs never nest.
    let level = depth as usize;
    if engine.vcf_lists.len() <= level {
        engine.vcf_lists.resize_with(level + 1, Vec::new);
    }
    let mut ordered = std::mem::take(&mut engine.vcf_lists[level]);
    ordered.clear();
    for p in fours {
        let mine = engine.threat(p, attacker);
        if mine.fours > 0 {
            ordered.push(pack_move(mine.score as u64, p));
        }
    }
    ordered.sort_unstable_by(|a, b| b.cmp(a));
    let result = try_fours(engine, &ordered, attacker, depth, clock);
    engine.vcf_lists[level] = ordered;
    if result.is_some() {
        return result;
    }
    if !engine.out_of_budget(clock) {
        engine.vcf_table[slot] = key & !0xFF | depth.min(255) as u64;
    }
    None
}

/// Tries the attacker's fours in turn; the first that wins gives the line.
fn try_fours(
    engine: &mut Engine,
    ordered: &[u64],
    attacker: u8,
    depth: i32,
    clock: &Clock,
) -> Option<Vec<Point>> {
    let defender = other(attacker);
    for &packed in ordered {
        let p = move_point(packed);
        engine.place(p);
        let (wins, points) = fives_through(engine, p, attacker);
        let defender_wins = wins > 0 && !(engine.fives_of(defender) & engine.candidate_set()).is_empty();
        let result = if wins == 0 || defender_wins {
            None
        } else if wins >= 2 {
            Some(vec![p, points[0], points[1]])
        } else {
            let block = points[0];
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
    None
}

fn engine_rule_is_renju(engine: &Engine) -> bool {
    engine.rule() == Rule::Renju
}

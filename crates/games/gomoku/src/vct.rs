//! Victory by continuous threats (VCT): like VCF, but the attacker may also make open threes,
//! which the defender must answer on the spot: on a point where the attacker would make an open
//! four or a four, or with a four of its own, which the attacker blocks before the defender,
//! to move again, answers the three. A line is a proof when every defence loses.
//! The tree is wider than VCF's, so the attacker's threes are limited in number and depth.

use ply_core::Clock;

use crate::board::Point;
use crate::engine::{Engine, other};

/// Attacker moves tried at each node, best first.
const ATTACKS_PER_NODE: usize = 8;

/// Whether `attacker`, the side to move, wins by continuous threats within `threes` open threes
/// (fours are free, up to `vcf_depth` plies of them).
pub fn vct(engine: &mut Engine, attacker: u8, threes: u32, vcf_depth: i32, clock: &Clock) -> bool {
    engine.nodes += 1;
    if engine.out_of_budget(clock) {
        return false;
    }
    // A win with fewer threes is a win with more; a failure with more threes is one with fewer.
    let key = engine.hash ^ TABLE_SALT[attacker as usize];
    let slot = (key as usize) & (engine.vct_table.len() - 1);
    let (k, stored_threes, won) = engine.vct_table[slot];
    if k == key && ((won && stored_threes as u32 <= threes) || (!won && stored_threes as u32 >= threes)) {
        return won;
    }
    let result = vct_search(engine, attacker, threes, vcf_depth, clock);
    if !engine.out_of_budget(clock) {
        engine.vct_table[slot] = (key, threes.min(255) as u8, result);
    }
    result
}

/// Mixed into the table key so that the two attackers' results never meet.
const TABLE_SALT: [u64; 3] = [0, 0x6A09_E667_F3BC_C909, 0xBB67_AE85_84CA_A73B];

fn vct_search(engine: &mut Engine, attacker: u8, threes: u32, vcf_depth: i32, clock: &Clock) -> bool {
    if crate::vcf::vcf(engine, attacker, vcf_depth, clock).is_some() {
        return true;
    }
    let defender = other(attacker);
    let their_fives = engine.fives_of(defender) & engine.candidate_set();
    if let Some(block) = their_fives.first() {
        // The defender answered with a four of its own: VCF above found no four through it, so
        // the attacker blocks, and the defender, to move again, still faces the threat it
        // answered (or a new one the block made), or the attack is over.
        if their_fives.len() >= 2 || engine.threat(block as Point, attacker).forbidden {
            return false;
        }
        engine.place(block as Point);
        let wins = refutes_all_defences(engine, attacker, threes, vcf_depth, clock);
        engine.unplace();
        return wins;
    }
    if threes == 0 {
        return false;
    }
    let mut attacks = Vec::new();
    for p in engine.candidate_set() {
        let mine = engine.threat(p, attacker);
        if mine.forbidden {
            continue;
        }
        if mine.open_threes > 0 || mine.winning {
            attacks.push((mine.score, p));
        }
    }
    attacks.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
    attacks.truncate(ATTACKS_PER_NODE);
    for (_, p) in attacks {
        engine.place(p);
        let wins = refutes_all_defences(engine, attacker, threes - 1, vcf_depth, clock);
        engine.unplace();
        if wins {
            return true;
        }
        if engine.out_of_budget(clock) {
            return false;
        }
    }
    false
}

/// The first move of a win by continuous threats for `attacker`, the side to move, if there is
/// one within the limits (fours alone are VCF's job, asked first).
pub fn vct_move(
    engine: &mut Engine,
    attacker: u8,
    threes: u32,
    vcf_depth: i32,
    clock: &Clock,
) -> Option<Point> {
    let defender = other(attacker);
    let mut attacks = Vec::new();
    for p in engine.candidate_set() {
        let mine = engine.threat(p, attacker);
        if engine.threat(p, defender).five {
            return None;
        }
        if !mine.forbidden && (mine.open_threes > 0 || mine.winning) {
            attacks.push((mine.score, p));
        }
    }
    attacks.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
    attacks.truncate(ATTACKS_PER_NODE);
    // Deepening by the threes allowed: short wins are found before a long search of one
    // attack spends the budget, and each pass's table results serve the next.
    for allowed in 1..=threes {
        for &(_, p) in &attacks {
            engine.place(p);
            let wins = refutes_all_defences(engine, attacker, allowed - 1, vcf_depth, clock);
            engine.unplace();
            if engine.out_of_budget(clock) {
                return None;
            }
            if wins {
                return Some(p);
            }
        }
    }
    None
}

/// With the defender to move after the attacker's threat: whether every sensible defence loses.
fn refutes_all_defences(
    engine: &mut Engine,
    attacker: u8,
    threes: u32,
    vcf_depth: i32,
    clock: &Clock,
) -> bool {
    let defender = other(attacker);
    let mut defences: Vec<Point> = Vec::new();
    let mut threatened = false;
    for p in engine.candidate_set() {
        let theirs = engine.threat(p, attacker);
        let mine = engine.threat(p, defender);
        if mine.five {
            // The defender wins first.
            return false;
        }
        threatened |= theirs.winning || theirs.five;
        if (theirs.five || theirs.winning || theirs.fours > 0 || mine.fours > 0) && !mine.forbidden {
            defences.push(p);
        }
    }
    if !threatened {
        // Not a threat after all (the table is only a local view): no forced win from here.
        return false;
    }
    for p in defences {
        engine.place(p);
        let wins = vct(engine, attacker, threes, vcf_depth, clock);
        engine.unplace();
        if !wins {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{BLACK, Board, Rule};
    use crate::engine::EngineConfig;

    #[test]
    fn a_four_played_in_defence_is_blocked_and_the_threat_still_wins() {
        // Black's j8 makes two open threes. White's four at b5 (or b6) makes black block, and
        // then white still faces both threes: j8 wins, with one three.
        let board =
            crate::parse_board(&Board::new(15, Rule::Freestyle), "h8 b2 i8 b3 j6 b4 j7 n14 b1 n15").unwrap();
        let mut engine = Engine::new(EngineConfig::default());
        engine.load(&board);
        let clock = ply_core::Limits::new(ply_core::Budget::iterations(1_000_000)).start();
        let win = vct_move(&mut engine, BLACK, 1, 16, &clock);
        assert_eq!(win.map(|p| crate::point_to_xy_text(&board, p)), Some("9,7".to_string()));
    }
}

//! Claiming territories in turn (`setup=pick`): which open territory is worth most.
//!
//! A continent is worth its bonus to whoever can still come out of the claims holding all of
//! it — only a player alone in it. A claim is judged by how it moves every side's prospects:
//! it raises the claimer's own and, by entering a continent one rival has to itself, ends that
//! rival's. Claiming in turn without looking at the others hands a rival its continents
//! untouched (measured in pyrisk: Ply's claims made that way left its opponent North America
//! and Australia whole in every game, and lost most games from the second seat).

use crate::rules::{NEUTRAL, OPEN, Risk};

/// How much claiming the open territory `t` is worth to the player to move.
pub fn claim_value(state: &Risk, t: usize) -> f64 {
    let me = state.current() as u8;
    let map = state.map();
    let continent = &map.continents[map.territories[t].continent];
    let size = continent.territories.count_ones();
    let open = (continent.territories & state.territories_of(OPEN)).count_ones();
    let sides: Vec<(u8, u32)> = (0..state.players() as u8)
        .map(|seat| (seat, (continent.territories & state.territories_of(seat)).count_ones()))
        .filter(|&(_, held)| held > 0)
        .collect();
    let bonus = f64::from(continent.bonus);
    let prospect = |held: u32| bonus * (f64::from(held) / f64::from(size)).powi(2);
    let neutral_inside = continent.territories & state.territories_of(NEUTRAL) != 0;
    let mut value = 0.0;
    match sides.as_slice() {
        _ if neutral_inside => {}
        [] => value += prospect(1),
        [(seat, held)] if *seat == me => {
            value += prospect(held + 1) - prospect(*held);
            if open == 1 {
                // The claim completes the continent.
                value += bonus;
            }
        }
        [(_, held)] => {
            // A rival alone here: entering ends its prospect, and at once if it is one short.
            let rivals = (state.players() - 1) as f64;
            value += prospect(*held) / rivals;
            if open == 1 {
                value += bonus / rivals;
            }
        }
        // Shared already: no one completes it by claiming.
        _ => {}
    }
    // Ties (late claims in contested continents) go to territories next to one's own, which
    // the armies placed later can defend together.
    let own = state.territories_of(me);
    value + 0.01 * f64::from((map.territories[t].border & own).count_ones())
}

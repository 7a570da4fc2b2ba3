//! Online Evolutionary Planning finds a whole turn that only pays off as a whole, then plays it
//! out without searching again.

mod common;

use common::{Bits, TURN_BITS};
use ply_core::{Agent, Budget, Game, Limits, Player};
use ply_search::{Evolution, EvolutionConfig};

/// The first turn is judged by how many of its six choices match a pattern: a planner must get
/// all six right, and no single choice shows its worth before the turn is over.
const PATTERN: [u8; 6] = [1, 0, 1, 1, 0, 1];

fn matches(state: &Bits, player: Player) -> f64 {
    if state.moves < TURN_BITS {
        return 0.0;
    }
    let right = (0..TURN_BITS as usize).filter(|&i| (state.bits >> i & 1) as u8 == PATTERN[i]).count();
    let value = right as f64 / 3.0 - 1.0;
    if player == 0 { value } else { -value }
}

#[test]
fn evolves_the_whole_turn_and_follows_its_plan() {
    let mut agent =
        Evolution::new(EvolutionConfig { population: 40, ..EvolutionConfig::default() }, matches, 3);
    let mut state = Bits { bits: 0, moves: 0 };
    let limits = Limits::new(Budget::iterations(3000));
    let first = agent.choose(&state, &limits, &mut |_| {});
    assert_eq!(first.info.value, Some(1.0), "the whole pattern: {:?}", first.info);
    assert_eq!(first.info.pv, PATTERN.to_vec());
    state.apply(first.action);
    for &wanted in &PATTERN[1..] {
        let next = agent.choose(&state, &limits, &mut |_| {});
        assert_eq!(next.info.iterations, 0, "the plan is followed without a search");
        assert_eq!(next.action, wanted);
        assert!(state.is_legal(next.action));
        state.apply(next.action);
    }
    assert!(!state.continues_turn(), "the turn is over");
}

#[test]
fn a_position_off_the_plan_is_planned_again() {
    let mut agent =
        Evolution::new(EvolutionConfig { population: 40, ..EvolutionConfig::default() }, matches, 4);
    let limits = Limits::new(Budget::iterations(3000));
    let start = Bits { bits: 0, moves: 0 };
    agent.choose(&start, &limits, &mut |_| {});
    // Somebody else's choice put the turn elsewhere: the rest of the old plan does not apply.
    let elsewhere = Bits { bits: u64::from(1 - PATTERN[0]), moves: 1 };
    let replanned = agent.choose(&elsewhere, &limits, &mut |_| {});
    assert!(replanned.info.iterations > 0, "planned anew");
    assert_eq!(replanned.info.pv, PATTERN[1..].to_vec(), "the best the rest of the turn can do");
}

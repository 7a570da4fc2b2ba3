//! The checks a position read from outside must pass: one the rules can reach, or near enough
//! that every rule applies to it safely (no panic, no corrupted game).

use crate::notation::owner_text;
use crate::rules::{MAX_SEATS, OPEN, Phase, Risk};

/// Why `state` cannot be played from, if it cannot.
pub(crate) fn check(state: &Risk) -> Result<(), String> {
    let map = state.map();
    let rules = state.rules();
    let n = map.len();
    let name = |t: usize| map.territories[t].slug.as_str();
    if state.current as usize >= state.players() {
        return Err(format!("player {} does not exist", state.current));
    }
    if state.round > rules.max_rounds {
        return Err(format!("round {} is past the limit of {}", state.round, rules.max_rounds));
    }
    let setup = matches!(state.phase, Phase::Deal | Phase::Pick | Phase::Setup);
    if setup != (state.round == 0) && state.phase != Phase::Over {
        return Err("round 0 is the setup, and only the setup".into());
    }
    if state.dealt as usize > n || (state.phase != Phase::Deal && (state.dealt as usize) < n) {
        return Err(format!("'dealt={}' does not fit the phase", state.dealt));
    }
    for t in 0..n {
        let (owner, armies) = (state.owner[t], state.armies[t]);
        let moving_in = matches!(state.phase, Phase::Occupy { to, .. } if to as usize == t);
        if t >= state.dealt as usize {
            if owner != OPEN || armies != 0 {
                return Err(format!("'{}' is not dealt yet, so it has no owner and no armies", name(t)));
            }
            continue;
        }
        match owner {
            OPEN if armies != 0 => return Err(format!("'{}' has no owner but {armies} armies", name(t))),
            OPEN if !matches!(state.phase, Phase::Deal | Phase::Pick) => {
                return Err(format!("'{}' has no owner after the territories were shared out", name(t)));
            }
            _ if owner != OPEN && armies == 0 && !moving_in => {
                return Err(format!("'{}' has an owner but no armies", name(t)));
            }
            _ => {}
        }
    }
    if let Some(owner) = state.overdealt_owner() {
        return Err(format!("more territories dealt to {} than the deal gives", owner_text(owner)));
    }
    let cards = map.card_count();
    let all = (1u128 << cards) - 1;
    let mut held = state.discard;
    for seat in 0..MAX_SEATS {
        let hand = state.hands[seat];
        if hand & !all != 0 || hand & held != 0 {
            return Err(format!("player {seat}'s cards overlap other cards"));
        }
        held |= hand;
        if hand != 0 && seat < state.players() && !state.is_alive(seat) {
            return Err(format!("player {seat} is out of the game but holds cards"));
        }
    }
    if !rules.cards() && held != 0 {
        return Err("these rules have no cards".into());
    }
    if !setup && state.phase != Phase::Over {
        if !state.is_alive(state.current()) {
            return Err(format!("player {} is out of the game and cannot move", state.current));
        }
        if state.over_by_conquest() {
            return Err("one player holds everything: the phase must be 'over'".into());
        }
        if state.phase != Phase::Draft && state.reserve != 0 {
            return Err("armies are left to place outside the draft".into());
        }
        if state.phase == Phase::Draft && state.reserve == 0 && !state.must_trade() {
            return Err("a draft with nothing to place or trade".into());
        }
    }
    if setup && state.reserve != 0 {
        return Err("no reserve during setup".into());
    }
    if state.phase == Phase::Setup && state.setup_left(state.current()) == 0 {
        return Err(format!("player {} has no starting armies left to place", state.current));
    }
    let current = state.current;
    let adjacent = |a: u8, b: u8| map.territories[a as usize].border & (1 << b) != 0;
    match state.phase {
        Phase::Battle { from, to, .. } => {
            if state.owner[from as usize] != current
                || state.owner[to as usize] == current
                || !adjacent(from, to)
            {
                return Err("a battle is from the player's territory to a neighbouring enemy".into());
            }
            if state.armies[from as usize] < 2 {
                return Err("a battle needs two armies on the attacking territory".into());
            }
        }
        Phase::Occupy { from, to, min } => {
            if state.owner[from as usize] != current
                || state.owner[to as usize] != current
                || !adjacent(from, to)
            {
                return Err("armies move in from the player's territory to the one just taken".into());
            }
            if state.armies[to as usize] != 0 || !(1..=3).contains(&min) || state.armies[from as usize] <= min
            {
                return Err("the armies to move in do not fit the territories".into());
            }
        }
        Phase::Draw if !state.conquered || (state.deck() | state.discard) == 0 => {
            return Err("a card is drawn only after a conquest, from cards left".into());
        }
        Phase::Fortify if !rules.fortifies() => {
            return Err("the document's rules have no fortify phase".into());
        }
        _ => {}
    }
    Ok(())
}

//! The checks a position read from outside must pass: one that play could reach, or near enough
//! that every rule applies to it safely (no panic, no corrupted game).

use crate::grid::{Cells, MAX_SIZE, MIN_SIZE, Map, cell_name};
use crate::notation::Parts;
use crate::rules::Tactics;
use crate::units::MAX_TEAM;

/// Builds the position from its parts, with `template`'s options, and checks it.
pub(crate) fn assemble(template: &Tactics, parts: Parts) -> Result<Tactics, String> {
    if !(MIN_SIZE..=MAX_SIZE).contains(&parts.size) {
        return Err(format!("size={} is not a board side from {MIN_SIZE} to {MAX_SIZE}", parts.size));
    }
    if parts.player > 1 {
        return Err(format!("player={}: the players are 0 and 1", parts.player));
    }
    if let Some(map) = &parts.map
        && map.size() != parts.size
    {
        return Err(format!("bad map: size={} but the map is {}x{}", parts.size, map.size(), map.size()));
    }
    if parts.deal != (parts.round == 0) {
        return Err("round 0 is the deal, and only the deal".into());
    }
    if parts.deal {
        return dealing(template, parts);
    }
    let (Some(map), Some(sides)) = (parts.map, parts.sides) else {
        return Err("a position after the deal has a map and both sides".into());
    };
    let mut state = template.clone();
    state.map = map;
    state.round = parts.round;
    state.player = parts.player;
    state.acted = 0;
    state.occupied = Cells::EMPTY;
    state.units = [crate::rules::Tactics::no_unit(); crate::rules::SLOTS];
    for (side, units) in sides.iter().enumerate() {
        if units.is_empty() || units.len() > MAX_TEAM {
            return Err(format!("side {side} has {} units: a side has 1 to {MAX_TEAM}", units.len()));
        }
        state.len[side] = units.len() as u8;
        for (i, &(unit, acted)) in units.iter().enumerate() {
            let what = format!("side {side}'s {} (unit {})", unit.kind.name(), i + 1);
            if unit.alive() {
                if !map.on_board(unit.cell) {
                    return Err(format!("{what} stands on {}, off the board", cell_name(unit.cell)));
                }
                if !map.is_earth(unit.cell) {
                    return Err(format!(
                        "{what} stands on {}, which is {}",
                        cell_name(unit.cell),
                        map.terrain(unit.cell).name()
                    ));
                }
                if state.occupied.contains(unit.cell) {
                    return Err(format!("two units stand on {}", cell_name(unit.cell)));
                }
                if unit.hp > unit.kind.stats().hp {
                    return Err(format!(
                        "{what} has {} hit points; at most {}",
                        unit.hp,
                        unit.kind.stats().hp
                    ));
                }
                state.occupied.insert(unit.cell);
            } else if acted {
                return Err(format!("{what} is dead and cannot have acted"));
            }
            if acted {
                if side != parts.player as usize {
                    return Err(format!("{what} has acted, but it is player {}'s turn", parts.player));
                }
                state.acted |= 1 << i;
            }
            state.units[side * MAX_TEAM + i] = unit;
        }
    }
    check_play(&state)?;
    Ok(state)
}

/// A position before the deal: only when the options deal, with the options' map if they give
/// one.
fn dealing(template: &Tactics, parts: Parts) -> Result<Tactics, String> {
    let rules = template.rules;
    if !rules.deals() {
        return Err("these options fix the seed, so the game has no deal".into());
    }
    if parts.player != 0 || parts.sides.is_some() {
        return Err("before the deal player 0 is to move and no unit is on the board".into());
    }
    let map = match (parts.map, rules.map_given) {
        (Some(map), true) => map,
        (None, false) if parts.size == rules.size => Map::open(rules.size),
        (None, false) => {
            return Err(format!(
                "size={}, but these options deal a {}x{} map",
                parts.size, rules.size, rules.size
            ));
        }
        (Some(_), false) => {
            return Err("these options generate the map at the deal: a map cannot be given before it".into());
        }
        (None, true) => return Err("these options give the map: a position before the deal shows it".into()),
    };
    Tactics::new(rules, map)
}

fn check_play(state: &Tactics) -> Result<(), String> {
    let rules = &state.rules;
    if state.round > rules.max_turns + 1 {
        return Err(format!("round {} is past the cap of {} rounds", state.round, rules.max_turns));
    }
    if state.round == rules.max_turns + 1 && (state.player != 0 || state.acted != 0) {
        return Err(format!(
            "round {} only marks the end of the game: player 0 to move, no unit acted",
            state.round
        ));
    }
    let living = [state.living(0), state.living(1)];
    if living == [0, 0] {
        return Err("both sides are wiped out, which no game reaches".into());
    }
    let mover = state.player as usize;
    if living[mover] == 0 {
        return Err(format!("player {mover} is to move but has no unit left"));
    }
    if !state.is_over() && state.to_act().next().is_none() {
        return Err(format!("every unit of player {mover} has acted: the turn is over"));
    }
    // Units never cross water or walls, so units cut off from each other cannot have met.
    let cells: Vec<_> =
        (0..2).flat_map(|s| state.team(s).iter().filter(|u| u.alive()).map(|u| u.cell)).collect();
    if let Some(&first) = cells.first() {
        let region = state.map.region(first);
        if let Some(&apart) = cells.iter().find(|&&c| !region.contains(c)) {
            return Err(format!(
                "bad map: no path between {} and {} over earth: every unit must be able to reach every enemy",
                cell_name(first),
                cell_name(apart)
            ));
        }
    }
    Ok(())
}

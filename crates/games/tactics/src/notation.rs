//! The text and JSON forms of actions, turns and positions (docs/tactics.md, "Notation").
//! Reading checks everything (validate.rs) so that no position read can break a rule later.

use ply_core::Error;
use serde_json::{Value, json};

use crate::grid::{Cell, Dir, Map, cell_name, parse_cell};
use crate::rules::{DEAL_SEEDS, Tactics, TacticsAction};
use crate::units::{Kind, MAX_TEAM, Unit};

/// `b2` (stay, no attack), `b2>n` (stay, attack north), `b2-d4` (move), `b2-d4>e` (move, then
/// attack east); `deal:42` for the opening chance event. No spaces, so that a turn is its
/// actions separated by spaces (as the engine protocol's `play` takes them).
pub fn action_text(action: TacticsAction) -> String {
    match action {
        TacticsAction::Deal(seed) => format!("deal:{seed}"),
        TacticsAction::Unit { from, to, attack } => {
            let mut text = cell_name(from);
            if to != from {
                text.push('-');
                text.push_str(&cell_name(to));
            }
            if let Some(dir) = attack {
                text.push('>');
                text.push(dir.letter());
            }
            text
        }
    }
}

pub fn parse_action(text: &str) -> Result<TacticsAction, Error> {
    read_action(text.trim()).map_err(Error::notation)
}

fn read_action(text: &str) -> Result<TacticsAction, String> {
    if let Some(seed) = text.strip_prefix("deal:") {
        return match seed.parse::<u32>() {
            Ok(n) if seed.chars().all(|c| c.is_ascii_digit()) => Ok(TacticsAction::Deal(n)),
            _ => Err(format!("'{text}': a deal is 'deal:N', N a seed from 0 to {}", DEAL_SEEDS - 1)),
        };
    }
    let form = "a unit's action is FROM[-TO][>DIR], as 'b2', 'b2-d4', 'b2>n' or 'b2-d4>e' (DIR: n, e, s, w)";
    let (cells, attack) = match text.split_once('>') {
        Some((cells, dir)) => {
            let mut chars = dir.chars();
            match (chars.next().and_then(Dir::from_letter), chars.next()) {
                (Some(d), None) => (cells, Some(d)),
                _ => return Err(format!("'{text}': '{dir}' is not a direction; {form}")),
            }
        }
        None => (text, None),
    };
    let (from, to) = match cells.split_once('-') {
        Some((from, to)) => (from, to),
        None => (cells, cells),
    };
    let from = parse_cell(from).map_err(|e| format!("'{text}': {e}; {form}"))?;
    let to = parse_cell(to).map_err(|e| format!("'{text}': {e}; {form}"))?;
    Ok(TacticsAction::Unit { from, to, attack })
}

/// `{"from": "b2", "to": "d4", "attack": "e"}` (`attack` null for none) or `{"deal": 42}`.
pub fn action_json(action: TacticsAction) -> Value {
    match action {
        TacticsAction::Deal(seed) => json!({ "deal": seed }),
        TacticsAction::Unit { from, to, attack } => json!({
            "from": cell_name(from),
            "to": cell_name(to),
            "attack": attack.map(|d| d.letter().to_string()),
        }),
    }
}

pub fn action_from_json(json: &Value) -> Result<TacticsAction, Error> {
    let read = || -> Result<TacticsAction, String> {
        match json {
            Value::String(text) => read_action(text.trim()),
            Value::Object(fields) if fields.contains_key("deal") => {
                let seed = fields["deal"].as_u64().and_then(|n| u32::try_from(n).ok());
                let seed = seed.ok_or("'deal' must be a seed, a whole number")?;
                if fields.len() != 1 {
                    return Err("a deal has only 'deal'".into());
                }
                Ok(TacticsAction::Deal(seed))
            }
            Value::Object(fields) => {
                if let Some(key) = fields.keys().find(|k| !["from", "to", "attack"].contains(&k.as_str())) {
                    return Err(format!("'{key}' is not a field of an action (from, to, attack)"));
                }
                let cell = |key: &str| {
                    fields.get(key).and_then(Value::as_str).ok_or_else(|| format!("'{key}' must be a cell"))
                };
                let from = parse_cell(cell("from")?)?;
                let to = match fields.get("to") {
                    None => from,
                    Some(_) => parse_cell(cell("to")?)?,
                };
                let attack = match fields.get("attack") {
                    None | Some(Value::Null) => None,
                    Some(Value::String(d)) if d.chars().count() == 1 => Some(
                        Dir::from_letter(d.chars().next().unwrap_or(' '))
                            .ok_or_else(|| format!("'{d}' is not a direction: n, e, s, w"))?,
                    ),
                    Some(other) => return Err(format!("'attack' {other} is not a direction: n, e, s, w")),
                };
                Ok(TacticsAction::Unit { from, to, attack })
            }
            other => Err(format!("expected an action as text or an object, got {other}")),
        }
    };
    read().map_err(Error::notation)
}

/// A whole turn (or any run of actions): the actions separated by spaces or commas.
pub fn turn_text(actions: &[TacticsAction]) -> String {
    actions.iter().map(|&a| action_text(a)).collect::<Vec<_>>().join(" ")
}

/// Reads a run of actions, syntax only; [`Tactics::play_turn`] checks and plays them.
pub fn parse_turn(text: &str) -> Result<Vec<TacticsAction>, Error> {
    let mut actions = Vec::new();
    for word in text.split([' ', ',', '\n', '\t']).filter(|w| !w.is_empty()) {
        actions.push(parse_action(word).map_err(|e| e.context(format!("action {}", actions.len() + 1)))?);
    }
    if actions.is_empty() {
        return Err(Error::notation("a turn has at least one action"));
    }
    Ok(actions)
}

/// A unit in a position's text: `F` `a1` `:100`, then `*` if it has acted this turn; `Fx` dead.
fn unit_text(unit: &Unit, acted: bool) -> String {
    if !unit.alive() {
        return format!("{}x", unit.kind.letter());
    }
    format!("{}{}:{}{}", unit.kind.letter(), cell_name(unit.cell), unit.hp, if acted { "*" } else { "" })
}

/// `tactics size=10 round=3 player=0; map ROWS; side0 UNITS; side1 UNITS` — the map's rows from
/// the top, joined by `/`; before the deal `tactics size=10 round=0 player=0; deal` (with the
/// map when the options give it).
pub fn state_text(state: &Tactics) -> String {
    let mut text = format!("tactics size={} round={} player={}", state.map.size(), state.round, state.player);
    if state.is_dealing() {
        text.push_str("; deal");
        if !state.rules.map_given {
            return text;
        }
    }
    text.push_str("; map ");
    text.push_str(&state.map.to_line());
    if state.is_dealing() {
        return text;
    }
    for side in 0..2 {
        text.push_str(&format!("; side{side}"));
        for (i, unit) in state.team(side).iter().enumerate() {
            let acted = side == state.player as usize && state.acted >> i & 1 != 0;
            text.push(' ');
            text.push_str(&unit_text(unit, acted));
        }
    }
    text
}

/// A position's parts as read, before the checks.
pub(crate) struct Parts {
    pub size: u8,
    pub round: u16,
    pub player: u8,
    pub deal: bool,
    pub map: Option<Map>,
    /// Each side's units, with whether each has acted.
    pub sides: Option<[Vec<(Unit, bool)>; 2]>,
}

pub fn parse_state(template: &Tactics, text: &str) -> Result<Tactics, Error> {
    read_text(text).and_then(|parts| crate::validate::assemble(template, parts)).map_err(Error::notation)
}

fn read_unit(text: &str) -> Result<(Unit, bool), String> {
    let form =
        "a unit is KIND CELL:HP, '*' after it if it has acted ('Fa1:100', 'Wc3:40*'), or KIND x dead ('Ax')";
    let mut chars = text.chars();
    let kind = chars
        .next()
        .and_then(Kind::from_letter)
        .ok_or_else(|| format!("'{text}' does not start with F, A or W; {form}"))?;
    let rest = chars.as_str();
    if rest == "x" {
        return Ok((Unit { kind, hp: 0, cell: 0 }, false));
    }
    let (rest, acted) = match rest.strip_suffix('*') {
        Some(rest) => (rest, true),
        None => (rest, false),
    };
    let (cell, hp) = rest.split_once(':').ok_or_else(|| format!("'{text}': {form}"))?;
    let cell = parse_cell(cell).map_err(|e| format!("'{text}': {e}"))?;
    let hp = hp
        .parse::<u8>()
        .ok()
        .filter(|_| hp.chars().all(|c| c.is_ascii_digit()))
        .ok_or_else(|| format!("'{text}': '{hp}' is not a number of hit points"))?;
    if hp == 0 {
        return Err(format!(
            "'{text}': a living unit has 1 hit point or more; a dead one is written '{}x'",
            kind.letter()
        ));
    }
    Ok((Unit { kind, hp, cell }, acted))
}

fn read_text(text: &str) -> Result<Parts, String> {
    let mut sections = text.split([';', '\n']).map(str::trim).filter(|l| !l.is_empty());
    let header = sections.next().ok_or("an empty tactics position")?;
    let mut words = header.split_whitespace();
    if words.next() != Some("tactics") {
        return Err("a tactics position starts with 'tactics'".into());
    }
    let mut fields = std::collections::HashMap::new();
    for word in words {
        let (key, value) =
            word.split_once('=').ok_or_else(|| format!("'{word}' in the header is not KEY=VALUE"))?;
        if !["size", "round", "player"].contains(&key) {
            return Err(format!("'{key}' is not a field of the header (size, round, player)"));
        }
        if fields.insert(key, value).is_some() {
            return Err(format!("'{key}=' is given twice"));
        }
    }
    let number = |key: &str| -> Result<u16, String> {
        let value = fields.get(key).copied().ok_or_else(|| format!("the header lacks '{key}='"))?;
        value
            .parse::<u16>()
            .ok()
            .filter(|_| value.chars().all(|c| c.is_ascii_digit()))
            .ok_or_else(|| format!("'{key}={value}' needs a number"))
    };
    let small =
        |key: &str| number(key).and_then(|n| u8::try_from(n).map_err(|_| format!("'{key}=' is too large")));
    let mut parts = Parts {
        size: small("size")?,
        round: number("round")?,
        player: small("player")?,
        deal: false,
        map: None,
        sides: None,
    };
    let mut sides: [Option<Vec<(Unit, bool)>>; 2] = [None, None];
    for section in sections {
        let (kind, rest) = section.split_once(' ').unwrap_or((section, ""));
        match kind {
            "deal" if rest.is_empty() && !parts.deal => parts.deal = true,
            "map" if parts.map.is_none() => {
                parts.map = Some(Map::parse(rest).map_err(|e| format!("bad map: {e}"))?)
            }
            "side0" | "side1" => {
                let side = usize::from(kind == "side1");
                if sides[side].is_some() {
                    return Err(format!("'{kind}' is given twice"));
                }
                let units: Vec<(Unit, bool)> =
                    rest.split_whitespace().map(read_unit).collect::<Result<_, _>>()?;
                if units.len() > MAX_TEAM {
                    return Err(format!("{kind} has {} units; a side has at most {MAX_TEAM}", units.len()));
                }
                sides[side] = Some(units);
            }
            _ => {
                return Err(format!(
                    "unexpected section '{section}' in a tactics position (map, side0, side1, deal)"
                ));
            }
        }
    }
    parts.sides = match sides {
        [Some(a), Some(b)] => Some([a, b]),
        [None, None] => None,
        _ => return Err("a position lists both sides, 'side0' and 'side1'".into()),
    };
    Ok(parts)
}

fn phase_name(state: &Tactics) -> &'static str {
    if state.is_dealing() {
        "deal"
    } else if state.is_over() {
        "over"
    } else {
        "play"
    }
}

/// `{"size", "round", "player", "phase" ("deal", "play" or "over"), "map" (rows from the top, or
/// null before a generated map is dealt), "sides": [[{"kind", "cell", "hp", "acted"}...], [...]]
/// (null before the deal), "values": [side 0's material, side 1's]}`. `phase` and `values` are
/// derived: reading checks `phase` and ignores `values`.
pub fn state_json(state: &Tactics) -> Value {
    let map = (!state.is_dealing() || state.rules.map_given).then(|| state.map.rows());
    let sides = (!state.is_dealing()).then(|| {
        (0..2)
            .map(|side| {
                state
                    .team(side)
                    .iter()
                    .enumerate()
                    .map(|(i, u)| {
                        json!({
                            "kind": u.kind.letter().to_string(),
                            "cell": u.alive().then(|| cell_name(u.cell)),
                            "hp": u.hp,
                            "acted": side == state.player as usize && state.acted >> i & 1 != 0,
                        })
                    })
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>()
    });
    json!({
        "size": state.map.size(),
        "round": state.round,
        "player": state.player,
        "phase": phase_name(state),
        "map": map,
        "sides": sides,
        "values": (!state.is_dealing()).then(|| [state.value(0), state.value(1)]),
    })
}

pub fn state_from_json(template: &Tactics, json: &Value) -> Result<Tactics, Error> {
    let parts = read_json(json).map_err(Error::notation)?;
    let state = crate::validate::assemble(template, parts).map_err(Error::notation)?;
    match json.get("phase") {
        None => {}
        Some(Value::String(phase)) if phase == phase_name(&state) => {}
        Some(other) => {
            return Err(Error::notation(format!(
                "'phase' is {other}, but the position is in phase '{}'",
                phase_name(&state)
            )));
        }
    }
    Ok(state)
}

fn read_json_unit(value: &Value) -> Result<(Unit, bool), String> {
    let fields = value.as_object().ok_or("a unit is an object {kind, cell, hp, acted}")?;
    if let Some(key) = fields.keys().find(|k| !["kind", "cell", "hp", "acted"].contains(&k.as_str())) {
        return Err(format!("'{key}' is not a field of a unit (kind, cell, hp, acted)"));
    }
    let kind = fields
        .get("kind")
        .and_then(Value::as_str)
        .filter(|k| k.chars().count() == 1)
        .and_then(|k| k.chars().next().and_then(Kind::from_letter))
        .ok_or("a unit's 'kind' is \"F\", \"A\" or \"W\"")?;
    let hp = fields
        .get("hp")
        .and_then(Value::as_u64)
        .and_then(|h| u8::try_from(h).ok())
        .ok_or("a unit's 'hp' must be a number of hit points")?;
    let cell: Option<Cell> = match fields.get("cell") {
        None | Some(Value::Null) => None,
        Some(Value::String(c)) => Some(parse_cell(c)?),
        Some(other) => return Err(format!("a unit's 'cell' {other} is not a cell")),
    };
    let acted = match fields.get("acted") {
        None => false,
        Some(v) => v.as_bool().ok_or("a unit's 'acted' is true or false")?,
    };
    match (cell, hp) {
        (None, 0) => Ok((Unit { kind, hp: 0, cell: 0 }, acted)),
        (Some(cell), hp) if hp > 0 => Ok((Unit { kind, hp, cell }, acted)),
        _ => Err("a living unit has a cell and hit points; a dead one neither (cell null, hp 0)".into()),
    }
}

fn read_json(json: &Value) -> Result<Parts, String> {
    let number = |key: &str| -> Result<u64, String> {
        json.get(key).and_then(Value::as_u64).ok_or_else(|| format!("'{key}' must be a whole number"))
    };
    let small = |key: &str| u8::try_from(number(key)?).map_err(|_| format!("'{key}' is too large"));
    let round = u16::try_from(number("round")?).map_err(|_| "'round' is too large".to_string())?;
    let map = match json.get("map") {
        None | Some(Value::Null) => None,
        Some(Value::Array(rows)) => {
            let rows: Vec<&str> =
                rows.iter().map(|r| r.as_str().ok_or("map rows are strings")).collect::<Result<_, _>>()?;
            Some(Map::from_rows(&rows).map_err(|e| format!("bad map: {e}"))?)
        }
        Some(other) => return Err(format!("'map' {other} must be a list of rows")),
    };
    let sides = match json.get("sides") {
        None | Some(Value::Null) => None,
        Some(Value::Array(sides)) if sides.len() == 2 => {
            let mut read = [Vec::new(), Vec::new()];
            for (side, units) in sides.iter().enumerate() {
                let units = units.as_array().ok_or("each side is a list of units")?;
                if units.len() > MAX_TEAM {
                    return Err(format!(
                        "side {side} has {} units; a side has at most {MAX_TEAM}",
                        units.len()
                    ));
                }
                read[side] = units.iter().map(read_json_unit).collect::<Result<_, _>>()?;
            }
            Some(read)
        }
        Some(_) => return Err("'sides' is a list of two lists of units".into()),
    };
    Ok(Parts { size: small("size")?, round, player: small("player")?, deal: round == 0, map, sides })
}

//! Risk's text and JSON notation (docs/risk.md, "Notation"): actions by territory names, states
//! as a header line, the territories, the hands and the discard pile. Reading a state checks it
//! against the map and the rules, so that nothing read can break a rule later.

use ply_core::Error;
use serde_json::{Value, json};

use crate::map::Map;
use crate::rules::{MAX_SEATS, NEUTRAL, OPEN, Phase, Risk, RiskAction};

pub fn action_text(map: &Map, action: RiskAction) -> String {
    let name = |t: u8| map.territories[t as usize].slug.as_str();
    match action {
        RiskAction::Deal { territory, owner } => format!("deal {} {}", name(territory), owner_text(owner)),
        RiskAction::Pick(t) => format!("pick {}", name(t)),
        RiskAction::Place { territory, armies } => format!("place {} {armies}", name(territory)),
        RiskAction::Trade(cards) => {
            format!(
                "trade {}",
                cards.iter().map(|&c| map.card_name(c as usize)).collect::<Vec<_>>().join(" ")
            )
        }
        RiskAction::Attack { from, to, blitz } => {
            format!("{} {} {}", if blitz { "blitz" } else { "attack" }, name(from), name(to))
        }
        RiskAction::Dice { attacker_loses, defender_loses } => {
            format!("roll {attacker_loses}:{defender_loses}")
        }
        RiskAction::Occupy(armies) => format!("occupy {armies}"),
        RiskAction::EndAttack => "end-attack".into(),
        RiskAction::Fortify { from, to, armies } => format!("fortify {} {} {armies}", name(from), name(to)),
        RiskAction::EndTurn => "end-turn".into(),
        RiskAction::Draw(card) => format!("draw {}", map.card_name(card as usize)),
    }
}

pub(crate) fn owner_text(owner: u8) -> String {
    match owner {
        NEUTRAL => "neutral".into(),
        OPEN => "open".into(),
        seat => seat.to_string(),
    }
}

/// A position's number of players, which must be the game's: checked as soon as it is read,
/// since what follows (owners, hands) is read against it.
fn game_players(template: &Risk, players: usize) -> Result<usize, String> {
    let wanted = template.rules().players;
    if players == usize::from(wanted) {
        Ok(players)
    } else {
        Err(format!("the position has {players} players, the game {wanted}"))
    }
}

fn parse_owner(text: &str, players: usize) -> Result<u8, String> {
    match text {
        "neutral" | "n" => Ok(NEUTRAL),
        "open" | "-" => Ok(OPEN),
        _ => match text.parse::<usize>() {
            Ok(seat) if seat < players => Ok(seat as u8),
            _ => Err(format!("'{text}' is not an owner: a seat 0-{}, 'neutral' or 'open'", players - 1)),
        },
    }
}

fn territory(map: &Map, text: &str) -> Result<u8, String> {
    map.territory(text)
        .map(|t| t as u8)
        .ok_or_else(|| format!("'{text}' is not a territory of the {} map", map.name))
}

fn card(map: &Map, text: &str) -> Result<u8, String> {
    map.parse_card(text)
        .map(|c| c as u8)
        .ok_or_else(|| format!("'{text}' is not a card: a territory's name or wild1-wild{}", map.wild_cards))
}

fn count(text: &str, what: &str) -> Result<u16, String> {
    text.parse::<u16>().map_err(|_| format!("'{text}' is not a number of {what}"))
}

pub fn parse_action(map: &Map, players: usize, text: &str) -> Result<RiskAction, Error> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let expect = |n: usize, form: &str| {
        if words.len() == n { Ok(()) } else { Err(format!("'{text}': expected '{form}'")) }
    };
    let action = (|| -> Result<RiskAction, String> {
        match words.first().copied() {
            Some("deal") => {
                expect(3, "deal TERRITORY OWNER")?;
                Ok(RiskAction::Deal {
                    territory: territory(map, words[1])?,
                    owner: parse_owner(words[2], players)?,
                })
            }
            Some("pick") => {
                expect(2, "pick TERRITORY")?;
                Ok(RiskAction::Pick(territory(map, words[1])?))
            }
            Some("place") => {
                expect(3, "place TERRITORY ARMIES")?;
                Ok(RiskAction::Place {
                    territory: territory(map, words[1])?,
                    armies: count(words[2], "armies")?,
                })
            }
            Some("trade") => {
                expect(4, "trade CARD CARD CARD")?;
                let mut cards = [card(map, words[1])?, card(map, words[2])?, card(map, words[3])?];
                cards.sort_unstable();
                if cards[0] == cards[1] || cards[1] == cards[2] {
                    return Err(format!("'{text}': a set is three different cards"));
                }
                Ok(RiskAction::Trade(cards))
            }
            Some(kind @ ("attack" | "blitz")) => {
                expect(3, &format!("{kind} FROM TO"))?;
                Ok(RiskAction::Attack {
                    from: territory(map, words[1])?,
                    to: territory(map, words[2])?,
                    blitz: kind == "blitz",
                })
            }
            Some("roll") => {
                expect(2, "roll ATTACKER_LOSES:DEFENDER_LOSES")?;
                let (a, d) =
                    words[1].split_once(':').ok_or_else(|| format!("'{text}': expected 'roll A:D'"))?;
                let loses = |s: &str| s.parse::<u8>().ok().filter(|&n| n <= 2);
                match (loses(a), loses(d)) {
                    (Some(attacker_loses), Some(defender_loses)) if attacker_loses + defender_loses <= 2 => {
                        Ok(RiskAction::Dice { attacker_loses, defender_loses })
                    }
                    _ => Err(format!("'{text}': a roll costs the two sides 1 or 2 armies in all")),
                }
            }
            Some("occupy") => {
                expect(2, "occupy ARMIES")?;
                Ok(RiskAction::Occupy(count(words[1], "armies")?))
            }
            Some("end-attack") => {
                expect(1, "end-attack")?;
                Ok(RiskAction::EndAttack)
            }
            Some("fortify") => {
                expect(4, "fortify FROM TO ARMIES")?;
                Ok(RiskAction::Fortify {
                    from: territory(map, words[1])?,
                    to: territory(map, words[2])?,
                    armies: count(words[3], "armies")?,
                })
            }
            Some("end-turn") => {
                expect(1, "end-turn")?;
                Ok(RiskAction::EndTurn)
            }
            Some("draw") => {
                expect(2, "draw CARD")?;
                Ok(RiskAction::Draw(card(map, words[1])?))
            }
            _ => Err(format!(
                "'{text}' is not a Risk action: deal, pick, place, trade, attack, blitz, roll, occupy, \
                 end-attack, fortify, end-turn or draw"
            )),
        }
    })();
    action.map_err(Error::notation)
}

pub fn phase_text(map: &Map, phase: Phase) -> String {
    let name = |t: u8| map.territories[t as usize].slug.as_str();
    match phase {
        Phase::Deal => "deal".into(),
        Phase::Pick => "pick".into(),
        Phase::Setup => "setup".into(),
        Phase::Draft => "draft".into(),
        Phase::Attack => "attack".into(),
        Phase::Battle { from, to, blitz } => {
            format!("{}:{}>{}", if blitz { "blitz" } else { "battle" }, name(from), name(to))
        }
        Phase::Occupy { from, to, min } => format!("occupy:{}>{}:{min}", name(from), name(to)),
        Phase::Fortify => "fortify".into(),
        Phase::Draw => "draw".into(),
        Phase::Over => "over".into(),
    }
}

fn parse_phase(map: &Map, text: &str) -> Result<Phase, String> {
    let route = |s: &str| -> Result<(u8, u8), String> {
        let (a, b) = s.split_once('>').ok_or_else(|| format!("phase '{text}': expected FROM>TO"))?;
        Ok((territory(map, a)?, territory(map, b)?))
    };
    Ok(match text.split_once(':') {
        None => match text {
            "deal" => Phase::Deal,
            "pick" => Phase::Pick,
            "setup" => Phase::Setup,
            "draft" => Phase::Draft,
            "attack" => Phase::Attack,
            "fortify" => Phase::Fortify,
            "draw" => Phase::Draw,
            "over" => Phase::Over,
            _ => return Err(format!("'{text}' is not a phase")),
        },
        Some((kind @ ("battle" | "blitz"), rest)) => {
            let (from, to) = route(rest)?;
            Phase::Battle { from, to, blitz: kind == "blitz" }
        }
        Some(("occupy", rest)) => {
            let (route_text, min) = rest
                .rsplit_once(':')
                .ok_or_else(|| format!("phase '{text}': expected occupy:FROM>TO:MIN"))?;
            let (from, to) = route(route_text)?;
            Phase::Occupy { from, to, min: count(min, "armies")? }
        }
        _ => return Err(format!("'{text}' is not a phase")),
    })
}

fn cards_text(map: &Map, set: u128) -> String {
    (0..128).filter(|&c| set & (1u128 << c) != 0).map(|c| map.card_name(c)).collect::<Vec<_>>().join(",")
}

fn parse_cards(map: &Map, text: &str) -> Result<u128, String> {
    let mut set = 0u128;
    for name in text.split(',').filter(|s| !s.is_empty()) {
        if name.starts_with('?') {
            return Err("hidden cards cannot be read back: this is one seat's view".into());
        }
        let c = card(map, name)?;
        if set & (1u128 << c) != 0 {
            return Err(format!("card '{name}' is listed twice"));
        }
        set |= 1u128 << c;
    }
    Ok(set)
}

/// The state in text; the hands of the seats in `hidden` as a count only.
pub fn state_text(state: &Risk, hidden: [bool; MAX_SEATS]) -> String {
    let map = state.map();
    let mut text = format!(
        "risk players={} round={} player={} phase={} reserve={} trades={} conquered={} acted={} dealt={}; ",
        state.players(),
        state.round,
        state.current,
        phase_text(map, state.phase),
        state.reserve,
        state.trades,
        u8::from(state.conquered),
        u8::from(state.acted),
        state.dealt,
    );
    text.push_str("territories");
    for (t, territory) in map.territories.iter().enumerate() {
        text.push_str(&format!(" {}={}:{}", territory.slug, owner_text(state.owner[t]), state.armies[t]));
    }
    text.push_str("; hands");
    for (seat, &hide) in hidden.iter().enumerate().take(state.players()) {
        if hide {
            text.push_str(&format!(" {seat}:?{}", state.hand_size(seat)));
        } else {
            text.push_str(&format!(" {seat}:{}", cards_text(map, state.hands[seat])));
        }
    }
    text.push_str(&format!("; discard {}", cards_text(map, state.discard)));
    text
}

/// The parts of a state as read, before they are checked.
struct Parts {
    round: u16,
    player: u8,
    phase: Phase,
    reserve: u16,
    trades: u16,
    conquered: bool,
    acted: bool,
    dealt: u8,
    territories: Vec<(u8, u16)>,
    hands: Vec<u128>,
    discard: u128,
}

pub fn parse_state(template: &Risk, text: &str) -> Result<Risk, Error> {
    read_text(template, text).and_then(|parts| assemble(template, parts)).map_err(Error::notation)
}

fn read_text(template: &Risk, text: &str) -> Result<Parts, String> {
    let map = template.map();
    // Sections are separated by ';' (one line, as the engine protocol needs) or by line breaks.
    let mut lines = text.split([';', '\n']).map(str::trim).filter(|l| !l.is_empty());
    let header = lines.next().ok_or("an empty Risk position")?;
    let mut words = header.split_whitespace();
    if words.next() != Some("risk") {
        return Err("a Risk position starts with 'risk'".into());
    }
    let mut fields = std::collections::HashMap::new();
    for word in words {
        let (key, value) =
            word.split_once('=').ok_or_else(|| format!("'{word}' in the header is not KEY=VALUE"))?;
        fields.insert(key, value);
    }
    let field = |key: &str| fields.get(key).copied().ok_or_else(|| format!("the header lacks '{key}='"));
    let number = |key: &str| -> Result<u16, String> {
        field(key)?.parse::<u16>().map_err(|_| format!("'{key}=' needs a number"))
    };
    let flag = |key: &str| -> Result<bool, String> {
        match field(key)? {
            "0" => Ok(false),
            "1" => Ok(true),
            other => Err(format!("'{key}={other}': expected 0 or 1")),
        }
    };
    let players = game_players(template, usize::from(number("players")?))?;
    let mut parts = Parts {
        round: number("round")?,
        player: u8::try_from(number("player")?).map_err(|_| "'player=' is too large".to_string())?,
        phase: parse_phase(map, field("phase")?)?,
        reserve: number("reserve")?,
        trades: number("trades")?,
        conquered: flag("conquered")?,
        acted: flag("acted")?,
        dealt: u8::try_from(number("dealt")?).map_err(|_| "'dealt=' is too large".to_string())?,
        territories: vec![(OPEN, 0); map.len()],
        hands: vec![0; players.min(MAX_SEATS)],
        discard: 0,
    };
    let mut seen_territories = 0u64;
    let (mut seen_hands, mut seen_discard) = (false, false);
    for line in lines {
        let (kind, rest) = line.split_once(' ').unwrap_or((line, ""));
        match kind {
            "territories" => {
                for entry in rest.split_whitespace() {
                    let (name, value) = entry
                        .split_once('=')
                        .ok_or_else(|| format!("'{entry}': expected TERRITORY=OWNER:ARMIES"))?;
                    let t = territory(map, name)?;
                    let (owner, armies) = value
                        .split_once(':')
                        .ok_or_else(|| format!("'{entry}': expected TERRITORY=OWNER:ARMIES"))?;
                    if seen_territories & (1 << t) != 0 {
                        return Err(format!("territory '{name}' is listed twice"));
                    }
                    seen_territories |= 1 << t;
                    parts.territories[t as usize] = (parse_owner(owner, players)?, count(armies, "armies")?);
                }
            }
            "hands" => {
                seen_hands = true;
                for entry in rest.split_whitespace() {
                    let (seat, cards) =
                        entry.split_once(':').ok_or_else(|| format!("'{entry}': expected SEAT:CARDS"))?;
                    let seat: usize = seat
                        .parse()
                        .ok()
                        .filter(|&s| s < parts.hands.len())
                        .ok_or_else(|| format!("'{entry}': no such seat"))?;
                    parts.hands[seat] = parse_cards(map, cards)?;
                }
            }
            "discard" => {
                seen_discard = true;
                parts.discard = parse_cards(map, rest.trim())?;
            }
            other => return Err(format!("unexpected line '{other} ...' in a Risk position")),
        }
    }
    if seen_territories != map.all() {
        let missing = (0..map.len()).find(|&t| seen_territories & (1 << t) == 0).unwrap_or(0);
        return Err(format!("territory '{}' is missing", map.territories[missing].slug));
    }
    if !seen_hands || !seen_discard {
        return Err("a Risk position lists 'hands' and 'discard'".into());
    }
    Ok(parts)
}

/// Builds the state from its parts and checks that it is one the rules can reach (enough for
/// every rule to apply to it safely).
fn assemble(template: &Risk, parts: Parts) -> Result<Risk, String> {
    let map = template.map();
    let rules = *template.rules();
    let mut state = template.clone();
    state.round = parts.round;
    state.current = parts.player;
    state.phase = parts.phase;
    state.reserve = parts.reserve;
    state.trades = parts.trades;
    state.conquered = parts.conquered;
    state.acted = parts.acted;
    state.dealt = parts.dealt;
    state.owner = [OPEN; 64];
    state.armies = [0; 64];
    for (t, &(owner, armies)) in parts.territories.iter().enumerate() {
        if owner == NEUTRAL && !rules.neutral {
            return Err(format!("'{}' is neutral but the game has no neutral side", map.territories[t].slug));
        }
        state.owner[t] = owner;
        state.armies[t] = armies;
    }
    state.hands = [0; MAX_SEATS];
    state.hands[..parts.hands.len()].copy_from_slice(&parts.hands);
    state.discard = parts.discard;
    crate::validate::check(&state).map(|()| state)
}

pub fn state_json(state: &Risk, hidden: [bool; MAX_SEATS]) -> Value {
    let map = state.map();
    let territories: Vec<Value> = (0..map.len())
        .map(|t| {
            json!({
                "territory": map.territories[t].slug,
                "owner": owner_json(state.owner[t]),
                "armies": state.armies[t],
            })
        })
        .collect();
    let card_list = |set: u128| -> Vec<String> {
        (0..128).filter(|&c| set & (1u128 << c) != 0).map(|c| map.card_name(c)).collect()
    };
    let hands: Vec<Value> = (0..state.players())
        .map(|seat| if hidden[seat] { Value::Null } else { json!(card_list(state.hands[seat])) })
        .collect();
    let hand_sizes: Vec<usize> = (0..state.players()).map(|seat| state.hand_size(seat)).collect();
    json!({
        "players": state.players(),
        "round": state.round,
        "player": state.current,
        "phase": phase_text(map, state.phase),
        "reserve": state.reserve,
        "trades": state.trades,
        "next_set_value": state.next_set_value(),
        "conquered": state.conquered,
        "acted": state.acted,
        "dealt": state.dealt,
        "territories": territories,
        "hands": hands,
        "hand_sizes": hand_sizes,
        "deck_size": state.deck().count_ones(),
        "discard": card_list(state.discard),
    })
}

fn owner_json(owner: u8) -> Value {
    match owner {
        NEUTRAL => json!("neutral"),
        OPEN => Value::Null,
        seat => json!(seat),
    }
}

pub fn state_from_json(template: &Risk, json: &Value) -> Result<Risk, Error> {
    read_json(template, json).and_then(|parts| assemble(template, parts)).map_err(Error::notation)
}

fn read_json(template: &Risk, json: &Value) -> Result<Parts, String> {
    let map = template.map();
    let number = |key: &str| -> Result<u64, String> {
        json.get(key).and_then(Value::as_u64).ok_or_else(|| format!("'{key}' must be a number"))
    };
    let small = |key: &str| -> Result<u16, String> {
        u16::try_from(number(key)?).map_err(|_| format!("'{key}' is too large"))
    };
    let flag = |key: &str| {
        json.get(key).and_then(Value::as_bool).ok_or_else(|| format!("'{key}' must be true or false"))
    };
    let players = game_players(template, small("players")? as usize)?;
    let phase_text = json.get("phase").and_then(Value::as_str).ok_or("'phase' must be a string")?;
    let mut territories = vec![(OPEN, 0); map.len()];
    let list = json.get("territories").and_then(Value::as_array).ok_or("'territories' must be a list")?;
    let mut seen = 0u64;
    for entry in list {
        let t = territory(
            map,
            entry.get("territory").and_then(Value::as_str).ok_or("a territory needs its name")?,
        )?;
        if seen & (1 << t) != 0 {
            return Err(format!("territory '{}' is listed twice", map.territories[t as usize].slug));
        }
        seen |= 1 << t;
        let owner = match entry.get("owner") {
            None | Some(Value::Null) => OPEN,
            Some(Value::String(s)) => parse_owner(s, players)?,
            Some(Value::Number(n)) => parse_owner(&n.to_string(), players)?,
            Some(other) => return Err(format!("'{other}' is not an owner")),
        };
        let armies = entry.get("armies").and_then(Value::as_u64).and_then(|a| u16::try_from(a).ok());
        territories[t as usize] = (owner, armies.ok_or("a territory's 'armies' must be a number")?);
    }
    if seen != map.all() {
        return Err("every territory must be listed".into());
    }
    let cards = |value: &Value| -> Result<u128, String> {
        let names =
            value.as_array().ok_or("cards must be a list of names (hidden hands cannot be read back)")?;
        let names: Vec<&str> =
            names.iter().map(|v| v.as_str().ok_or("a card is a name")).collect::<Result<_, _>>()?;
        parse_cards(map, &names.join(","))
    };
    let hand_values = json.get("hands").and_then(Value::as_array).ok_or("'hands' must be a list")?;
    if hand_values.len() != players.min(MAX_SEATS) {
        return Err(format!("'hands' must have one list per player ({players})"));
    }
    Ok(Parts {
        round: small("round")?,
        player: u8::try_from(number("player")?).map_err(|_| "'player' is too large".to_string())?,
        phase: parse_phase(map, phase_text)?,
        reserve: small("reserve")?,
        trades: small("trades")?,
        conquered: flag("conquered")?,
        acted: flag("acted")?,
        dealt: u8::try_from(number("dealt")?).map_err(|_| "'dealt' is too large".to_string())?,
        territories,
        hands: hand_values.iter().map(cards).collect::<Result<_, _>>()?,
        discard: cards(json.get("discard").ok_or("'discard' is missing")?)?,
    })
}

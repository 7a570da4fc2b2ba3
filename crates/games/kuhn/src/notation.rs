//! Kuhn poker's notation (docs/kuhn.md).
//!
//! A state is the two cards, player 0's first — `J`, `Q`, `K`, `-` not dealt yet, `?` hidden
//! from the viewer — then, after a space, the betting so far as `p` (pass) and `b` (bet):
//! `--` before the deal, `KQ` dealt, `KQ pb` after a pass and a bet. Actions: `J`, `Q`, `K` (a
//! card dealt), `pass` (also `p`, `check`, `fold`) and `bet` (also `b`, `call`).

use ply_core::{Error, Game};
use serde_json::{Value, json};

use crate::{JACK, KING, Kuhn, KuhnAction, QUEEN};

const CARDS: [char; 3] = ['J', 'Q', 'K'];

pub fn action_text(action: KuhnAction) -> String {
    match action {
        KuhnAction::Deal(card) => CARDS[card as usize].to_string(),
        KuhnAction::Pass => "pass".into(),
        KuhnAction::Bet => "bet".into(),
    }
}

pub fn parse_action(text: &str) -> Result<KuhnAction, Error> {
    match text.trim().to_ascii_lowercase().as_str() {
        "j" => Ok(KuhnAction::Deal(JACK)),
        "q" => Ok(KuhnAction::Deal(QUEEN)),
        "k" => Ok(KuhnAction::Deal(KING)),
        "p" | "pass" | "check" | "fold" => Ok(KuhnAction::Pass),
        "b" | "bet" | "call" => Ok(KuhnAction::Bet),
        _ => Err(Error::notation(format!(
            "'{text}' is not a Kuhn poker action: pass, bet (check, fold, call) or a card J, Q, K"
        ))),
    }
}

fn card_char(card: Option<u8>, hidden: bool) -> char {
    match card {
        None => '-',
        Some(_) if hidden => '?',
        Some(c) => CARDS[c as usize],
    }
}

fn betting(state: &Kuhn) -> String {
    state.history().iter().map(|&bet| if bet { 'b' } else { 'p' }).collect()
}

/// The state's text with the cards of the seats in `hidden` masked.
pub fn state_text(state: &Kuhn, hidden: [bool; 2]) -> String {
    let mut text: String = (0..2).map(|p| card_char(state.card(p), hidden[p])).collect();
    let bets = betting(state);
    if !bets.is_empty() {
        text.push(' ');
        text.push_str(&bets);
    }
    text
}

pub fn parse_state(text: &str) -> Result<Kuhn, Error> {
    let mut parts = text.split_whitespace();
    let cards = parts.next().ok_or_else(|| Error::notation("an empty Kuhn poker position"))?;
    let bets = parts.next().unwrap_or("");
    if let Some(extra) = parts.next() {
        return Err(Error::notation(format!("'{extra}' after the betting: a position is 'KQ pb'")));
    }
    let chars: Vec<char> = cards.chars().collect();
    if chars.len() != 2 {
        return Err(Error::notation(format!("'{cards}' is not two cards (J, Q, K, or - not dealt)")));
    }
    let mut state = Kuhn::default();
    for (seat, &c) in chars.iter().enumerate() {
        state.cards[seat] = match c.to_ascii_uppercase() {
            '-' => None,
            other => match CARDS.iter().position(|&k| k == other) {
                Some(card) => Some(card as u8),
                None => return Err(Error::notation(format!("'{c}' is not a card (J, Q, K, or -)"))),
            },
        };
    }
    if state.cards[0].is_none() && state.cards[1].is_some() {
        return Err(Error::notation("player 0's card is dealt first"));
    }
    if state.cards[0].is_some() && state.cards[0] == state.cards[1] {
        return Err(Error::notation("both players hold the same card"));
    }
    if !bets.is_empty() && state.cards[1].is_none() {
        return Err(Error::notation("betting starts once both cards are dealt"));
    }
    for c in bets.chars() {
        if state.turn() == ply_core::Turn::Over {
            return Err(Error::notation(format!("'{bets}': the hand was over before its end")));
        }
        match c {
            'p' | 'P' => state.apply(KuhnAction::Pass),
            'b' | 'B' => state.apply(KuhnAction::Bet),
            other => return Err(Error::notation(format!("'{other}' is not p (pass) or b (bet)"))),
        }
    }
    Ok(state)
}

pub fn state_json(state: &Kuhn, hidden: [bool; 2]) -> Value {
    let cards: Vec<Value> = (0..2)
        .map(|p| match state.card(p) {
            None => Value::Null,
            Some(_) if hidden[p] => json!("?"),
            Some(c) => json!(CARDS[c as usize].to_string()),
        })
        .collect();
    let to_move = match state.turn() {
        ply_core::Turn::Player(p) => json!(p),
        _ => Value::Null,
    };
    json!({
        "cards": cards,
        "betting": betting(state),
        "pot": state.pot(),
        "to_move": to_move,
        "net_for_first": state.net_for_first(),
    })
}

pub fn state_from_json(json: &Value) -> Result<Kuhn, Error> {
    let cards = json.get("cards").and_then(Value::as_array).filter(|c| c.len() == 2).ok_or_else(|| {
        Error::notation("a Kuhn poker position needs \"cards\": [card or null, card or null]")
    })?;
    let mut text = String::new();
    for card in cards {
        match card {
            Value::Null => text.push('-'),
            Value::String(s) if s.chars().count() == 1 => text.push_str(s),
            other => {
                return Err(Error::notation(format!("{other} is not a card (\"J\", \"Q\", \"K\" or null)")));
            }
        }
    }
    let bets = match json.get("betting") {
        None | Some(Value::Null) => "",
        Some(Value::String(s)) => s.as_str(),
        Some(other) => {
            return Err(Error::notation(format!("\"betting\" must be a string of p and b, got {other}")));
        }
    };
    parse_state(&format!("{text} {bets}"))
}

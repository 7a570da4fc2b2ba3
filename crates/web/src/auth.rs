//! Who may do what to a game: each human seat has a secret token, given once to the client that
//! created the game, and a game has an owner token for what concerns the whole game (pause,
//! speed, abort). A request shows a token as `Authorization: Bearer <token>`. Anyone may watch.
//! Tokens are capabilities, not accounts: whoever holds a seat's token plays that seat, which is
//! how a game is shared (docs/web-api.md, "Seats and tokens").

use axum::http::{HeaderMap, StatusCode, header};
use serde::{Deserialize, Serialize};

use crate::model::{ApiError, ApiResult};

/// A game's tokens, stored with it and sent only in the reply that creates it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tokens {
    pub owner: String,
    /// One per seat: a token for a human seat, `None` for an AI.
    pub seats: Vec<Option<String>>,
}

impl Tokens {
    pub fn new(human: impl Iterator<Item = bool>) -> Tokens {
        Tokens { owner: new_token(), seats: human.map(|h| h.then(new_token)).collect() }
    }

    /// The seat `token` is for, if any.
    pub fn seat_of(&self, token: &str) -> Option<usize> {
        self.seats.iter().position(|t| t.as_deref().is_some_and(|t| same(t, token)))
    }

    pub fn is_owner(&self, token: &str) -> bool {
        same(&self.owner, token)
    }
}

/// 128 bits from the operating system's generator (through rand's thread-local ChaCha), as hex.
pub fn new_token() -> String {
    format!("{:032x}", rand::random::<u128>())
}

/// Compares without stopping at the first difference, so that timing says nothing about how
/// much of a guess was right.
pub fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The token a request carries, if any.
pub fn bearer(headers: &HeaderMap) -> ApiResult<Option<String>> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let text = value.to_str().ok().and_then(|v| v.strip_prefix("Bearer ")).map(str::trim);
    match text {
        Some(token) if !token.is_empty() => Ok(Some(token.to_string())),
        _ => Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "the Authorization header must be 'Bearer <token>', the token of a seat or of the game",
        )),
    }
}

/// Refusal for a request that needs `what` token and came without one or with another.
pub fn refused(token: Option<&str>, what: &str) -> ApiError {
    match token {
        None => ApiError::new(
            StatusCode::UNAUTHORIZED,
            format!("this needs {what} (Authorization: Bearer <token>, given when the game was created)"),
        ),
        Some(_) => ApiError::new(StatusCode::FORBIDDEN, format!("that token is not {what}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_distinct_and_long() {
        let a = new_token();
        assert_eq!(a.len(), 32);
        assert_ne!(a, new_token());
    }

    #[test]
    fn a_token_finds_its_seat_and_only_its_seat() {
        let tokens = Tokens::new([true, false, true].into_iter());
        assert!(tokens.seats[1].is_none());
        assert_eq!(tokens.seat_of(tokens.seats[2].as_deref().unwrap()), Some(2));
        assert_eq!(tokens.seat_of(&tokens.owner), None);
        assert!(tokens.is_owner(&tokens.owner));
        assert_eq!(tokens.seat_of("0123"), None);
    }
}

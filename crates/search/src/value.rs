//! The value scale shared by the tree searches (alpha-beta, expectimax and their reference
//! implementation), from the root player's point of view.
//!
//! A finished game is worth its [`margin`](ply_core::Returns::margin) times [`WIN`]. A heuristic
//! leaf is worth the evaluator's value clamped to [-1, 1] ([`EvalScale::Rank`]: no heuristic
//! outweighs a result), or, when the evaluator estimates the expected result, as in games with
//! chance, that value on the scale of results ([`EvalScale::Expected`]).
//! Every player decision multiplies its child's value by [`DISCOUNT`]: a win in 3 plies is worth
//! more than a win in 5 and a loss is put off as long as possible. Because the discount is applied
//! per level below a node, a node's value depends only on its subtree, which keeps
//! transposition-table entries valid wherever the position recurs.

use ply_core::{Game, Player};

use crate::heuristics::Evaluator;

pub const WIN: f64 = 1000.0;
pub const DISCOUNT: f64 = 0.999;

pub fn terminal_value<G: Game>(state: &G, root: Player) -> f64 {
    state.returns().margin(root) * WIN
}

/// What an evaluator's value means next to a finished game's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalScale {
    /// Values only rank unfinished positions: every result outweighs every heuristic. Right for
    /// deterministic games, where a proven result is certain.
    #[default]
    Rank,
    /// A value is the expected result (2 P(win) - 1 in a two-player game) and counts as that
    /// share of a result. Chance nodes average their outcomes, so a one-in-six chance of losing
    /// at once must weigh what it is worth, not more than any position still in play.
    Expected,
}

impl EvalScale {
    /// The names agent specs use, in the order of the variants.
    pub const NAMES: [&'static str; 2] = ["rank", "expected"];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    pub fn from_name(name: &str) -> Option<Self> {
        [EvalScale::Rank, EvalScale::Expected].into_iter().find(|s| s.name() == name)
    }
}

/// What a heuristic value of 1 is worth on [`EvalScale::Expected`]: a little less than a win, so
/// that a proven win within ten moves is still preferred.
pub const EXPECTED_SCALE: f64 = 0.99 * WIN;

pub fn heuristic_value<G: Game, E: Evaluator<G> + ?Sized>(
    eval: &E,
    state: &G,
    root: Player,
    scale: EvalScale,
) -> f64 {
    let value = eval.evaluate(state, root).clamp(-1.0, 1.0);
    match scale {
        EvalScale::Rank => value,
        EvalScale::Expected => value * EXPECTED_SCALE,
    }
}

/// If `value` is a certain win or loss reached after a whole number of discounted plies, that
/// number: positive for a win, negative for a loss.
pub fn proven_plies(value: f64) -> Option<i32> {
    if value.abs() <= 1.0 {
        return None;
    }
    let plies = (value.abs() / WIN).ln() / DISCOUNT.ln();
    let rounded = plies.round();
    if (plies - rounded).abs() < 1e-6 && rounded >= 0.0 {
        let n = rounded as i32;
        Some(if value > 0.0 { n } else { -n })
    } else {
        None
    }
}

/// The search value mapped to the [-1, 1] scale of [`ply_core::SearchInfo::value`].
pub fn reported_value(value: f64) -> f64 {
    if value.abs() > 1.0 { value.signum() * (value.abs() / WIN).min(1.0) } else { value }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proven_values_round_trip() {
        assert_eq!(proven_plies(WIN * DISCOUNT.powi(7)), Some(7));
        assert_eq!(proven_plies(-WIN * DISCOUNT.powi(2)), Some(-2));
        assert_eq!(proven_plies(0.5), None);
        assert_eq!(proven_plies(0.6 * WIN), None);
    }
}

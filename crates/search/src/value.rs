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

/// What a tree search's depth counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DepthUnit {
    /// Player decisions: every move is a level.
    #[default]
    Actions,
    /// Whole turns ([`Game::continues_turn`]): the decisions within a turn cost nothing, and a
    /// position is judged only between turns, never with a turn half made.
    Turns,
}

impl DepthUnit {
    /// Whether `state`, reached with `depth` left, is scored by the evaluator.
    pub fn is_leaf<G: Game>(self, state: &G, depth: u32) -> bool {
        depth == 0 && (self == DepthUnit::Actions || !state.continues_turn())
    }

    /// The depth left below player node `state`, searched with `depth` left.
    pub fn child_depth<G: Game>(self, state: &G, depth: u32) -> u32 {
        match self {
            DepthUnit::Turns if state.continues_turn() => depth,
            _ => depth.saturating_sub(1),
        }
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

/// Every seat's expected score from a search value for `mover`, where the value says it: a
/// proven result, or in a two-player game a value on [`EvalScale::Expected`] (whose
/// `(1 + value) / 2` is the mover's expected score). A value on [`EvalScale::Rank`] only ranks
/// positions and says nothing of chances: empty then, as for more than two players.
pub fn seat_scores(value: f64, scale: EvalScale, mover: Player, players: usize) -> Vec<f64> {
    let mover_score = match proven_plies(value) {
        Some(plies) => f64::from(u8::from(plies > 0)),
        None if scale == EvalScale::Expected => (1.0 + reported_value(value)) / 2.0,
        None => return Vec::new(),
    };
    if players != 2 {
        return Vec::new();
    }
    let mut scores = vec![1.0 - mover_score; 2];
    scores[mover] = mover_score;
    scores
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

    #[test]
    fn seat_scores_only_where_the_value_is_a_chance() {
        assert_eq!(seat_scores(0.5, EvalScale::Expected, 1, 2), vec![0.25, 0.75]);
        assert_eq!(seat_scores(0.5, EvalScale::Rank, 1, 2), Vec::<f64>::new());
        assert_eq!(seat_scores(-WIN * DISCOUNT.powi(3), EvalScale::Rank, 0, 2), vec![0.0, 1.0]);
        assert_eq!(seat_scores(0.5, EvalScale::Expected, 0, 3), Vec::<f64>::new());
    }
}

//! How long to think on a move with a time budget: iterative deepening goes on until a target
//! share of the budget is used, longer while the best move keeps changing, shorter once it has
//! settled; the budget itself is the hard limit, where an unfinished iteration is cut off and
//! its best fully searched move kept. Without a time budget (iterations, or none) this never
//! stops the search: node-budgeted searches stay the same whatever the machine's speed.

use std::time::Duration;

use crate::board::Point;

/// The most of the budget the target grows to while the best move changes; the rest is left
/// for the iteration under way, which the budget cuts off.
pub(super) const MOST_SHARE: f64 = 0.9;
/// How much of the instability an iteration keeps from the one before.
const INSTABILITY_KEPT: f64 = 0.5;

pub(super) struct TimeManager {
    budget: Option<Duration>,
    /// The share of the budget a move with a settled best move is given.
    target_share: f64,
    best: Option<Point>,
    /// Changes of the best move, recent ones counting most.
    instability: f64,
}

impl TimeManager {
    pub(super) fn new(budget: Option<Duration>, target_share: f64) -> TimeManager {
        TimeManager { budget, target_share, best: None, instability: 0.0 }
    }

    /// An iteration has finished with `best` on top.
    pub(super) fn iteration_done(&mut self, best: Point) {
        self.instability *= INSTABILITY_KEPT;
        if self.best.is_some_and(|b| b != best) {
            self.instability += 1.0;
        }
        self.best = Some(best);
    }

    /// Whether to stop deepening, `elapsed` into the move.
    pub(super) fn enough(&self, elapsed: Duration) -> bool {
        let Some(budget) = self.budget else { return false };
        let share = (self.target_share * (1.0 + self.instability)).min(MOST_SHARE);
        elapsed >= budget.mul_f64(share)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECOND: Duration = Duration::from_secs(1);

    #[test]
    fn a_settled_move_stops_at_the_target_and_a_changing_one_goes_on() {
        let mut settled = TimeManager::new(Some(SECOND), 0.45);
        for _ in 0..6 {
            settled.iteration_done(7);
        }
        assert!(!settled.enough(SECOND.mul_f64(0.4)));
        assert!(settled.enough(SECOND.mul_f64(0.46)));

        let mut changing = TimeManager::new(Some(SECOND), 0.45);
        for best in [7, 8, 7, 9] {
            changing.iteration_done(best);
        }
        assert!(!changing.enough(SECOND.mul_f64(0.8)));
        assert!(changing.enough(SECOND.mul_f64(0.9)));
    }

    #[test]
    fn a_move_told_to_spend_its_time_goes_on_however_settled() {
        let mut spender = TimeManager::new(Some(SECOND), MOST_SHARE);
        for _ in 0..6 {
            spender.iteration_done(7);
        }
        assert!(!spender.enough(SECOND.mul_f64(0.85)));
        assert!(spender.enough(SECOND.mul_f64(0.9)));
    }

    #[test]
    fn without_a_time_budget_it_never_stops_the_search() {
        let mut manager = TimeManager::new(None, 0.45);
        manager.iteration_done(3);
        assert!(!manager.enough(Duration::from_secs(3600)));
    }
}

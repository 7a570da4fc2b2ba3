//! How long an agent may think: wall time, a count of iterations (nodes, simulations), or both,
//! and a flag that stops it at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A thinking budget. With only `iterations` set, an agent's choice depends on nothing but its
/// seed and the position, so matches replay exactly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    pub time: Option<Duration>,
    /// What one iteration is depends on the agent: a node for alpha-beta, a simulation for MCTS.
    pub iterations: Option<u64>,
}

impl Budget {
    pub fn iterations(n: u64) -> Self {
        Budget { time: None, iterations: Some(n) }
    }

    pub fn millis(ms: u64) -> Self {
        Budget { time: Some(Duration::from_millis(ms)), iterations: None }
    }

    pub fn is_unlimited(&self) -> bool {
        self.time.is_none() && self.iterations.is_none()
    }

    /// This budget where it sets a limit, `fallback`'s limits where it does not.
    pub fn or(self, fallback: Budget) -> Budget {
        if self.is_unlimited() { fallback } else { self }
    }
}

/// A seat's budget when it is given per turn and the turn is several decisions: a new turn
/// starts the whole budget; each decision gets the share of what is left that the game's count
/// of remaining decisions suggests (all of it for the turn's last decision, half when the game
/// cannot say), and what the decision spent is taken off. In a game of one decision per turn
/// every decision gets the whole budget.
#[derive(Clone, Copy, Debug, Default)]
pub struct TurnBudget {
    left: Option<Budget>,
}

impl TurnBudget {
    /// The budget for the next decision. `continues`: the seat already acted in this turn
    /// ([`crate::Game::continues_turn`]); `decisions_left`: [`crate::Game::decisions_left_in_turn`].
    pub fn decision(&mut self, full: Budget, continues: bool, decisions_left: Option<u32>) -> Budget {
        let left = match self.left {
            Some(left) if continues => left,
            _ => full,
        };
        self.left = Some(left);
        let parts = u64::from(decisions_left.unwrap_or(2).max(1));
        Budget {
            time: left.time.map(|t| (t / parts as u32).max(Duration::from_millis(1))),
            iterations: left.iterations.map(|n| (n / parts).max(1)),
        }
    }

    /// Takes what a decision spent off the turn's budget.
    pub fn spent(&mut self, iterations: u64, elapsed: Duration) {
        if let Some(left) = &mut self.left {
            left.time = left.time.map(|t| t.saturating_sub(elapsed));
            left.iterations = left.iterations.map(|n| n.saturating_sub(iterations));
        }
    }
}

/// A shared stop request: set it from another thread and the agent returns its best move so far.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    pub fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// A budget together with the stop flag, as handed to an agent.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub budget: Budget,
    pub stop: StopFlag,
}

impl Limits {
    pub fn new(budget: Budget) -> Self {
        Limits { budget, stop: StopFlag::new() }
    }

    /// Starts the clock for one decision.
    pub fn start(&self) -> Clock {
        Clock {
            started: Instant::now(),
            deadline: self.budget.time.map(|t| Instant::now() + t),
            iterations: self.budget.iterations,
            stop: self.stop.clone(),
        }
    }
}

/// The running clock of one decision.
#[derive(Clone, Debug)]
pub struct Clock {
    started: Instant,
    deadline: Option<Instant>,
    iterations: Option<u64>,
    stop: StopFlag,
}

impl Clock {
    /// Whether the agent must stop after having done `done` iterations. Reading the time costs
    /// a system call, so hot loops call this every few hundred iterations, or use
    /// [`Clock::iterations_exhausted`] in between.
    pub fn should_stop(&self, done: u64) -> bool {
        self.iterations_exhausted(done) || self.time_is_up() || self.stop.is_stopped()
    }

    /// Calls `step` until `iterations` are done, the time is up or a stop is asked — reading the
    /// time every `check_every` steps — or, with neither an iteration budget nor a deadline,
    /// `unbounded` times. Returns the steps done.
    pub fn repeat(
        &self,
        iterations: Option<u64>,
        unbounded: u64,
        check_every: u64,
        mut step: impl FnMut(),
    ) -> u64 {
        let limit = match (iterations, self.has_deadline()) {
            (Some(n), _) => n,
            (None, true) => u64::MAX,
            (None, false) => unbounded,
        };
        let mut done = 0;
        while done < limit {
            if done > 0 && done.is_multiple_of(check_every) && (self.time_is_up() || self.stopped()) {
                break;
            }
            step();
            done += 1;
        }
        done
    }

    pub fn iterations_exhausted(&self, done: u64) -> bool {
        self.iterations.is_some_and(|limit| done >= limit)
    }

    pub fn time_is_up(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    pub fn stopped(&self) -> bool {
        self.stop.is_stopped()
    }

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    pub fn iteration_limit(&self) -> Option<u64> {
        self.iterations
    }

    /// The time left before the deadline (zero once it has passed), if there is one.
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline.map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// A clock for part of this one's budget, started now, with the same stop flag: `share` of
    /// its time, never past its deadline, and `share` of its iterations counted on from `done`,
    /// never past its limit — for a sub-search that must leave the rest to what follows.
    pub fn part(&self, share: f64, done: u64) -> Clock {
        let now = Instant::now();
        let total = |deadline: Instant| deadline.saturating_duration_since(self.started);
        Clock {
            started: now,
            deadline: self.deadline.map(|d| (now + total(d).mul_f64(share)).min(d)),
            iterations: self.iterations.map(|n| (done + (n as f64 * share) as u64).min(n)),
            stop: self.stop.clone(),
        }
    }

    pub fn has_deadline(&self) -> bool {
        self.deadline.is_some()
    }

    /// The share of the time budget used so far, 0 without a time budget.
    pub fn time_used_fraction(&self) -> f64 {
        match self.deadline {
            Some(deadline) => {
                let total = deadline.saturating_duration_since(self.started).as_secs_f64();
                if total <= 0.0 { 1.0 } else { self.elapsed().as_secs_f64() / total }
            }
            None => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_of_one_decision_gets_the_whole_budget_every_time() {
        let full = Budget { time: Some(Duration::from_millis(900)), iterations: Some(3000) };
        let mut turn = TurnBudget::default();
        for _ in 0..3 {
            assert_eq!(turn.decision(full, false, Some(1)), full);
            turn.spent(2999, Duration::from_millis(800));
        }
    }

    #[test]
    fn a_part_of_a_clock_never_outlasts_it() {
        let limits = Limits::new(Budget { time: Some(Duration::from_secs(3600)), iterations: Some(1000) });
        let clock = limits.start();
        let part = clock.part(0.25, 100);
        assert_eq!(part.iteration_limit(), Some(350));
        assert!(part.remaining().unwrap() <= Duration::from_secs(900));
        assert!(part.remaining().unwrap() > Duration::from_secs(800));
        // Late in the budget, a share is cut to what is left.
        assert_eq!(clock.part(0.5, 900).iteration_limit(), Some(1000));
        let spent = Limits::new(Budget { time: Some(Duration::ZERO), iterations: None }).start();
        assert!(spent.part(0.5, 0).time_is_up());
        // The stop flag is shared.
        limits.stop.stop();
        assert!(part.stopped());
    }

    #[test]
    fn a_long_turn_shares_its_budget_out() {
        let full = Budget::iterations(1200);
        let mut turn = TurnBudget::default();
        // Three decisions known to remain: a third each, then what is left.
        assert_eq!(turn.decision(full, false, Some(3)), Budget::iterations(400));
        turn.spent(400, Duration::ZERO);
        assert_eq!(turn.decision(full, true, Some(2)), Budget::iterations(400));
        turn.spent(300, Duration::ZERO);
        assert_eq!(turn.decision(full, true, Some(1)), Budget::iterations(500), "the last gets what is left");
        turn.spent(500, Duration::ZERO);
        // Unknown length: half of what is left, never nothing.
        assert_eq!(turn.decision(full, true, None), Budget::iterations(1));
        assert_eq!(turn.decision(full, false, None), Budget::iterations(600), "a new turn starts afresh");
    }
}

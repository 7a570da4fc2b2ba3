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

//! Scores, Elo differences with 95% intervals, and the sequential probability ratio test.

use serde::Serialize;

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_985;

/// An agent's results: wins, draws, losses and the sum (and sum of squares) of its per-game
/// scores, which lie in [0, 1] (1 win, 0.5 draw, or a share in multi-player games).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Score {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub points: f64,
    pub points_squared: f64,
}

/// An Elo difference and its 95% interval; infinite where the score is 0% or 100%.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

impl Score {
    /// Adds one game in which this agent scored `score` and the opponent `opponent_score`.
    pub fn add(&mut self, score: f64, opponent_score: f64) {
        if score > opponent_score {
            self.wins += 1;
        } else if score < opponent_score {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
        self.points += score;
        self.points_squared += score * score;
    }

    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Mean score per game, 0.5 before any game.
    pub fn mean(&self) -> f64 {
        if self.games() == 0 { 0.5 } else { self.points / self.games() as f64 }
    }

    /// Variance of one game's score.
    pub fn variance(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        (self.points_squared / n - self.mean().powi(2)).max(0.0)
    }

    /// The 95% interval of the mean score, clamped to [0, 1]. Where every game scored the same
    /// (all wins, say) the observed variance is zero and says nothing about the error, so the
    /// Wilson score interval for a proportion is used instead: 100 wins in 100 games give
    /// [96.3%, 100%], not [100%, 100%].
    pub fn interval(&self) -> (f64, f64) {
        let n = self.games() as f64;
        if n == 0.0 {
            return (0.0, 1.0);
        }
        let p = self.mean();
        let variance = self.variance();
        if variance > 1e-12 {
            let half = Z95 * (variance / n).sqrt();
            return ((p - half).max(0.0), (p + half).min(1.0));
        }
        let z2 = Z95 * Z95;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        // Snap rounding noise at the ends, so that a perfect score reads as exactly 100%.
        let snap = |x: f64| {
            if x < 1e-9 {
                0.0
            } else if x > 1.0 - 1e-9 {
                1.0
            } else {
                x
            }
        };
        (snap(centre - half), snap(centre + half))
    }

    pub fn elo(&self) -> EloEstimate {
        let (low, high) = self.interval();
        EloEstimate { elo: elo_from_score(self.mean()), low: elo_from_score(low), high: elo_from_score(high) }
    }

    pub fn merge(&mut self, other: &Score) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.points += other.points;
        self.points_squared += other.points_squared;
    }
}

/// The logistic Elo difference that gives an expected score `score`.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Formats an Elo estimate as `+35 [+12, +58]`.
pub fn format_elo(e: &EloEstimate) -> String {
    fn one(x: f64) -> String {
        if x.is_infinite() { if x > 0.0 { "+inf".into() } else { "-inf".into() } } else { format!("{x:+.0}") }
    }
    format!("{} [{}, {}]", one(e.elo), one(e.low), one(e.high))
}

/// Which hypothesis an SPRT accepted, if any yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SprtVerdict {
    /// H1: the first agent is at least `elo1` stronger.
    H1,
    /// H0: it is at most `elo0` stronger.
    H0,
    Continue,
}

/// A sequential probability ratio test of H0: Elo = elo0 against H1: Elo = elo1, with error
/// rates alpha (accepting H1 wrongly) and beta (accepting H0 wrongly). The log-likelihood ratio
/// uses the normal approximation of the per-game score with its observed variance, as chess
/// testing frameworks do.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl Sprt {
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    pub fn llr(&self, score: &Score) -> f64 {
        let n = score.games() as f64;
        let variance = score.variance();
        if n < 2.0 || variance <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        (s1 - s0) * (2.0 * score.mean() - s0 - s1) * n / (2.0 * variance)
    }

    pub fn verdict(&self, score: &Score) -> SprtVerdict {
        let llr = self.llr(score);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::H1
        } else if llr <= lower {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        assert!((elo_from_score(0.5)).abs() < 1e-9);
        assert!((elo_from_score(0.75) - 190.85).abs() < 0.01);
        assert!((score_from_elo(elo_from_score(0.64)) - 0.64).abs() < 1e-12);
    }

    #[test]
    fn unanimous_results_still_have_an_interval() {
        let mut all_wins = Score::default();
        for _ in 0..100 {
            all_wins.add(1.0, 0.0);
        }
        let (low, high) = all_wins.interval();
        assert!((low - 1.0 / (1.0 + Z95 * Z95 / 100.0)).abs() < 1e-12 && high == 1.0);
        assert!(all_wins.elo().low.is_finite() && all_wins.elo().high.is_infinite());
    }

    #[test]
    fn interval_narrows_with_games() {
        let mut few = Score::default();
        let mut many = Score::default();
        for i in 0..40 {
            few.add(if i % 4 == 0 { 0.0 } else { 1.0 }, 0.0);
        }
        for i in 0..4000 {
            many.add(if i % 4 == 0 { 0.0 } else { 1.0 }, 0.0);
        }
        assert_eq!(few.mean(), many.mean());
        let width = |s: &Score| s.interval().1 - s.interval().0;
        assert!(width(&many) < width(&few) / 5.0);
        // 75% over 4000 games: sd of a game 0.433, se 0.00685, half-width 0.0134.
        assert!((width(&many) / 2.0 - 0.01342).abs() < 1e-4);
    }

    #[test]
    fn sprt_accepts_the_true_hypothesis() {
        let sprt = Sprt { elo0: 0.0, elo1: 50.0, alpha: 0.05, beta: 0.05 };
        let mut strong = Score::default();
        let mut even = Score::default();
        for i in 0..2000 {
            strong.add(if i % 10 < 6 { 1.0 } else { 0.0 }, 0.5); // 60%: about +70 Elo
            even.add(if i % 2 == 0 { 1.0 } else { 0.0 }, 0.5);
        }
        assert_eq!(sprt.verdict(&strong), SprtVerdict::H1);
        assert_eq!(sprt.verdict(&even), SprtVerdict::H0);
        assert_eq!(sprt.verdict(&Score::default()), SprtVerdict::Continue);
    }
}

//! Determinized search (Perfect-Information Monte Carlo, PIMC): the player to move cannot see
//! the hidden part of the state, so it draws several states it cannot tell from the real one
//! ([`Game::resample_hidden`]), lets a perfect-information agent search each with a share of the
//! budget, and plays the action chosen in the most of them (ties: the earliest world's choice).
//! Simple and often strong; its known weakness is that each world's search believes it knows the
//! hidden cards (strategy fusion), which ISMCTS ([`crate::ismcts`]) avoids.

use ply_core::rng::{derive_seed, rng_from_seed};
use ply_core::{Agent, Budget, Decision, Game, Limits, SearchInfo};

pub struct Determinized<G: Game> {
    inner: Box<dyn Agent<G>>,
    worlds: u32,
    seed: u64,
    decisions: u64,
}

impl<G: Game> Determinized<G> {
    pub fn new(inner: Box<dyn Agent<G>>, worlds: u32, seed: u64) -> Self {
        Determinized { inner, worlds: worlds.max(1), seed, decisions: 0 }
    }
}

impl<G: Game> Agent<G> for Determinized<G> {
    fn choose(
        &mut self,
        state: &G,
        limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo<G::Action>),
    ) -> Decision<G::Action> {
        let clock = limits.start();
        let viewer = state.current_player().expect("asked to move when no player is to move");
        let legal = state.actions();
        if legal.len() == 1 {
            return Decision::new(legal[0]);
        }
        let mut rng = rng_from_seed(derive_seed(self.seed, self.decisions));
        self.decisions += 1;
        let worlds = u64::from(self.worlds);
        let mut votes: Vec<(G::Action, u32)> = Vec::new();
        let mut iterations = 0;
        for world in 0..worlds {
            if world > 0 && (clock.time_is_up() || clock.stopped()) {
                break;
            }
            let share = Budget {
                time: limits.budget.time.map(|t| {
                    let left = t.saturating_sub(clock.elapsed());
                    left / (worlds - world) as u32
                }),
                iterations: limits.budget.iterations.map(|n| (n / worlds).max(1)),
            };
            let sample = state.resample_hidden(viewer, &mut rng);
            let decision =
                self.inner.choose(&sample, &Limits { budget: share, stop: limits.stop.clone() }, &mut |_| {});
            iterations += decision.info.iterations;
            // A world's search may pick what only that world allows: count legal choices only.
            if legal.contains(&decision.action) {
                match votes.iter_mut().find(|(a, _)| *a == decision.action) {
                    Some((_, n)) => *n += 1,
                    None => votes.push((decision.action, 1)),
                }
            }
        }
        let action = votes
            .iter()
            .fold(None, |best: Option<(G::Action, u32)>, &(a, n)| match best {
                Some((_, m)) if m >= n => best,
                _ => Some((a, n)),
            })
            .map_or(legal[0], |(a, _)| a);
        let info = SearchInfo {
            depth: 1,
            iterations,
            pv: vec![action],
            elapsed: clock.elapsed(),
            ..SearchInfo::default()
        };
        report(&info);
        Decision { action, info }
    }
}

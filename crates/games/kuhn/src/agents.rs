//! Kuhn poker's players: an equilibrium strategy to measure against, and the generic searches.

use ply_core::rng::{Rng, rng_from_seed};
use ply_core::{Agent, AgentFactory, Decision, Limits, ParamInfo, SearchInfo};
use ply_search::{NeutralEval, UniformRollout, factories};
use rand::RngExt;

use crate::{JACK, KING, Kuhn, KuhnAction};

/// Kuhn's equilibrium family (Kuhn 1950), one strategy for each `alpha` in [0, 1/3]. Player 0
/// bets a Jack (a bluff) with probability alpha, a King with 3 alpha, checks a Queen and calls a
/// bet with it with alpha + 1/3; player 1 bets a Jack after a check with 1/3, calls with a Queen
/// with 1/3, and always bets or calls with a King. Against it nothing does better than its value:
/// player 0 loses 1/18 of a chip a game, whatever alpha.
pub struct NashAgent {
    alpha: f64,
    rng: Rng,
}

impl NashAgent {
    pub fn new(alpha: f64, seed: u64) -> Self {
        NashAgent { alpha, rng: rng_from_seed(seed) }
    }

    /// The probability of betting (or calling) in `state` for the player to move.
    pub fn bet_probability(&self, state: &Kuhn) -> f64 {
        let seat = state.history().len() % 2;
        let card = state.card(seat).expect("the cards are dealt before anyone bets");
        let third = 1.0 / 3.0;
        match (state.history(), card) {
            ([], JACK) => self.alpha,
            ([], KING) => 3.0 * self.alpha,
            ([], _) => 0.0,
            ([false, true], JACK) => 0.0,
            ([false, true], KING) => 1.0,
            ([false, true], _) => self.alpha + third,
            ([false], JACK) => third,
            ([false], KING) => 1.0,
            ([false], _) => 0.0,
            ([true], JACK) => 0.0,
            ([true], KING) => 1.0,
            ([true], _) => third,
            _ => 0.0,
        }
    }
}

impl Agent<Kuhn> for NashAgent {
    fn choose(
        &mut self,
        state: &Kuhn,
        _limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo<KuhnAction>),
    ) -> Decision<KuhnAction> {
        let bet = self.rng.random::<f64>() < self.bet_probability(state);
        let decision = Decision::new(if bet { KuhnAction::Bet } else { KuhnAction::Pass });
        report(&decision.info);
        decision
    }
}

pub fn factories() -> Vec<AgentFactory<Kuhn>> {
    let plain_mcts = || {
        factories::mcts(
            "mcts",
            "MCTS on the re-dealt position it is handed: it plays as if its one guess at the other card were right",
            vec![],
            |_| Ok((NeutralEval, UniformRollout)),
        )
    };
    vec![
        factories::ismcts(
            "ismcts",
            "Information-Set MCTS: one tree over what it knows, a re-dealt card every iteration",
            |_| Ok(UniformRollout),
        ),
        factories::determinized(
            "pimc",
            "determinized MCTS: several re-dealt worlds searched, the most chosen move played",
            plain_mcts(),
        ),
        plain_mcts(),
        AgentFactory::new(
            "nash",
            "an equilibrium strategy (Kuhn 1950): nothing beats it in expectation",
            vec![ParamInfo::new("alpha", 1.0 / 3.0, "how often player 0 bluffs with a Jack, 0 to 1/3")],
            |p, seed| Ok(Box::new(NashAgent::new(p.get_in("alpha", 0.0..=1.0 / 3.0)?, seed))),
        ),
        factories::random(),
    ]
}

//! A uniformly random legal move without writing the list of legal moves: random games (the
//! rules' speed, `ply bench risk`) and playouts draw thousands of moves per game, and the draft's
//! and the fortify phase's lists run to 50–150 moves. The move found is the one
//! `random_range(0..len)` picks from [`Risk::list_actions`]'s list, in its order, with the same
//! random numbers: a seeded game is the same either way (the conformance harness checks it).

use ply_core::rng::Rng;
use rand::RngExt;

use crate::map::bits;
use crate::rules::{Phase, Risk, RiskAction};

impl Risk {
    pub(crate) fn draw_random_action(&self, rng: &mut Rng, scratch: &mut Vec<RiskAction>) -> RiskAction {
        let drawn = match self.phase {
            Phase::Draft => self.random_draft(rng),
            Phase::Attack => Some(self.random_attack(rng)),
            Phase::Fortify => Some(self.random_fortify(rng)),
            _ => None,
        };
        drawn.unwrap_or_else(|| {
            self.list_actions(scratch);
            scratch[rng.random_range(0..scratch.len())]
        })
    }

    /// Trades first, then each own territory in map order with each chunk of the reserve.
    /// `None` when the listing has nothing to offer, for the listing to report.
    fn random_draft(&self, rng: &mut Rng) -> Option<RiskAction> {
        let mut sets = 0;
        if self.rules().cards() {
            self.for_each_set_in_hand(self.current(), |_| sets += 1);
        }
        let own = self.territories_of(self.current);
        let chunks =
            if !self.must_trade() && self.reserve > 0 { Self::chunks(1, self.reserve).count() } else { 0 };
        let count = sets + own.count_ones() as usize * chunks;
        if count == 0 {
            return None;
        }
        let index = rng.random_range(0..count);
        if index < sets {
            let mut seen = 0;
            let mut picked = None;
            self.for_each_set_in_hand(self.current(), |set| {
                if seen == index {
                    picked = Some(RiskAction::Trade(set));
                }
                seen += 1;
            });
            return picked;
        }
        let placement = index - sets;
        let territory = bits(own).nth(placement / chunks)?;
        let armies = Self::chunks(1, self.reserve).nth(placement % chunks)?;
        Some(RiskAction::Place { territory: territory as u8, armies })
    }

    /// Every (from, to) pair against an enemy neighbour, a single roll then a blitz, then the end.
    fn random_attack(&self, rng: &mut Rng) -> RiskAction {
        let own = self.territories_of(self.current);
        let sources = Sources::new(own, |from| {
            if self.armies[from] < 2 {
                return 0;
            }
            2 * (self.map().territories[from].border & !own).count_ones() as usize
        });
        let Some((from, index)) = sources.pick(rng) else { return RiskAction::EndAttack };
        let to = self.map().territories[from]
            .neighbours
            .iter()
            .copied()
            .filter(|&to| own & (1 << to) == 0)
            .nth(index / 2)
            .expect("counted among the enemy neighbours");
        RiskAction::Attack { from: from as u8, to: to as u8, blitz: index % 2 == 1 }
    }

    /// Each source with each target and each chunk of its movable armies, then the end.
    fn random_fortify(&self, rng: &mut Rng) -> RiskAction {
        let own = self.territories_of(self.current);
        let chunks = |from: usize| Self::chunks(1, self.armies[from] - 1);
        let sources = Sources::new(own, |from| {
            if self.armies[from] < 2 {
                return 0;
            }
            self.fortify_targets_within(from, own).count_ones() as usize * chunks(from).count()
        });
        let Some((from, index)) = sources.pick(rng) else { return RiskAction::EndTurn };
        let per_target = chunks(from).count();
        let to = bits(self.fortify_targets_within(from, own)).nth(index / per_target).expect("a target");
        let armies = chunks(from).nth(index % per_target).expect("a chunk");
        RiskAction::Fortify { from: from as u8, to: to as u8, armies }
    }
}

/// The moves from each source territory, counted once, and the last move of the list (ending
/// the phase) after them all.
struct Sources {
    counts: [(u8, u16); 64],
    len: usize,
    total: usize,
}

impl Sources {
    fn new(own: u64, mut moves_from: impl FnMut(usize) -> usize) -> Sources {
        let mut sources = Sources { counts: [(0, 0); 64], len: 0, total: 0 };
        for from in bits(own) {
            let moves = moves_from(from);
            if moves > 0 {
                sources.counts[sources.len] = (from as u8, moves as u16);
                sources.len += 1;
                sources.total += moves;
            }
        }
        sources
    }

    /// The drawn move as (source, index among its moves), or `None` for the phase's end.
    fn pick(&self, rng: &mut Rng) -> Option<(usize, usize)> {
        let mut index = rng.random_range(0..self.total + 1);
        for &(from, moves) in &self.counts[..self.len] {
            if index < moves as usize {
                return Some((from as usize, index));
            }
            index -= moves as usize;
        }
        None
    }
}

//! Judging Risk positions: the source document's four features, and a share of strength for
//! searches that need every seat's expected score.

use ply_core::{Game, Player, Returns};
use ply_search::Evaluator;

use crate::map::{Map, bits};
use crate::rules::Risk;

/// The document's leaf features for `seat`, each in [0, 1] (docs/risk.md writes down the two
/// formulas the document lost):
/// 1. its share of the territories;
/// 2. its share of the armies;
/// 3. defensive strength: over every own territory X and enemy neighbour Y, the mean of
///    armies(X) / (armies(X) + armies(Y)); 1 with no enemy neighbour;
/// 4. compactness: 1 minus the mean, over own territories, of y / (y + z), y its enemy and z its
///    own neighbours.
pub fn features(state: &Risk, seat: Player) -> [f64; 4] {
    let n = state.map().len();
    features_on(state.map(), &state.owner[..n], &state.armies[..n], seat as u8)
}

/// [`features`] on a bare position: each territory's owner and armies. The document's search
/// ([`crate::document`]) scores its own lighter positions with it.
pub fn features_on(map: &Map, owner: &[u8], armies: &[u16], seat: u8) -> [f64; 4] {
    let own = (0..map.len()).filter(|&t| owner[t] == seat).fold(0u64, |set, t| set | 1 << t);
    features_of_set(map, own, armies)
}

/// [`features_on`] for the holder of the territories in `own`.
pub fn features_of_set(map: &Map, own: u64, armies: &[u16]) -> [f64; 4] {
    if own == 0 {
        return [0.0; 4];
    }
    let all_armies: u32 = armies.iter().map(|&a| u32::from(a)).sum();
    let own_armies: u32 = bits(own).map(|t| u32::from(armies[t])).sum();
    let territories = f64::from(own.count_ones()) / map.len() as f64;
    let armies_share = f64::from(own_armies) / f64::from(all_armies.max(1));
    let (mut ratio_sum, mut pairs) = (0.0, 0u32);
    let mut exposure = 0.0;
    for t in bits(own) {
        let border = map.territories[t].border;
        let enemies = border & !own;
        let friends = border & own;
        let x = f64::from(armies[t]);
        for y in bits(enemies) {
            ratio_sum += x / (x + f64::from(armies[y]));
            pairs += 1;
        }
        let (y, z) = (enemies.count_ones(), friends.count_ones());
        if y + z > 0 {
            exposure += f64::from(y) / f64::from(y + z);
        }
    }
    let defence = if pairs == 0 { 1.0 } else { ratio_sum / f64::from(pairs) };
    let compactness = 1.0 - exposure / f64::from(own.count_ones());
    [territories, armies_share, defence, compactness]
}

/// The document's evaluation: the weighted mean of its four features, in [0, 1].
pub fn weighted(state: &Risk, seat: Player, weights: &[f64; 4]) -> f64 {
    weigh(&features(state, seat), weights)
}

/// The weighted mean of computed features.
pub fn weigh(features: &[f64; 4], weights: &[f64; 4]) -> f64 {
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return 0.0;
    }
    features.iter().zip(weights).map(|(f, w)| f * w).sum::<f64>() / total
}

/// Every seat's expected score as its share of strength: territories, armies and income
/// (reinforcements), each as a share of all seats', averaged; a finished game its result.
#[derive(Clone, Copy, Debug, Default)]
pub struct StrengthShare;

impl StrengthShare {
    pub fn shares(state: &Risk) -> Returns {
        let n = state.players();
        if state.is_over() {
            return state.returns();
        }
        let mut strength = [0.0f64; 8];
        let mut totals = [0.0f64; 3];
        let mut parts = [[0.0f64; 3]; 8];
        for (seat, part) in parts.iter_mut().enumerate().take(n) {
            if !state.is_alive(seat) {
                continue;
            }
            *part = [
                f64::from(state.territories_of(seat as u8).count_ones()),
                f64::from(state.armies_of(seat as u8)),
                f64::from(state.reinforcements(seat)),
            ];
            for (total, value) in totals.iter_mut().zip(part.iter()) {
                *total += value;
            }
        }
        for (value, part) in strength.iter_mut().zip(&parts).take(n) {
            *value =
                (0..3).map(|k| if totals[k] > 0.0 { part[k] / totals[k] } else { 0.0 }).sum::<f64>() / 3.0;
        }
        let sum: f64 = strength[..n].iter().sum();
        let mut returns = Returns::zeros(n);
        for (seat, value) in strength.iter().enumerate().take(n) {
            returns.set(seat, if sum > 0.0 { value / sum } else { 1.0 / n as f64 });
        }
        returns
    }
}

impl Evaluator<Risk> for StrengthShare {
    fn evaluate(&self, state: &Risk, player: Player) -> f64 {
        let shares = Self::shares(state);
        let best_other =
            (0..state.players()).filter(|&p| p != player).map(|p| shares.get(p)).fold(0.0, f64::max);
        (shares.get(player) - best_other).clamp(-1.0, 1.0)
    }

    fn expected_scores(&self, state: &Risk) -> Returns {
        Self::shares(state)
    }
}

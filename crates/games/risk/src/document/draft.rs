//! The document's draft rule, used by its search for every player and by its real-game agent:
//! armies go where the border is most threatened for its size.
//!
//! 1. BST(X), the border security threat of an owned X: the armies of every enemy territory
//!    next to X (neutral ones count as enemies).
//! 2. BSR(X) = BST(X) / armies(X).
//! 3. The lower half is cut: with k territories, m is the ⌈k/2⌉-th largest BSR, and every
//!    BSR below m becomes 0 (ties with m are kept, so equal borders are treated alike).
//!    NBSR(X) = BSR(X) / the sum of the BSRs left.
//! 4. The document lost the placing formula; ours: X gets ⌊R · NBSR(X)⌋ of the R armies, and
//!    the armies left over (fewer than the territories kept) go one each to the highest NBSRs,
//!    ties to the lower territory index. With no enemy anywhere (nothing to defend) all go to
//!    the owned territory of lowest index.

use crate::map::{Map, bits};

/// Floating shares that should be whole numbers may come out a hair below them.
const EPSILON: f64 = 1e-9;

/// The BSR of each territory in `own` (0 for the rest), before the cut.
pub fn border_security_ratios(map: &Map, armies: &[u16], own: u64) -> [f64; 64] {
    let mut bsr = [0.0; 64];
    for t in bits(own) {
        let threat: u32 = bits(map.territories[t].border & !own).map(|y| u32::from(armies[y])).sum();
        bsr[t] = f64::from(threat) / f64::from(armies[t].max(1));
    }
    bsr
}

/// The NBSR of the seat's territories that keep a share after the median cut, highest first
/// (ties by territory index); empty when no territory of the seat borders an enemy.
pub fn nbsr(map: &Map, owner: &[u8], armies: &[u16], seat: u8) -> Vec<(usize, f64)> {
    let own = (0..map.len()).filter(|&t| owner[t] == seat).fold(0u64, |set, t| set | 1 << t);
    let bsr = border_security_ratios(map, armies, own);
    let mut ranked: Vec<(usize, f64)> = bits(own).map(|t| (t, bsr[t])).collect();
    if ranked.is_empty() {
        return ranked;
    }
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let median = ranked[ranked.len().div_ceil(2) - 1].1;
    ranked.retain(|&(_, r)| r >= median && r > 0.0);
    let sum: f64 = ranked.iter().map(|&(_, r)| r).sum();
    for entry in &mut ranked {
        entry.1 /= sum;
    }
    ranked
}

/// Where the seat places `reserve` armies: (territory, armies) with armies > 0, highest NBSR
/// first. Empty only when the seat holds nothing or the reserve is 0.
pub fn allocation(map: &Map, owner: &[u8], armies: &[u16], seat: u8, reserve: u16) -> Vec<(usize, u16)> {
    if reserve == 0 {
        return Vec::new();
    }
    let shares = nbsr(map, owner, armies, seat);
    if shares.is_empty() {
        return (0..map.len()).find(|&t| owner[t] == seat).map(|t| vec![(t, reserve)]).unwrap_or_default();
    }
    let r = f64::from(reserve);
    let mut placed: Vec<(usize, u16)> =
        shares.iter().map(|&(t, share)| (t, (r * share + EPSILON).floor() as u16)).collect();
    let given: u16 = placed.iter().map(|p| p.1).sum();
    let left = reserve.saturating_sub(given) as usize;
    for entry in placed.iter_mut().take(left) {
        entry.1 += 1;
    }
    placed.retain(|p| p.1 > 0);
    placed
}

/// Reinforcements for holding `held`: a third of the territories (at least 3) and the bonus of
/// every continent held whole, as the real game gives them before cards.
pub fn reinforcements(map: &Map, held: u64) -> u16 {
    let base = (held.count_ones() as u16 / 3).max(3);
    base + map.continents.iter().filter(|c| c.territories & !held == 0).map(|c| c.bonus).sum::<u16>()
}

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

/// Armies per territory, on the stack: the search drafts at every turn it looks at.
#[derive(Clone, Copy)]
pub struct Placements {
    len: usize,
    items: [(u8, u16); 64],
}

impl Placements {
    fn new() -> Self {
        Placements { len: 0, items: [(0, 0); 64] }
    }

    fn push(&mut self, t: usize, armies: u16) {
        self.items[self.len] = (t as u8, armies);
        self.len += 1;
    }

    /// (territory, armies), in territory order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, u16)> + '_ {
        self.items[..self.len].iter().map(|&(t, a)| (t as usize, a))
    }
}

/// The BSRs of `own`, the territories that keep theirs after the median cut, and the sum of
/// those: the NBSR of a kept X is `bsr[X] / sum`.
fn kept_ratios(map: &Map, armies: &[u16], own: u64) -> ([f64; 64], u64, f64) {
    let bsr = border_security_ratios(map, armies, own);
    let k = own.count_ones() as usize;
    if k == 0 {
        return (bsr, 0, 0.0);
    }
    let mut values = [0.0f64; 64];
    for (slot, t) in bits(own).enumerate() {
        values[slot] = bsr[t];
    }
    let (_, &mut median, _) = values[..k].select_nth_unstable_by(k.div_ceil(2) - 1, |a, b| b.total_cmp(a));
    let kept = bits(own).filter(|&t| bsr[t] >= median && bsr[t] > 0.0).fold(0u64, |set, t| set | 1 << t);
    let sum = bits(kept).map(|t| bsr[t]).sum();
    (bsr, kept, sum)
}

/// The NBSR of the territories in `own` that keep a share after the median cut, highest first
/// (ties by territory index); empty when none of them borders an enemy.
pub fn ranked_nbsr(map: &Map, armies: &[u16], own: u64) -> Vec<(usize, f64)> {
    let (bsr, kept, sum) = kept_ratios(map, armies, own);
    let mut ranked: Vec<(usize, f64)> = bits(kept).map(|t| (t, bsr[t] / sum)).collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    ranked
}

/// Where the owner of `own` places `reserve` armies, in territory order; nothing only when
/// `own` is empty or the reserve is 0.
pub fn allocate(map: &Map, armies: &[u16], own: u64, reserve: u16) -> Placements {
    let mut placed = Placements::new();
    if reserve == 0 || own == 0 {
        return placed;
    }
    let (bsr, kept, sum) = kept_ratios(map, armies, own);
    if kept == 0 {
        placed.push(own.trailing_zeros() as usize, reserve);
        return placed;
    }
    let r = f64::from(reserve);
    let mut given = [0u16; 64];
    let mut total = 0;
    for t in bits(kept) {
        given[t] = (r * (bsr[t] / sum) + EPSILON).floor() as u16;
        total += given[t];
    }
    // Fewer armies are left than territories kept: one each, highest NBSR first.
    let mut extra = kept;
    for _ in 0..reserve.saturating_sub(total) {
        let best = bits(extra).fold(None, |best: Option<usize>, t| match best {
            Some(b) if bsr[b] >= bsr[t] => Some(b),
            _ => Some(t),
        });
        let Some(best) = best else { break };
        given[best] += 1;
        extra &= !(1 << best);
    }
    for t in bits(kept).filter(|&t| given[t] > 0) {
        placed.push(t, given[t]);
    }
    placed
}

fn held(map: &Map, owner: &[u8], seat: u8) -> u64 {
    (0..map.len()).filter(|&t| owner[t] == seat).fold(0u64, |set, t| set | 1 << t)
}

/// [`ranked_nbsr`] of `seat`'s territories.
pub fn nbsr(map: &Map, owner: &[u8], armies: &[u16], seat: u8) -> Vec<(usize, f64)> {
    ranked_nbsr(map, armies, held(map, owner, seat))
}

/// [`allocate`] for `seat`, as a list of (territory, armies), highest NBSR first (ties by
/// territory index).
pub fn allocation(map: &Map, owner: &[u8], armies: &[u16], seat: u8, reserve: u16) -> Vec<(usize, u16)> {
    let own = held(map, owner, seat);
    let order: Vec<usize> = ranked_nbsr(map, armies, own).into_iter().map(|(t, _)| t).collect();
    let mut placed: Vec<(usize, u16)> = allocate(map, armies, own, reserve).iter().collect();
    placed.sort_by_key(|&(t, _)| order.iter().position(|&o| o == t));
    placed
}

/// Reinforcements for holding `held`: a third of the territories (at least 3) and the bonus of
/// every continent held whole, as the real game gives them before cards.
pub fn reinforcements(map: &Map, held: u64) -> u16 {
    let base = (held.count_ones() as u16 / 3).max(3);
    base + map.continents.iter().filter(|c| c.territories & !held == 0).map(|c| c.bonus).sum::<u16>()
}

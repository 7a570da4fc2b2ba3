//! One unit's act chosen by a simple rule — the best attack from every cell it can reach, or the
//! way towards the enemy — the building blocks of the document's strategies (max_agro here; the
//! scenario AI's many more). Buffers are the caller's, so that planning a whole turn allocates
//! nothing.

use crate::grid::{Cell, Dir};
use crate::moves::Outcome;
use crate::rules::{Tactics, TacticsAction};

/// A unit's act: where it ends its move and which way it attacks, with what the attack does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub to: Cell,
    pub attack: Option<Dir>,
    pub outcome: Outcome,
}

/// Reusable buffers for planning.
#[derive(Clone, Debug)]
pub struct Scratch {
    pub cells: Vec<Cell>,
    pub distances: [u8; 256],
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch { cells: Vec::with_capacity(64), distances: [u8::MAX; 256] }
    }
}

/// Damage dealt to enemies less damage dealt to friends, then kills: how max_agro ranks attacks.
pub fn net_damage(outcome: &Outcome) -> (i32, i32) {
    (
        i32::from(outcome.enemy_damage) - i32::from(outcome.friendly_damage),
        i32::from(outcome.enemy_kills) - i32::from(outcome.friendly_kills),
    )
}

impl Tactics {
    /// The attack ranked highest by `rank` among every cell the unit in `slot` can reach and
    /// every direction that hits an enemy; on equal ranks the one found first (fewest steps,
    /// then north, east, south, west). `None` if no attack hits an enemy.
    pub fn best_attack<K: PartialOrd>(
        &self,
        slot: usize,
        cells: &mut Vec<Cell>,
        mut rank: impl FnMut(&Outcome) -> K,
    ) -> Option<(Plan, K)> {
        self.reach(slot, cells);
        let mut best: Option<(Plan, K)> = None;
        for &to in cells.iter() {
            for dir in Dir::ALL {
                let outcome = self.outcome(slot, to, dir);
                if !outcome.hits_enemy() {
                    continue;
                }
                let key = rank(&outcome);
                if best.as_ref().is_none_or(|(_, k)| key > *k) {
                    best = Some((Plan { to, attack: Some(dir), outcome }, key));
                }
            }
        }
        best
    }

    /// Steps over earth from the nearest living unit of the side that is not `side`, for every
    /// cell (255: no way), units ignored — they move.
    pub fn enemy_distances(&self, side: usize, out: &mut [u8; 256]) {
        let enemies: Vec<Cell> = self.team(1 - side).iter().filter(|u| u.alive()).map(|u| u.cell).collect();
        *out = self.map.distances(&enemies);
    }

    /// The cell the unit in `slot` can reach that is nearest an enemy by `distances` (from
    /// [`Tactics::enemy_distances`]); on equal distances the one with fewest steps.
    pub fn approach(&self, slot: usize, cells: &mut Vec<Cell>, distances: &[u8; 256]) -> Cell {
        self.reach(slot, cells);
        cells.iter().copied().min_by_key(|&c| distances[c as usize]).unwrap_or(self.units[slot].cell)
    }

    /// The action that carries out `plan` for the unit in `slot`.
    pub fn action_for(&self, slot: usize, plan: &Plan) -> TacticsAction {
        TacticsAction::Unit { from: self.units[slot].cell, to: plan.to, attack: plan.attack }
    }

    /// max_agro's act for the unit in `slot`: the attack that deals the most damage (less any
    /// to friends; then most kills), if one deals more to enemies than to friends; otherwise the
    /// move that brings it nearest an enemy, without attacking.
    pub fn aggressive_plan(&self, slot: usize, scratch: &mut Scratch) -> Plan {
        if let Some((plan, (net, _))) = self.best_attack(slot, &mut scratch.cells, net_damage)
            && net > 0
        {
            return plan;
        }
        self.enemy_distances(Tactics::side_of(slot), &mut scratch.distances);
        let to = self.approach(slot, &mut scratch.cells, &scratch.distances);
        Plan { to, attack: None, outcome: Outcome::default() }
    }
}

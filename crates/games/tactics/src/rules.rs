//! The rules (docs/tactics.md): two sides on a square map; in its turn a side acts with each of
//! its living units once, in the order it likes — move (or stay), then attack in one of four
//! directions or not. A side wins by wiping out the other; after the turn cap the side whose
//! units are worth more wins.

use ply_core::{Player, Returns};

use crate::grid::{Cell, Cells, Dir, Map};
use crate::mapgen;
use crate::units::{Kind, MAX_TEAM, Team, Unit, scaled_value};

/// How many map seeds the opening chance event draws from: `deal 0` to `deal 9999`.
pub const DEAL_SEEDS: u32 = 10_000;

/// Unit slots: side `s`'s unit `i` is slot `s * MAX_TEAM + i`.
pub const SLOTS: usize = 2 * MAX_TEAM;

/// What a game's options fix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The side of a generated board (a given map has its own).
    pub size: u8,
    /// Rounds (both sides' turns) before the game is adjudicated.
    pub max_turns: u16,
    /// Units side 0 gets more (+1) or fewer (-1) than side 1.
    pub handicap: i8,
    /// Both sides' team before the handicap; drawn from the seed if not given.
    pub team: Option<Team>,
    /// The map was given (a file), not generated from the seed.
    pub map_given: bool,
    /// The game's seed, if the options fix it; otherwise the opening chance event draws it.
    pub seed: Option<u32>,
}

impl Rules {
    pub fn new(size: u8) -> Rules {
        Rules { size, max_turns: 100, handicap: 0, team: None, map_given: false, seed: None }
    }

    /// Whether the game opens with a chance event drawing its seed: the seed is not fixed and
    /// something (the map or the team) comes from it.
    pub fn deals(&self) -> bool {
        self.seed.is_none() && !(self.map_given && self.team.is_some())
    }
}

/// An action: a unit's whole act in a turn, or the opening chance event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TacticsAction {
    /// Chance: the seed of the map and of the teams.
    Deal(u32),
    /// The unit on `from` moves to `to` (the same cell: it stays) and then attacks towards
    /// `attack`, or does not.
    Unit { from: Cell, to: Cell, attack: Option<Dir> },
}

/// A position. Compact on purpose (a few hundred bytes, no heap) so that search copies it freely.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tactics {
    pub(crate) rules: Rules,
    pub(crate) map: Map,
    pub(crate) units: [Unit; SLOTS],
    /// Units each side has (living or dead).
    pub(crate) len: [u8; 2],
    /// The cells of living units.
    pub(crate) occupied: Cells,
    pub(crate) player: u8,
    /// The player to move's units that have acted this turn, a bit per unit index.
    pub(crate) acted: u8,
    /// 1, 2, ... (both sides move once a round); 0 before the deal; `max_turns + 1` once the
    /// turn cap is reached.
    pub(crate) round: u16,
}

const NO_UNIT: Unit = Unit { kind: Kind::Fighter, hp: 0, cell: 0 };

impl Tactics {
    /// The start of a game: the deal to come, or (the seed fixed) the teams in their corners.
    /// `map` is the given map, or any map of the right size when it is to be generated.
    pub fn new(rules: Rules, map: Map) -> Result<Tactics, String> {
        let mut state = Tactics {
            rules,
            map,
            units: [NO_UNIT; SLOTS],
            len: [0; 2],
            occupied: Cells::EMPTY,
            player: 0,
            acted: 0,
            round: 0,
        };
        if rules.map_given {
            // The teams' sizes do not depend on the seed: any seed checks that the map has room
            // for them and a way between them.
            state.clone().try_setup(0)?;
        }
        if !rules.deals() {
            state.try_setup(u64::from(rules.seed.unwrap_or(0)))?;
        }
        Ok(state)
    }

    /// Puts the teams on the board for `seed`: the map generated from it unless given, the team
    /// drawn from it unless given, the handicap applied, each side in its corner.
    pub(crate) fn try_setup(&mut self, seed: u64) -> Result<(), String> {
        if !self.rules.map_given {
            self.map = mapgen::generate(self.rules.size, seed).0;
        }
        let team = self.rules.team.unwrap_or_else(|| Team::from_seed(seed));
        let teams = [team.with_handicap(self.rules.handicap), team];
        let starts = [
            mapgen::start_cells(&self.map, 0, teams[0].kinds().len())?,
            mapgen::start_cells(&self.map, 1, teams[1].kinds().len())?,
        ];
        mapgen::check_reachable(&self.map, &starts)?;
        self.units = [NO_UNIT; SLOTS];
        self.occupied = Cells::EMPTY;
        for side in 0..2 {
            self.len[side] = teams[side].kinds().len() as u8;
            for (i, (&kind, &cell)) in teams[side].kinds().iter().zip(&starts[side]).enumerate() {
                self.units[side * MAX_TEAM + i] = Unit { kind, hp: kind.stats().hp, cell };
                self.occupied.insert(cell);
            }
        }
        self.player = 0;
        self.acted = 0;
        self.round = 1;
        Ok(())
    }

    pub(crate) fn no_unit() -> Unit {
        NO_UNIT
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn map(&self) -> &Map {
        &self.map
    }

    /// The side to move (the side that moved last once the game is over).
    pub fn player(&self) -> Player {
        self.player as Player
    }

    pub fn round(&self) -> u16 {
        self.round
    }

    /// Whether the opening chance event is still to come.
    pub fn is_dealing(&self) -> bool {
        self.round == 0
    }

    /// Side `side`'s units, living and dead, in team order.
    pub fn team(&self, side: usize) -> &[Unit] {
        &self.units[side * MAX_TEAM..side * MAX_TEAM + self.len[side] as usize]
    }

    pub fn unit(&self, slot: usize) -> &Unit {
        &self.units[slot]
    }

    /// Slots of side `side`'s units, in team order.
    pub fn slots(&self, side: usize) -> std::ops::Range<usize> {
        side * MAX_TEAM..side * MAX_TEAM + self.len[side] as usize
    }

    /// The cells of living units.
    pub fn occupied(&self) -> &Cells {
        &self.occupied
    }

    /// The slot of the living unit on `cell`.
    #[inline]
    pub fn unit_at(&self, cell: Cell) -> Option<usize> {
        if !self.occupied.contains(cell) {
            return None;
        }
        (0..SLOTS).find(|&s| self.units[s].hp > 0 && self.units[s].cell == cell)
    }

    pub fn side_of(slot: usize) -> usize {
        slot / MAX_TEAM
    }

    /// Whether the unit in `slot` (of the side to move) has acted this turn.
    pub fn has_acted(&self, slot: usize) -> bool {
        Self::side_of(slot) == self.player as usize && self.acted >> (slot % MAX_TEAM) & 1 != 0
    }

    pub fn living(&self, side: usize) -> usize {
        self.team(side).iter().filter(|u| u.alive()).count()
    }

    /// The side to move's living units that have not acted yet, as slots in team order.
    pub fn to_act(&self) -> impl Iterator<Item = usize> + '_ {
        self.slots(self.player as usize).filter(|&s| self.units[s].alive() && !self.has_acted(s))
    }

    pub fn is_over(&self) -> bool {
        self.round > 0 && (self.round > self.rules.max_turns || self.living(0) == 0 || self.living(1) == 0)
    }

    /// Side `side`'s material: the sum of its living units' values (docs/tactics.md, "End").
    pub fn value(&self, side: usize) -> f64 {
        self.team(side).iter().map(|u| crate::units::unit_value(u.kind, u.hp)).sum()
    }

    fn scaled_value(&self, side: usize) -> u64 {
        self.team(side).iter().map(|u| scaled_value(u.kind, u.hp)).sum()
    }

    pub(crate) fn scores(&self) -> Returns {
        let (a, b) = (self.scaled_value(0), self.scaled_value(1));
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => Returns::win(2, 0),
            std::cmp::Ordering::Less => Returns::win(2, 1),
            std::cmp::Ordering::Equal => Returns::draw(2),
        }
    }

    /// Applies a legal action (unchecked).
    pub(crate) fn apply_action(&mut self, action: TacticsAction) {
        match action {
            TacticsAction::Deal(seed) => {
                // The options were checked against every seed's teams at the start.
                let _ = self.try_setup(u64::from(seed));
            }
            TacticsAction::Unit { from, to, attack } => {
                let Some(slot) = self.unit_at(from) else { return };
                self.move_unit(slot, to);
                self.acted |= 1 << (slot % MAX_TEAM);
                if let Some(dir) = attack {
                    self.attack(slot, dir);
                }
                if !self.is_over() && self.to_act().next().is_none() {
                    self.end_turn();
                }
            }
        }
    }

    pub(crate) fn move_unit(&mut self, slot: usize, to: Cell) {
        let from = self.units[slot].cell;
        self.occupied.remove(from);
        self.occupied.insert(to);
        self.units[slot].cell = to;
    }

    /// The unit in `slot` attacks towards `dir` from where it stands.
    pub(crate) fn attack(&mut self, slot: usize, dir: Dir) {
        let unit = self.units[slot];
        let mut hits = [0usize; SLOTS];
        let mut n = 0;
        self.line_hits(unit.kind, unit.cell, dir, &self.occupied, |s| {
            hits[n] = s;
            n += 1;
        });
        let damage = unit.stats().damage;
        for &s in &hits[..n] {
            self.damage(s, damage);
        }
    }

    pub(crate) fn damage(&mut self, slot: usize, damage: u8) {
        let unit = &mut self.units[slot];
        unit.hp = unit.hp.saturating_sub(damage);
        if unit.hp == 0 {
            self.occupied.remove(unit.cell);
            unit.cell = 0;
            // A dead unit is no longer one that has acted: positions differing only there are one.
            if Tactics::side_of(slot) == self.player as usize {
                self.acted &= !(1 << (slot % MAX_TEAM));
            }
        }
    }

    fn end_turn(&mut self) {
        self.acted = 0;
        self.player ^= 1;
        if self.player == 0 {
            self.round += 1;
        }
    }

    /// Whether the side to move has begun its turn.
    pub(crate) fn turn_goes_on(&self) -> bool {
        self.acted != 0 && !self.is_over()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Search copies positions by the thousand: they stay small and on the stack.
    #[test]
    fn a_position_is_small() {
        assert!(std::mem::size_of::<Tactics>() <= 256, "{} bytes", std::mem::size_of::<Tactics>());
        assert_eq!(std::mem::size_of::<TacticsAction>(), 8);
    }
}

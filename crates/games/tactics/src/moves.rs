//! Movement, attack lines and the legal actions, with the reasons an action is refused.
//!
//! The pieces are public and cheap — a breadth-first search into a caller's buffer, an attack
//! line walked without allocating — because the AIs built on them (the document's scenario
//! mutation) judge thousands of whole turns per decision.

use crate::grid::{Cell, Cells, Dir, MAX_SIZE, cell_name, manhattan, step};
use crate::rules::{DEAL_SEEDS, SLOTS, Tactics, TacticsAction};
use crate::units::{Kind, MAX_TEAM, Shot};

/// The cells of the largest board.
const BOARD_CELLS: usize = MAX_SIZE as usize * MAX_SIZE as usize;

/// What an attack would do: damage dealt (capped at the hit points the targets have) and units
/// killed, to enemies and to friends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub enemy_damage: u16,
    pub enemy_kills: u8,
    pub friendly_damage: u16,
    pub friendly_kills: u8,
}

impl Outcome {
    pub fn hits_enemy(&self) -> bool {
        self.enemy_damage > 0
    }
}

impl Tactics {
    /// The cells the unit on `from` can end its move on, moving up to `moves` steps over earth
    /// around other units (friends block too), in breadth-first order: `from` first, then the
    /// cells one step away, and so on. `out` is cleared first.
    pub fn reach_from(&self, from: Cell, moves: u8, out: &mut Vec<Cell>) {
        let mut cells = [0; BOARD_CELLS];
        let n = self.reach_into(from, moves, &mut cells);
        out.clear();
        out.extend_from_slice(&cells[..n]);
    }

    /// [`Tactics::reach_from`] into a buffer, which doubles as the search's queue: returns how
    /// many cells it wrote. Searches keep small fixed buffers (a move of 4 reaches at most 41
    /// cells); the board's cell count always suffices.
    pub fn reach_into(&self, from: Cell, moves: u8, out: &mut [Cell]) -> usize {
        let size = self.map.size();
        let free = self.map.earth().minus(self.occupied);
        let mut seen = Cells::EMPTY;
        seen.insert(from);
        out[0] = from;
        let mut len = 1;
        let (mut layer_start, mut layer_end) = (0, 1);
        for _ in 0..moves {
            for i in layer_start..layer_end {
                let c = out[i];
                for dir in Dir::ALL {
                    if let Some(n) = step(c, dir, size)
                        && free.contains(n)
                        && !seen.contains(n)
                    {
                        seen.insert(n);
                        out[len] = n;
                        len += 1;
                    }
                }
            }
            if len == layer_end {
                break;
            }
            (layer_start, layer_end) = (layer_end, len);
        }
        len
    }

    /// [`Tactics::reach_from`] for the unit in `slot`, with its kind's movement.
    pub fn reach(&self, slot: usize, out: &mut Vec<Cell>) {
        let unit = &self.units[slot];
        self.reach_from(unit.cell, unit.stats().moves, out);
    }

    /// Calls `hit` with the slot of every unit a `kind` attack from `from` towards `dir` hits,
    /// nearest first, with units standing on `occupied` (the attacker's own cell left out when
    /// it has moved). Fighters hit the adjacent cell; arrows the first unit within 7 cells, over
    /// water; sorcerer fire every unit within 5 cells, stopped by water. Walls and the edge stop
    /// every shot.
    #[inline]
    pub fn line_hits(&self, kind: Kind, from: Cell, dir: Dir, occupied: &Cells, mut hit: impl FnMut(usize)) {
        let stats = kind.stats();
        let size = self.map.size();
        let mut at = from;
        for _ in 0..stats.range {
            let Some(next) = step(at, dir, size) else { return };
            at = next;
            if self.map.is_wall(at) || (stats.shot == Shot::Fire && self.map.is_water(at)) {
                return;
            }
            if occupied.contains(at) {
                let slot = (0..SLOTS).find(|&s| self.units[s].hp > 0 && self.units[s].cell == at);
                if let Some(slot) = slot {
                    hit(slot);
                    if stats.shot != Shot::Fire {
                        return;
                    }
                }
            }
        }
    }

    /// What the unit in `slot` would do attacking towards `dir` after moving to `to`.
    pub fn outcome(&self, slot: usize, to: Cell, dir: Dir) -> Outcome {
        let unit = self.units[slot];
        let mut occupied = self.occupied;
        occupied.remove(unit.cell);
        occupied.insert(to);
        let side = Tactics::side_of(slot);
        let damage = unit.stats().damage;
        let mut outcome = Outcome::default();
        self.line_hits(unit.kind, to, dir, &occupied, |s| {
            let hp = self.units[s].hp;
            let dealt = u16::from(damage.min(hp));
            let killed = u8::from(damage >= hp);
            if Tactics::side_of(s) == side {
                outcome.friendly_damage += dealt;
                outcome.friendly_kills += killed;
            } else {
                outcome.enemy_damage += dealt;
                outcome.enemy_kills += killed;
            }
        });
        outcome
    }

    /// Whether a `kind` attack from `to` towards `dir` hits at least one unit of the side that
    /// is not `side`, with the attacker moved from `from` to `to`.
    fn hits_enemy(&self, kind: Kind, side: usize, from: Cell, to: Cell, dir: Dir) -> bool {
        let mut occupied = self.occupied;
        occupied.remove(from);
        occupied.insert(to);
        let mut found = false;
        self.line_hits(kind, to, dir, &occupied, |s| found |= Tactics::side_of(s) != side);
        found
    }

    /// The legal actions: for each unit of the side to move that has not acted, in team order,
    /// each cell it can reach in breadth-first order, first without an attack, then with each
    /// attack (north, east, south, west) that hits at least one enemy.
    pub(crate) fn list_actions(&self, out: &mut Vec<TacticsAction>) {
        out.clear();
        if self.is_over() || self.is_dealing() {
            return;
        }
        let side = self.player as usize;
        let mut cells = Vec::with_capacity(64);
        for slot in self.to_act() {
            let unit = self.units[slot];
            self.reach(slot, &mut cells);
            for &to in &cells {
                out.push(TacticsAction::Unit { from: unit.cell, to, attack: None });
                for dir in Dir::ALL {
                    if self.hits_enemy(unit.kind, side, unit.cell, to, dir) {
                        out.push(TacticsAction::Unit { from: unit.cell, to, attack: Some(dir) });
                    }
                }
            }
        }
    }

    /// Why `action` cannot be played here, in words; `Ok` when it is legal. Agrees exactly with
    /// [`Tactics::list_actions`] (a test holds them together).
    pub fn check_action(&self, action: TacticsAction) -> Result<(), String> {
        if self.is_over() {
            return Err("the game is over".into());
        }
        let (from, to, attack) = match action {
            TacticsAction::Deal(seed) if self.is_dealing() => {
                return if seed < DEAL_SEEDS {
                    Ok(())
                } else {
                    Err(format!("the deal draws a seed from 0 to {}, not {seed}", DEAL_SEEDS - 1))
                };
            }
            TacticsAction::Deal(_) => return Err("the map has been dealt already".into()),
            _ if self.is_dealing() => {
                return Err("the map is still to be dealt: the game starts with 'deal:SEED'".into());
            }
            TacticsAction::Unit { from, to, attack } => (from, to, attack),
        };
        let map = &self.map;
        let size = map.size();
        for c in [from, to] {
            if !map.on_board(c) {
                return Err(format!("{} is off the {size}x{size} board", cell_name(c)));
            }
        }
        let slot = self.unit_at(from).ok_or_else(|| format!("no unit stands on {}", cell_name(from)))?;
        let unit = self.units[slot];
        let side = Tactics::side_of(slot);
        let what = format!("the {} on {}", unit.kind.name(), cell_name(from));
        if side != self.player as usize {
            return Err(format!("{what} is player {side}'s, and player {} is to move", self.player));
        }
        if self.acted >> (slot % MAX_TEAM) & 1 != 0 {
            return Err(format!("{what} has already acted this turn"));
        }
        let moves = unit.stats().moves;
        if to != from {
            let mut cells = Vec::with_capacity(64);
            self.reach(slot, &mut cells);
            if !cells.contains(&to) {
                let target = cell_name(to);
                return Err(if !map.is_earth(to) {
                    format!("{what} cannot move to {target}: it is {}", map.terrain(to).name())
                } else if self.occupied.contains(to) {
                    format!("{what} cannot move to {target}: another unit stands there")
                } else if manhattan(from, to) > moves {
                    format!(
                        "{what} cannot move to {target}: it is {} steps away, and it moves {moves}",
                        manhattan(from, to)
                    )
                } else {
                    format!(
                        "{what} cannot move to {target}: walls, water and units block every way there within {moves} steps"
                    )
                });
            }
        }
        if let Some(dir) = attack
            && !self.hits_enemy(unit.kind, side, from, to, dir)
        {
            let reach = match unit.stats().shot {
                Shot::Melee => "fighters strike the adjacent cell".to_string(),
                Shot::Arrow => format!(
                    "arrows hit the first unit within {} cells, over water, not through walls",
                    unit.stats().range
                ),
                Shot::Fire => format!(
                    "fire hits every unit within {} cells, stopped by walls and water",
                    unit.stats().range
                ),
            };
            return Err(format!(
                "{what} would hit no enemy attacking {} from {} ({reach}; an attack must hit an enemy)",
                dir.name(),
                cell_name(to)
            ));
        }
        Ok(())
    }
}

//! Scenarios and the strategies that write them (SEEDS.md §4, steps 0, 2, 3, 4, 8, 10, 11): a
//! scenario is an order of the side's units and an act for each; a strategy is an order and a
//! rule that picks each unit's act as the turn is played out on a copy of the position.

use ply_core::rng::Rng;
use rand::RngExt;
use rand::seq::SliceRandom;

use crate::grid::{Cell, Cells, Dir, file_of, rank_of};
use crate::plans::{Plan, Scratch, net_damage};
use crate::rules::{Tactics, TacticsAction};
use crate::units::{Kind, MAX_TEAM};

use super::eval::walk_line;

/// One unit's planned act.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub slot: u8,
    pub to: Cell,
    pub attack: Option<Dir>,
}

impl Step {
    pub fn action(&self, state: &Tactics) -> TacticsAction {
        TacticsAction::Unit { from: state.units[self.slot as usize].cell, to: self.to, attack: self.attack }
    }
}

/// How a unit's act is chosen when a strategy plays it, or when a planned act has to be
/// repaired or redrawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// A random cell it can reach; an attack from there, if any hits an enemy, three times in four.
    Random,
    /// max_agro's act: the most damage, else as near the enemy as it can get.
    Aggressive,
    /// The cell the enemy threatens least; from there the best attack, if any.
    LeastDamage,
    /// An attack from as far from the enemy as possible; failing one, the safest cell.
    FarAttack,
    /// The safest cell nearest the allies' centre; an attack only from a cell no enemy threatens.
    Flee,
    /// In priority: most damage dealt, least damage received, nearest the enemy.
    SemiRandom,
}

/// The strategies that write a whole scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Step 0: a random order, random acts.
    Random,
    /// Step 2: max_agro in team order (`false`) or reversed (`true`).
    MaxAgro(bool),
    /// Step 3.
    LeastDamage,
    /// Step 4.
    FarAttackAndHide,
    /// Step 4.
    CloseGroupFlee,
    /// Step 8: kinds in this order (W_A_F is `[Sorcerer, Archer, Fighter]`), max_agro's acts.
    TypeOrder([Kind; 3]),
    /// Step 10: a random order, SemiRandom acts.
    SemiRandom,
    /// Step 11: the sorcerer's line cleared of allies first.
    SorcererClear,
}

/// The six type orders of step 8, as the document names them.
pub const TYPE_ORDERS: [[Kind; 3]; 6] = {
    use Kind::*;
    [
        [Sorcerer, Archer, Fighter],
        [Sorcerer, Fighter, Archer],
        [Archer, Sorcerer, Fighter],
        [Archer, Fighter, Sorcerer],
        [Fighter, Archer, Sorcerer],
        [Fighter, Sorcerer, Archer],
    ]
};

/// What the strategies know about the position at the start of the decision, and buffers.
pub struct Context {
    pub side: usize,
    /// Damage the enemy could deal next turn to a unit on each cell (from where it stands now).
    pub threat: [u16; 256],
    /// Steps from the nearest enemy over earth.
    pub enemy_dist: [u8; 256],
    /// Cells fresh acts must not end on (the sorcerer's reserved line).
    pub avoid: Cells,
    scratch: Scratch,
    cells: [Cell; 64],
}

impl Context {
    pub fn new(state: &Tactics) -> Context {
        let side = state.player();
        let mut ctx = Context {
            side,
            threat: [0; 256],
            enemy_dist: [u8::MAX; 256],
            avoid: Cells::EMPTY,
            scratch: Scratch::default(),
            cells: [0; 64],
        };
        state.enemy_distances(side, &mut ctx.enemy_dist);
        for e in state.slots(1 - side) {
            let unit = state.units[e];
            if !unit.alive() {
                continue;
            }
            let n = state.reach_into(unit.cell, unit.stats().moves, &mut ctx.cells);
            let mut covered = Cells::EMPTY;
            for &c in &ctx.cells[..n] {
                for dir in Dir::ALL {
                    walk_line(&state.map, unit.kind, c, dir, |at| {
                        covered.insert(at);
                        true
                    });
                }
            }
            for c in covered.iter() {
                ctx.threat[c as usize] += u16::from(unit.stats().damage);
            }
        }
        ctx
    }

    /// The act `rule` picks for the unit in `slot` in `state`.
    pub fn plan(&mut self, rule: Rule, state: &Tactics, slot: usize, rng: &mut Rng) -> Plan {
        if rule == Rule::Aggressive && self.avoid == Cells::EMPTY {
            return state.aggressive_plan(slot, &mut self.scratch);
        }
        let n = state.reach_into(state.units[slot].cell, state.units[slot].stats().moves, &mut self.cells);
        let mut cells = self.cells;
        let mut len = 0;
        for i in 0..n {
            if !self.avoid.contains(cells[i]) {
                cells[len] = cells[i];
                len += 1;
            }
        }
        if len == 0 {
            cells[0] = state.units[slot].cell;
            len = 1;
        }
        let cells = &cells[..len];
        let stay = Plan { to: cells[0], attack: None, outcome: Default::default() };
        let best_from = |to: Cell| -> Option<(Plan, (i32, i32))> {
            let mut best: Option<(Plan, (i32, i32))> = None;
            for dir in Dir::ALL {
                let outcome = state.outcome(slot, to, dir);
                let key = net_damage(&outcome);
                if outcome.hits_enemy() && key.0 > 0 && best.as_ref().is_none_or(|(_, k)| key > *k) {
                    best = Some((Plan { to, attack: Some(dir), outcome }, key));
                }
            }
            best
        };
        let threat = |c: Cell| i32::from(self.threat[c as usize]);
        let dist = |c: Cell| i32::from(self.enemy_dist[c as usize]);
        match rule {
            Rule::Random => {
                let to = cells[rng.random_range(0..cells.len())];
                let mut dirs = [Dir::North; 4];
                let mut k = 0;
                for dir in Dir::ALL {
                    if state.outcome(slot, to, dir).hits_enemy() {
                        dirs[k] = dir;
                        k += 1;
                    }
                }
                let attack = (k > 0 && rng.random_range(0..4) != 0).then(|| dirs[rng.random_range(0..k)]);
                Plan { to, attack, outcome: Default::default() }
            }
            Rule::Aggressive => {
                let mut best: Option<(Plan, (i32, i32))> = None;
                for &to in cells {
                    if let Some((p, k)) = best_from(to)
                        && best.as_ref().is_none_or(|(_, b)| k > *b)
                    {
                        best = Some((p, k));
                    }
                }
                best.map(|b| b.0).unwrap_or_else(|| {
                    let to = cells.iter().copied().min_by_key(|&c| dist(c)).unwrap_or(stay.to);
                    Plan { to, ..stay }
                })
            }
            Rule::LeastDamage | Rule::SemiRandom => {
                // LeastDamage: (least threat, most damage, nearest); SemiRandom: (most damage,
                // least threat, nearest).
                let mut best: Option<(Plan, (i32, i32, i32))> = None;
                for &to in cells {
                    let attack = best_from(to);
                    let net = attack.as_ref().map_or(0, |a| a.1.0);
                    let key = if rule == Rule::LeastDamage {
                        (-threat(to), net, -dist(to))
                    } else {
                        (net, -threat(to), -dist(to))
                    };
                    if best.as_ref().is_none_or(|(_, k)| key > *k) {
                        best = Some((attack.map_or(Plan { to, ..stay }, |a| a.0), key));
                    }
                }
                best.map_or(stay, |b| b.0)
            }
            Rule::FarAttack => {
                let mut best: Option<(Plan, (i32, i32))> = None;
                for &to in cells {
                    if let Some((p, (net, _))) = best_from(to) {
                        let key = (dist(to), net);
                        if best.as_ref().is_none_or(|(_, k)| key > *k) {
                            best = Some((p, key));
                        }
                    }
                }
                best.map(|b| b.0).unwrap_or_else(|| {
                    let to = cells.iter().copied().min_by_key(|&c| (threat(c), -dist(c))).unwrap_or(stay.to);
                    Plan { to, ..stay }
                })
            }
            Rule::Flee => {
                let (mut sf, mut sr, mut m) = (0i32, 0i32, 0i32);
                for (s, u) in state.slots(self.side).zip(state.team(self.side)) {
                    if u.alive() && s != slot {
                        sf += i32::from(file_of(u.cell));
                        sr += i32::from(rank_of(u.cell));
                        m += 1;
                    }
                }
                let apart = |c: Cell| {
                    if m == 0 {
                        0
                    } else {
                        (i32::from(file_of(c)) * m - sf).abs() + (i32::from(rank_of(c)) * m - sr).abs()
                    }
                };
                let safe_attack = cells
                    .iter()
                    .filter(|&&c| threat(c) == 0)
                    .filter_map(|&c| best_from(c))
                    .max_by_key(|(_, k)| *k)
                    .map(|b| b.0);
                safe_attack.unwrap_or_else(|| {
                    let to = cells.iter().copied().min_by_key(|&c| (threat(c), apart(c))).unwrap_or(stay.to);
                    Plan { to, ..stay }
                })
            }
        }
    }
}

/// Whether `step` can be played as planned in `state`.
fn playable(state: &Tactics, step: &Step, cells: &mut [Cell; 64]) -> bool {
    let unit = state.units[step.slot as usize];
    if unit.cell != step.to {
        let n = state.reach_into(unit.cell, unit.stats().moves, cells);
        if !cells[..n].contains(&step.to) {
            return false;
        }
    }
    step.attack.is_none_or(|dir| state.outcome(step.slot as usize, step.to, dir).hits_enemy())
}

/// Plays `steps` from `root` on a copy: a step `fresh` gives a rule for is drawn anew by it; a
/// planned step that can no longer be played (a unit in the way, a target gone) is repaired by
/// `repair`. Steps are rewritten to what was played; a unit killed before its turn (friendly
/// fire) keeps its step unplayed. Returns the position at the end and which units (by team
/// index) attacked.
pub fn play(
    root: &Tactics,
    steps: &mut [Step],
    fresh: impl Fn(usize) -> Option<Rule>,
    repair: Rule,
    ctx: &mut Context,
    rng: &mut Rng,
) -> (Tactics, u8) {
    let mut state = root.clone();
    let mut attacked = 0u8;
    let mut cells = [0u8; 64];
    #[allow(clippy::needless_range_loop)] // `fresh` takes the index
    for i in 0..steps.len() {
        if state.is_over() {
            break;
        }
        let slot = steps[i].slot as usize;
        if !state.units[slot].alive() {
            continue;
        }
        let rule = fresh(i).or_else(|| (!playable(&state, &steps[i], &mut cells)).then_some(repair));
        if let Some(rule) = rule {
            let plan = ctx.plan(rule, &state, slot, rng);
            steps[i].to = plan.to;
            steps[i].attack = plan.attack;
            if !playable(&state, &steps[i], &mut cells) {
                steps[i] = Step { slot: steps[i].slot, to: state.units[slot].cell, attack: None };
            }
        }
        if steps[i].attack.is_some() {
            attacked |= 1 << (slot % MAX_TEAM);
        }
        let action = steps[i].action(&state);
        state.apply_action(action);
    }
    (state, attacked)
}

/// The order a strategy moves the units in (the side to move's units still to act).
pub fn order(strategy: Strategy, state: &Tactics, rng: &mut Rng) -> Vec<u8> {
    let mut slots: Vec<u8> = state.to_act().map(|s| s as u8).collect();
    match strategy {
        Strategy::Random | Strategy::SemiRandom => slots.shuffle(rng),
        Strategy::MaxAgro(true) => slots.reverse(),
        Strategy::TypeOrder(kinds) => {
            slots.sort_by_key(|&s| kinds.iter().position(|&k| k == state.units[s as usize].kind));
        }
        _ => {}
    }
    slots
}

/// The rule a strategy picks every act with.
pub fn rule_of(strategy: Strategy) -> Rule {
    match strategy {
        Strategy::Random => Rule::Random,
        Strategy::MaxAgro(_) | Strategy::TypeOrder(_) | Strategy::SorcererClear => Rule::Aggressive,
        Strategy::LeastDamage => Rule::LeastDamage,
        Strategy::FarAttackAndHide => Rule::FarAttack,
        Strategy::CloseGroupFlee => Rule::Flee,
        Strategy::SemiRandom => Rule::SemiRandom,
    }
}

/// Writes the scenario of `strategy` from `state` and plays it: the steps and the position they
/// leave, with the units that attacked. `None` for the sorcerer strategy without a sorcerer
/// that can hit anything.
pub fn generate(
    strategy: Strategy,
    state: &Tactics,
    ctx: &mut Context,
    rng: &mut Rng,
) -> Option<(Vec<Step>, Tactics, u8)> {
    if strategy == Strategy::SorcererClear {
        return sorcerer_clear(state, ctx, rng);
    }
    let mut steps: Vec<Step> =
        order(strategy, state, rng).into_iter().map(|slot| Step { slot, to: 0, attack: None }).collect();
    let rule = rule_of(strategy);
    let (end, attacked) = play(state, &mut steps, |_| Some(rule), Rule::Aggressive, ctx, rng);
    Some((steps, end, attacked))
}

/// Step 11: the sorcerer (of those still to act, the one with the best shot) picks the spot and
/// direction that hit the enemy hardest as if no ally stood in the way; the allies on that spot
/// or line move first, away from it, then the sorcerer fires, then the rest act as max_agro.
fn sorcerer_clear(state: &Tactics, ctx: &mut Context, rng: &mut Rng) -> Option<(Vec<Step>, Tactics, u8)> {
    let side = ctx.side;
    let mut clear = state.clone();
    for s in state.slots(side) {
        if state.units[s].alive() && state.units[s].kind != Kind::Sorcerer {
            clear.occupied.remove(state.units[s].cell);
        }
    }
    let mut best: Option<(usize, Plan, u16)> = None;
    let mut cells = Vec::with_capacity(64);
    for s in state.to_act().filter(|&s| state.units[s].kind == Kind::Sorcerer) {
        if let Some((plan, damage)) = clear.best_attack(s, &mut cells, |o| o.enemy_damage)
            && best.as_ref().is_none_or(|b| damage > b.2)
        {
            best = Some((s, plan, damage));
        }
    }
    let (sorcerer, plan, _) = best?;
    let dir = plan.attack?;
    let mut reserved = Cells::EMPTY;
    reserved.insert(plan.to);
    walk_line(&state.map, Kind::Sorcerer, plan.to, dir, |at| {
        reserved.insert(at);
        true
    });
    let mut movers: Vec<u8> = Vec::new();
    let mut rest: Vec<u8> = Vec::new();
    for s in state.to_act().filter(|&s| s != sorcerer) {
        if reserved.contains(state.units[s].cell) { movers.push(s as u8) } else { rest.push(s as u8) }
    }
    let first = movers.len();
    let mut steps: Vec<Step> = movers.into_iter().map(|slot| Step { slot, to: 0, attack: None }).collect();
    steps.push(Step { slot: sorcerer as u8, to: plan.to, attack: Some(dir) });
    steps.extend(rest.into_iter().map(|slot| Step { slot, to: 0, attack: None }));
    ctx.avoid = reserved;
    // The allies clearing the way must not end on the line; the sorcerer's own act is planned.
    let mut state_now = state.clone();
    let mut attacked = 0u8;
    for part in [0..first, first..first + 1, first + 1..steps.len()] {
        let fresh = part.start != first || part.is_empty();
        let (end, a) = play(
            &state_now,
            &mut steps[part.clone()],
            |_| fresh.then_some(Rule::Aggressive),
            Rule::Aggressive,
            ctx,
            rng,
        );
        state_now = end;
        attacked |= a;
        ctx.avoid = Cells::EMPTY;
    }
    Some((steps, state_now, attacked))
}

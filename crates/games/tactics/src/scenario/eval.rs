//! The scenario AI's judgement of the position a turn leaves (SEEDS.md §4, steps 1, 3, 6, 7, 12
//! and 14; docs/tactics.md, "The scenario AI"). Everything lives on the stack — fixed arrays
//! for reach, threat maps and distances — because the search scores tens of thousands of whole
//! turns per decision: one evaluation must cost microseconds, not the document's 20 ms.

use crate::grid::{Cell, Cells, Dir, Map, file_of, manhattan, rank_of, step};
use crate::plans::Scratch;
use crate::rules::{SLOTS, Tactics};
use crate::units::{Kind, MAX_TEAM, Shot, unit_value};

use super::Switches;

/// Every coefficient of the evaluation, in the document's points (a fighter unhurt is 100000).
/// [`Weights::hand_set`] holds the document's numbers where it gives them, ours where it does not
/// (docs/tactics.md lists which); the default is those times the tuned multipliers
/// [`DEFAULT_MULTIPLIERS`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Step 3: share of the value the enemy can take next turn that counts against us (0.20:
    /// the document's starting coefficient, so a real hit counts five times a threatened one).
    pub threat: f64,
    /// Step 3: share of the value we could take next turn that counts for us.
    pub threatened: f64,
    /// Step 6: points per punisher when the bait pattern holds (two punishers at least).
    pub bait: f64,
    /// Step 7: points off per step of the mean distance between allies.
    pub cohesion: f64,
    /// Step 7: points off per step of the mean distance from our units to the enemy's centre.
    pub advance: f64,
    /// Step 7: points off for the widest pair of allies beyond `spread_free` steps, doubling with
    /// each step more.
    pub spread: f64,
    pub spread_free: u8,
    /// Step 7: points off per unit that cannot reach an enemy and attack it within two turns.
    pub out_of_reach: f64,
    /// Step 7: points off per cell beyond `cramped_free` within two steps that is no earth.
    pub cramped: f64,
    pub cramped_free: u8,
    /// Step 7: points off per unit on the board's edge.
    pub border: f64,
    /// Step 12: a unit that attacked this turn.
    pub engage_attacked: f64,
    /// Step 12: a unit that can punish none of the N enemy firing positions (points off).
    pub engage_none: f64,
    /// Step 12: a unit that can punish all of them.
    pub engage_all: f64,
    /// Step 12: a unit that can punish n of N gets n / N of this.
    pub engage_some: f64,
    /// Step 12, the lost corrective rule as Ply writes it: on the losing side a wounded unit
    /// that attacked nothing and can punish nothing loses `engage_none` this many times over.
    pub losing_factor: f64,
    /// Step 12's form (`engagement=`): the document's, or a variant under trial.
    pub engagement_form: EngagementForm,
}

/// How step 12 counts a unit's engagement. Every form keeps the document's numbers (+1500 for an
/// attack, −1000 / +1200 / (n/N)·1000) and the corrective rule; they differ in what n counts or
/// in a scale on the whole term (docs/tactics.md, "The upper levels", gives the trials' figures).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EngagementForm {
    /// The document's: n counts every enemy firing position the unit's attacks reach.
    #[default]
    Document,
    /// n counts only the firing positions where the exchange is ours: the unit's hit on an enemy
    /// firing from there takes at least the value that enemy's best shot from there takes.
    Exchange,
    /// The document's term scaled by the material balance, ours / theirs (0.5–2): engaging
    /// trades units, which favours the side ahead and hurts the side behind.
    Balance,
    /// Judged after the enemy's reply, as max_agro would play it (the document's model of an
    /// aggressive enemy): N counts the cells the enemy's units actually fired from, n those our
    /// unit could attack next turn from where it then stands; an attack this turn earns its
    /// +1500 only if the unit survives the reply.
    Reply,
}

/// How many multipliers `weights=` takes: one per main term (docs/tactics.md lists them).
pub const TUNED: usize = 8;

/// The default multipliers of the hand-set terms, found by `ply tune tactics scenario` (the
/// document's schedule, 1,800 games at 300 iterations; docs/tactics.md, "Tuning"). They stay
/// multipliers, not baked products, so that `weights=1,1,1,1,1,1,1,1` is the hand-set evaluation
/// and a new tuning run searches the same space as the one that found them.
pub const DEFAULT_MULTIPLIERS: [f64; TUNED] = [2.257, 0.534, 1.428, 1.024, 1.044, 1.901, 0.292, 2.49];

impl Default for Weights {
    fn default() -> Self {
        Weights::scaled(&DEFAULT_MULTIPLIERS)
    }
}

impl Weights {
    /// The coefficients set by hand before tuning: the document's numbers (0.20, +1500, −1000,
    /// +1200, 1000) and ours for the terms it leaves without a number.
    pub fn hand_set() -> Self {
        Weights {
            threat: 0.20,
            threatened: 0.10,
            bait: 1500.0,
            cohesion: 300.0,
            advance: 200.0,
            spread: 500.0,
            spread_free: 4,
            out_of_reach: 2000.0,
            cramped: 300.0,
            cramped_free: 4,
            border: 800.0,
            engage_attacked: 1500.0,
            engage_none: 1000.0,
            engage_all: 1200.0,
            engage_some: 1000.0,
            losing_factor: 2.0,
            engagement_form: EngagementForm::Document,
        }
    }

    /// The hand-set coefficients with the main terms multiplied by `m` (the tuner's vector):
    /// threat, threatened, bait, cohesion (with the spread), advance, out of reach, terrain
    /// (cramped and border), engagement (every engagement number).
    pub fn scaled(m: &[f64; TUNED]) -> Weights {
        let d = Weights::hand_set();
        Weights {
            threat: d.threat * m[0],
            threatened: d.threatened * m[1],
            bait: d.bait * m[2],
            cohesion: d.cohesion * m[3],
            spread: d.spread * m[3],
            advance: d.advance * m[4],
            out_of_reach: d.out_of_reach * m[5],
            cramped: d.cramped * m[6],
            border: d.border * m[6],
            engage_attacked: d.engage_attacked * m[7],
            engage_none: d.engage_none * m[7],
            engage_all: d.engage_all * m[7],
            engage_some: d.engage_some * m[7],
            ..d
        }
    }
}

/// The parts of one evaluation, for tests and for reading what the AI thinks.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Terms {
    /// Step 1: our material and theirs.
    pub ours: f64,
    pub theirs: f64,
    /// Step 3: value the enemy can take from us next turn, and we from them (before weights).
    pub threat: f64,
    pub threatened: f64,
    /// Step 6: punishers when the bait pattern holds, else 0.
    pub bait_punishers: u32,
    /// Step 7: the cohesion and terrain points (already weighted; ≤ 0).
    pub cohesion: f64,
    /// Step 12: the engagement points (already weighted).
    pub engagement: f64,
    /// The N of step 12: cells from which an enemy can hit one of ours next turn.
    pub firing_positions: u32,
}

impl Terms {
    /// Our points: material and every heuristic term.
    pub fn ours_total(&self, w: &Weights) -> f64 {
        self.ours - w.threat * self.threat
            + w.threatened * self.threatened
            + w.bait * f64::from(self.bait_punishers)
            + self.cohesion
            + self.engagement
    }

    /// The score: our points over theirs with step 14, their difference without.
    pub fn score(&self, w: &Weights, ratio: bool) -> f64 {
        let ours = self.ours_total(w);
        if !ratio {
            ours - self.theirs
        } else if ours > 0.0 {
            ours / self.theirs.max(1.0)
        } else {
            // Penalties beyond our material: a ratio would then prefer a stronger enemy; below
            // every positive ratio, the difference keeps both directions right.
            (ours - self.theirs) / 1e6
        }
    }
}

/// Walks a `kind` attack line from `from` towards `dir` through terrain only (units ignored),
/// calling `visit` on each cell until it returns false.
#[inline]
pub(crate) fn walk_line(map: &Map, kind: Kind, from: Cell, dir: Dir, mut visit: impl FnMut(Cell) -> bool) {
    let stats = kind.stats();
    let mut at = from;
    for _ in 0..stats.range {
        let Some(next) = step(at, dir, map.size()) else { return };
        at = next;
        if map.is_wall(at) || (stats.shot == Shot::Fire && map.is_water(at)) || !visit(at) {
            return;
        }
    }
}

const NONE: u8 = u8::MAX;

/// Steps beyond `spread_free` that still double the spread penalty: at 6 it is 63 × 500, a
/// third of a fighter, and does not swamp material when the units are scattered anyway.
const SPREAD_CAP: u8 = 6;

/// Value a hit of `damage` takes from a unit of `kind` with `hp`.
#[inline]
fn value_lost(kind: Kind, hp: u8, damage: u8) -> f64 {
    unit_value(kind, hp) - unit_value(kind, hp.saturating_sub(damage))
}

/// Steps over earth from any of `from` (units ignored), into fixed buffers.
fn distances(map: &Map, from: &[Cell], dist: &mut [u8; 256]) {
    let mut queue = [0u8; 256];
    *dist = [u8::MAX; 256];
    let (mut head, mut tail) = (0, 0);
    for &c in from {
        if dist[c as usize] == u8::MAX {
            dist[c as usize] = 0;
            queue[tail] = c;
            tail += 1;
        }
    }
    while head < tail {
        let c = queue[head];
        head += 1;
        for dir in Dir::ALL {
            if let Some(n) = step(c, dir, map.size())
                && map.is_earth(n)
                && dist[n as usize] == u8::MAX
            {
                dist[n as usize] = dist[c as usize] + 1;
                queue[tail] = n;
                tail += 1;
            }
        }
    }
}

/// What one unit can do next turn from where it stands: its best hit in value, which of the
/// other side's units it can hit, the cells from which it can hit one, and every cell its
/// attacks can reach (terrain only).
struct Reach {
    best: f64,
    can_hit: u16,
    firing: Cells,
    covers: Cells,
}

fn unit_reach(state: &Tactics, slot: usize, slot_at: &[u8; 256], cells: &mut [Cell; 64]) -> Reach {
    let unit = state.units[slot];
    let side = Tactics::side_of(slot);
    let stats = unit.stats();
    let n = state.reach_into(unit.cell, stats.moves, cells);
    let mut r = Reach { best: 0.0, can_hit: 0, firing: Cells::EMPTY, covers: Cells::EMPTY };
    for &to in &cells[..n] {
        for dir in Dir::ALL {
            let mut gain = 0.0;
            let mut hits = 0u16;
            let mut blocked = false;
            walk_line(&state.map, unit.kind, to, dir, |at| {
                r.covers.insert(at);
                if blocked {
                    return true;
                }
                let s = slot_at[at as usize];
                if s != NONE && s as usize != slot {
                    let target = state.units[s as usize];
                    let lost = value_lost(target.kind, target.hp, stats.damage);
                    if Tactics::side_of(s as usize) != side {
                        gain += lost;
                        hits |= 1 << (s as usize % MAX_TEAM);
                    } else {
                        gain -= lost;
                    }
                    // Arrows and blades stop at the first unit; the line goes on for `covers`.
                    blocked = stats.shot != Shot::Fire;
                }
                true
            });
            if hits != 0 {
                r.firing.insert(to);
                r.can_hit |= hits;
                if gain > r.best {
                    r.best = gain;
                }
            }
        }
    }
    r
}

/// Scores the position `state` for `side`; `attacked` marks (by team index) our units that
/// attacked in the turn that led here.
pub fn evaluate(state: &Tactics, side: usize, attacked: u8, w: &Weights, on: &Switches) -> Terms {
    let mut terms = Terms { ours: state.value(side), theirs: state.value(1 - side), ..Terms::default() };
    if !(on.threat || on.bait || on.cohesion || on.engagement) {
        return terms;
    }
    let mut slot_at = [NONE; 256];
    for s in 0..SLOTS {
        if state.units[s].alive() {
            slot_at[state.units[s].cell as usize] = s as u8;
        }
    }
    let mut cells = [0u8; 64];
    let ours_slots = state.slots(side);
    let theirs_slots = state.slots(1 - side);
    // The enemy's next turn, from where it stands.
    let mut danger = Cells::EMPTY;
    let mut enemy_can_hit = [0u16; MAX_TEAM];
    let mut enemy_firing = [Cells::EMPTY; MAX_TEAM];
    let mut enemy_damage = [0u8; MAX_TEAM];
    for (i, e) in theirs_slots.clone().enumerate() {
        if !state.units[e].alive() {
            continue;
        }
        let r = unit_reach(state, e, &slot_at, &mut cells);
        terms.threat += r.best;
        danger = danger.union(r.firing);
        enemy_can_hit[i] = r.can_hit;
        enemy_firing[i] = r.firing;
        enemy_damage[i] = state.units[e].stats().damage;
    }
    // Ours.
    let mut covers = [Cells::EMPTY; MAX_TEAM];
    for (i, u) in ours_slots.clone().enumerate() {
        if !state.units[u].alive() {
            continue;
        }
        let r = unit_reach(state, u, &slot_at, &mut cells);
        terms.threatened += r.best;
        covers[i] = r.covers;
    }
    if !on.threat {
        terms.threat = 0.0;
        terms.threatened = 0.0;
    }
    if on.bait {
        terms.bait_punishers = bait(state, side, &enemy_can_hit, &enemy_firing, &enemy_damage, &covers);
    }
    if on.cohesion {
        terms.cohesion = cohesion(state, side, w);
    }
    terms.firing_positions = danger.count();
    if on.engagement
        && w.engagement_form == EngagementForm::Reply
        && !state.is_over()
        && state.player() != side
    {
        terms.engagement = reply_engagement(state, side, attacked, w);
    } else if on.engagement {
        let big = terms.firing_positions;
        let losing = terms.ours < terms.theirs;
        let exchange = w.engagement_form == EngagementForm::Exchange;
        let won = if exchange && big > 0 {
            won_exchanges(state, side, &slot_at, &mut cells)
        } else {
            [Cells::EMPTY; MAX_TEAM]
        };
        for (i, u) in ours_slots.enumerate() {
            let unit = state.units[u];
            if !unit.alive() {
                continue;
            }
            if attacked >> i & 1 != 0 {
                terms.engagement += w.engage_attacked;
                continue;
            }
            if big == 0 {
                continue;
            }
            let n = intersection_count(if exchange { &won[i] } else { &danger }, &covers[i]);
            terms.engagement += engagement_points(n, big, unit.hp < unit.stats().hp, losing, w);
        }
        if w.engagement_form == EngagementForm::Balance {
            terms.engagement *= (terms.ours / terms.theirs.max(1.0)).clamp(0.5, 2.0);
        }
    }
    terms
}

/// Step 12's points for a unit that can reach `n` of the `big` cells in question: the
/// corrective rule scales the penalty by `losing_factor` for a wounded unit of the losing side
/// that reaches none.
fn engagement_points(n: u32, big: u32, wounded: bool, losing: bool, w: &Weights) -> f64 {
    if n == 0 {
        -w.engage_none * if losing && wounded { w.losing_factor } else { 1.0 }
    } else if n == big {
        w.engage_all
    } else {
        f64::from(n) / f64::from(big) * w.engage_some
    }
}

/// Step 12 judged after the enemy's max_agro reply (`EngagementForm::Reply`); the corrective
/// rule reads the material after the reply too, since that is the balance the unit then faces.
fn reply_engagement(state: &Tactics, side: usize, attacked: u8, w: &Weights) -> f64 {
    let mut after = state.clone();
    // A trial form, off the default path: the planner's heap buffers per evaluation are
    // accepted here rather than threaded through every caller.
    let mut scratch = Scratch::default();
    let mut fired = Cells::EMPTY;
    while !after.is_over() && after.player() != side {
        let Some(slot) = after.to_act().next() else { break };
        let plan = after.aggressive_plan(slot, &mut scratch);
        if plan.attack.is_some() {
            fired.insert(plan.to);
        }
        after.apply_action(after.action_for(slot, &plan));
    }
    let mut slot_at = [NONE; 256];
    for s in 0..SLOTS {
        if after.units[s].alive() {
            slot_at[after.units[s].cell as usize] = s as u8;
        }
    }
    let big = fired.count();
    let losing = after.value(side) < after.value(1 - side);
    let mut cells = [0u8; 64];
    let mut points = 0.0;
    for (i, u) in after.slots(side).enumerate() {
        let unit = after.units[u];
        if !unit.alive() {
            continue;
        }
        if attacked >> i & 1 != 0 {
            points += w.engage_attacked;
            continue;
        }
        if big == 0 {
            continue;
        }
        let covers = unit_reach(&after, u, &slot_at, &mut cells).covers;
        let n = intersection_count(&fired, &covers);
        points += engagement_points(n, big, unit.hp < unit.stats().hp, losing, w);
    }
    points
}

/// For each of our units (by team index), the enemy firing positions where the exchange would be
/// ours (`EngagementForm::Exchange`): some enemy can hit one of ours from the cell, and our unit's
/// hit on that enemy takes at least the value of that enemy's best shot from there.
fn won_exchanges(
    state: &Tactics,
    side: usize,
    slot_at: &[u8; 256],
    cells: &mut [Cell; 64],
) -> [Cells; MAX_TEAM] {
    let mut won = [Cells::EMPTY; MAX_TEAM];
    for e in state.slots(1 - side) {
        let enemy = state.units[e];
        if !enemy.alive() {
            continue;
        }
        let stats = enemy.stats();
        let n = state.reach_into(enemy.cell, stats.moves, cells);
        for &to in &cells[..n] {
            // The enemy's best shot from `to`, in our value lost (friendly fire netted).
            let mut best = f64::NEG_INFINITY;
            for dir in Dir::ALL {
                let (mut gain, mut hits, mut blocked) = (0.0, false, false);
                walk_line(&state.map, enemy.kind, to, dir, |at| {
                    let s = slot_at[at as usize];
                    if blocked || s == NONE || s as usize == e {
                        return !blocked;
                    }
                    let target = state.units[s as usize];
                    let lost = value_lost(target.kind, target.hp, stats.damage);
                    if Tactics::side_of(s as usize) == side {
                        gain += lost;
                        hits = true;
                    } else {
                        gain -= lost;
                    }
                    blocked = stats.shot != Shot::Fire;
                    !blocked
                });
                if hits && gain > best {
                    best = gain;
                }
            }
            if best == f64::NEG_INFINITY {
                continue;
            }
            for (i, u) in state.slots(side).enumerate() {
                let ours = state.units[u];
                if ours.alive() && value_lost(enemy.kind, enemy.hp, ours.stats().damage) >= best {
                    won[i].insert(to);
                }
            }
        }
    }
    won
}

fn intersection_count(a: &Cells, b: &Cells) -> u32 {
    a.0.iter().zip(&b.0).map(|(x, y)| (x & y).count_ones()).sum()
}

/// Step 6: the number of punishers when exactly one of our units can be hit, by exactly one
/// enemy, survives that hit, and two or more of our other units can attack a cell from which
/// that enemy strikes it; 0 otherwise.
fn bait(
    state: &Tactics,
    side: usize,
    can_hit: &[u16; MAX_TEAM],
    firing: &[Cells; MAX_TEAM],
    damage: &[u8; MAX_TEAM],
    covers: &[Cells; MAX_TEAM],
) -> u32 {
    let all = can_hit.iter().fold(0u16, |a, &m| a | m);
    if all.count_ones() != 1 {
        return 0;
    }
    let victim = all.trailing_zeros() as usize;
    let mut hunters = (0..MAX_TEAM).filter(|&e| can_hit[e] != 0);
    let (Some(hunter), None) = (hunters.next(), hunters.next()) else { return 0 };
    if state.units[side * MAX_TEAM + victim].hp <= damage[hunter] {
        return 0;
    }
    let punishers = (0..MAX_TEAM)
        .filter(|&i| i != victim && intersection_count(&covers[i], &firing[hunter]) > 0)
        .count() as u32;
    if punishers >= 2 { punishers } else { 0 }
}

/// Step 7: allies close together, close to the enemy's centre, no pair far apart, every unit
/// within two turns of an attack, out of cramped places and off the edge. Points (≤ 0).
fn cohesion(state: &Tactics, side: usize, w: &Weights) -> f64 {
    let mut ours = [0u8; MAX_TEAM];
    let mut kinds = [Kind::Fighter; MAX_TEAM];
    let mut n = 0;
    for u in state.team(side).iter().filter(|u| u.alive()) {
        ours[n] = u.cell;
        kinds[n] = u.kind;
        n += 1;
    }
    let mut theirs = [0u8; MAX_TEAM];
    let mut m = 0;
    for u in state.team(1 - side).iter().filter(|u| u.alive()) {
        theirs[m] = u.cell;
        m += 1;
    }
    if n == 0 || m == 0 {
        return 0.0;
    }
    let mut points = 0.0;
    let (mut pair_sum, mut pairs, mut widest) = (0u32, 0u32, 0u8);
    for i in 0..n {
        for j in i + 1..n {
            let d = manhattan(ours[i], ours[j]);
            pair_sum += u32::from(d);
            pairs += 1;
            widest = widest.max(d);
        }
    }
    if pairs > 0 {
        points -= w.cohesion * f64::from(pair_sum) / f64::from(pairs);
    }
    if widest > w.spread_free {
        let over = i32::from((widest - w.spread_free).min(SPREAD_CAP));
        points -= w.spread * (2f64.powi(over) - 1.0);
    }
    let (cf, cr) = theirs[..m]
        .iter()
        .fold((0.0, 0.0), |(f, r), &c| (f + f64::from(file_of(c)), r + f64::from(rank_of(c))));
    let (cf, cr) = (cf / m as f64, cr / m as f64);
    let to_centre: f64 = ours[..n]
        .iter()
        .map(|&c| (f64::from(file_of(c)) - cf).abs() + (f64::from(rank_of(c)) - cr).abs())
        .sum();
    points -= w.advance * to_centre / n as f64;
    let mut dist = [0u8; 256];
    distances(&state.map, &theirs[..m], &mut dist);
    let size = state.map.size();
    for i in 0..n {
        let c = ours[i];
        let s = kinds[i].stats();
        // Two moves and then the attack's reach, along paths over earth.
        if u32::from(dist[c as usize]) > 2 * u32::from(s.moves) + u32::from(s.range) {
            points -= w.out_of_reach;
        }
        let (f, r) = (i32::from(file_of(c)), i32::from(rank_of(c)));
        if f == 0 || r == 0 || f == i32::from(size) - 1 || r == i32::from(size) - 1 {
            points -= w.border;
        }
        let mut blocked = 0u8;
        for df in -2i32..=2 {
            for dr in -2i32..=2 {
                let reach = df.abs() + dr.abs();
                if reach == 0 || reach > 2 {
                    continue;
                }
                let (x, y) = (f + df, r + dr);
                let off = x < 0 || y < 0 || x >= i32::from(size) || y >= i32::from(size);
                if off || !state.map.is_earth(crate::grid::cell(x as u8, y as u8)) {
                    blocked += 1;
                }
            }
        }
        if blocked > w.cramped_free {
            points -= w.cramped * f64::from(blocked - w.cramped_free);
        }
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ones_are_the_hand_set_weights_and_the_default_is_tuned() {
        assert_eq!(Weights::scaled(&[1.0; TUNED]), Weights::hand_set());
        let (d, h) = (Weights::default(), Weights::hand_set());
        assert_eq!(d.threat, h.threat * 2.257);
        assert_eq!(d.engage_none, h.engage_none * 2.49);
        // What no multiplier covers stays hand-set.
        assert_eq!(
            (d.spread_free, d.cramped_free, d.losing_factor),
            (h.spread_free, h.cramped_free, h.losing_factor)
        );
    }
}

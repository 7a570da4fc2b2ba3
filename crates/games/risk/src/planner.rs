//! `planner`: Ply's own Risk player. It plans a turn over macro-actions — a blitz from one
//! territory to another, judged by its exact outcome odds (the dice Markov chain: the chance of
//! taking the territory and the armies expected to survive either way) — and looks a few
//! attacks ahead, keeping the best few at each step. Positions at the end of the turn are
//! judged by the [`Outlook`]: every seat's income, armies and territories, less what its
//! neighbours threaten to take, with continents held whole counted at risk.

use ply_core::{Agent, Decision, Game, Limits, Player, Returns, SearchInfo};
use ply_search::Evaluator;

use crate::agents::Greedy;
use crate::dice::{conquest_probability, expected_survivors};
use crate::map::bits;
use crate::rules::{Phase, Risk, RiskAction};

/// How a position looks to a seat at the end of its turn: its share of the table's strength.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outlook {
    /// Weights of income, armies, territories and continent safety.
    pub weights: [f64; 4],
    /// How sharply strength turns into a share of the wins (strength^sharpness).
    pub sharpness: f64,
}

impl Default for Outlook {
    fn default() -> Self {
        Outlook { weights: [3.0, 2.0, 1.0, 1.0], sharpness: 1.0 }
    }
}

impl Outlook {
    /// `seat`'s expected share of the wins.
    pub fn share(&self, state: &Risk, seat: Player) -> f64 {
        let n = state.players();
        let mut strength = [0.0f64; 8];
        let mut parts = [[0.0f64; 4]; 8];
        let mut totals = [0.0f64; 4];
        for p in (0..n).filter(|&p| state.is_alive(p)) {
            parts[p] = self.parts(state, p);
            for k in 0..4 {
                totals[k] += parts[p][k];
            }
        }
        let weight_sum: f64 = self.weights.iter().sum::<f64>().max(1e-9);
        for p in 0..n {
            let s: f64 =
                (0..4)
                    .map(|k| {
                        if totals[k] > 0.0 { self.weights[k] * parts[p][k].max(0.0) / totals[k] } else { 0.0 }
                    })
                    .sum::<f64>()
                    / weight_sum;
            strength[p] = s.max(0.0).powf(self.sharpness);
        }
        let sum: f64 = strength[..n].iter().sum();
        if sum <= 0.0 { 1.0 / n as f64 } else { strength[seat] / sum }
    }

    /// Income (with the cards it holds and may earn), armies, territories and the bonus of the
    /// continents it holds, each less what its neighbours threaten.
    fn parts(&self, state: &Risk, seat: Player) -> [f64; 4] {
        let map = state.map();
        let own = state.territories_of(seat as u8);
        let mut expected_losses = 0.0;
        let mut danger = [0.0f64; 64];
        for t in bits(own) {
            let x = u32::from(state.armies(t));
            let worst = bits(map.territories[t].border & !own)
                .map(|y| conquest_probability(u32::from(state.armies(y)).saturating_sub(1), x))
                .fold(0.0, f64::max);
            danger[t] = worst;
            expected_losses += worst;
        }
        let mut bonus = 0.0;
        for c in &map.continents {
            if c.territories & !own == 0 {
                let risk = bits(c.territories).map(|t| danger[t]).fold(0.0, f64::max);
                bonus += f64::from(c.bonus) * (1.0 - risk);
            }
        }
        let cards = state.hand_size(seat) as f64 * f64::from(state.next_set_value()) / 3.0;
        let earned = if seat == state.current() && state.conquered_this_turn() {
            f64::from(state.next_set_value()) / 3.0
        } else {
            0.0
        };
        let territories = f64::from(own.count_ones());
        let income = (territories / 3.0).max(3.0) + bonus + cards + earned;
        [income, f64::from(state.armies_of(seat as u8)), territories - expected_losses, bonus]
    }
}

impl Evaluator<Risk> for Outlook {
    fn evaluate(&self, state: &Risk, player: Player) -> f64 {
        let mine = self.share(state, player);
        let best_other =
            (0..state.players()).filter(|&p| p != player).map(|p| self.share(state, p)).fold(0.0, f64::max);
        (mine - best_other).clamp(-1.0, 1.0)
    }

    fn expected_scores(&self, state: &Risk) -> Returns {
        if state.is_over() {
            return state.returns();
        }
        let n = state.players();
        let mut scores = Returns::zeros(n);
        for p in 0..n {
            scores.set(p, self.share(state, p));
        }
        scores
    }
}

/// The plan's search: how many attacks ahead, and how many are followed at each step.
#[derive(Clone, Copy, Debug)]
pub struct Planner {
    pub outlook: Outlook,
    pub depth: u32,
    pub breadth: usize,
    /// Attacks less likely than this to take their territory are not considered.
    pub min_odds: f64,
}

impl Default for Planner {
    fn default() -> Self {
        Planner { outlook: Outlook::default(), depth: 3, breadth: 5, min_odds: 0.2 }
    }
}

impl Planner {
    pub fn choose(&self, state: &Risk, actions: &[RiskAction]) -> RiskAction {
        let me = state.current();
        match state.phase() {
            Phase::Draft => {
                if let Some(&trade) = actions.iter().find(|a| matches!(a, RiskAction::Trade(_))) {
                    return best_trade(state, actions).unwrap_or(trade);
                }
                self.best_by(state, actions, |s| self.attack_value(s, me, self.depth.saturating_sub(1)))
            }
            Phase::Attack => {
                let stop = self.outlook.share(state, me);
                let mut best = (stop, RiskAction::EndAttack);
                for (from, to, odds) in self.candidate_attacks(state) {
                    let (win, loss) = blitz_outcomes(state, from, to);
                    let value = odds * self.attack_value(&win, me, self.depth - 1)
                        + (1.0 - odds) * self.attack_value(&loss, me, self.depth - 1);
                    if value > best.0 {
                        best = (value, RiskAction::Attack { from: from as u8, to: to as u8, blitz: true });
                    }
                }
                if actions.contains(&best.1) { best.1 } else { RiskAction::EndAttack }
            }
            Phase::Occupy { .. } => {
                self.best_by(state, actions, |s| self.attack_value(s, me, self.depth.saturating_sub(1)))
            }
            Phase::Fortify => self.best_by(state, actions, |s| self.outlook.share(s, me)),
            _ => Greedy::choose(state, actions),
        }
    }

    /// The action whose resulting position `value` likes best (placements: all of the draft on
    /// one territory, judged after it).
    fn best_by(&self, state: &Risk, actions: &[RiskAction], value: impl Fn(&Risk) -> f64) -> RiskAction {
        let mut best = (f64::NEG_INFINITY, actions[0]);
        for &action in actions {
            if let RiskAction::Place { armies, .. } = action
                && armies != state.reserve()
            {
                continue;
            }
            let mut after = state.clone();
            after.apply(action);
            let v = value(&after);
            if v > best.0 {
                best = (v, action);
            }
        }
        best.1
    }

    /// The best the player can expect from here by going on attacking (or stopping).
    fn attack_value(&self, state: &Risk, me: Player, depth: u32) -> f64 {
        if state.is_over() {
            return state.returns().get(me);
        }
        let stop = self.outlook.share(state, me);
        if depth == 0 || !matches!(state.phase(), Phase::Attack | Phase::Draft | Phase::Occupy { .. }) {
            return stop;
        }
        let mut best = stop;
        for (from, to, odds) in self.candidate_attacks(state) {
            let (win, loss) = blitz_outcomes(state, from, to);
            let value = odds * self.attack_value(&win, me, depth - 1)
                + (1.0 - odds) * self.attack_value(&loss, me, depth - 1);
            best = best.max(value);
        }
        best
    }

    /// The most promising blitzes: odds at least `min_odds`, best odds-weighted first.
    fn candidate_attacks(&self, state: &Risk) -> Vec<(usize, usize, f64)> {
        let map = state.map();
        let me = state.current() as u8;
        let own = state.territories_of(me);
        let mut candidates = Vec::new();
        for from in bits(own).filter(|&t| state.armies(t) >= 2) {
            for to in bits(map.territories[from].border & !own) {
                let odds =
                    conquest_probability(u32::from(state.armies(from)) - 1, u32::from(state.armies(to)));
                if odds >= self.min_odds {
                    candidates.push((from, to, odds));
                }
            }
        }
        candidates.sort_by(|a, b| b.2.total_cmp(&a.2));
        candidates.truncate(self.breadth);
        candidates
    }
}

/// The highest set, preferring one with a pictured territory the player holds.
fn best_trade(state: &Risk, actions: &[RiskAction]) -> Option<RiskAction> {
    let me = state.current() as u8;
    actions
        .iter()
        .filter_map(|&a| match a {
            RiskAction::Trade(cards) => {
                let bonus =
                    cards.iter().any(|&c| (c as usize) < state.map().len() && state.owner(c as usize) == me);
                Some((state.set_value(cards).unwrap_or(0) * 2 + u16::from(bonus), a))
            }
            _ => None,
        })
        .max_by_key(|&(v, _)| v)
        .map(|(_, a)| a)
}

/// The position after a blitz from `from` to `to` that takes the territory, and after one that
/// fails, each with the armies expected to survive (rounded). A conquest moves every survivor in
/// unless `from` still faces another enemy, in which case half stay.
fn blitz_outcomes(state: &Risk, from: usize, to: usize) -> (Risk, Risk) {
    let attackers = u32::from(state.armies(from)) - 1;
    let defenders = u32::from(state.armies(to));
    let (won_with, held_with) = expected_survivors(attackers, defenders);
    let mut win = state.clone();
    let survivors = (won_with.round() as u16).clamp(1, attackers as u16);
    let me = state.current() as u8;
    let loser = win.owner[to];
    win.owner[to] = me;
    win.conquered = true;
    if win.territories_of(loser) == 0 && (loser as usize) < crate::rules::MAX_SEATS {
        // An elimination hands over the loser's cards.
        let cards = std::mem::take(&mut win.hands[loser as usize]);
        win.hands[me as usize] |= cards;
    }
    let own = win.territories_of(me);
    let still_facing = win.map().territories[from].border & !own != 0;
    let moved = if still_facing { survivors.div_ceil(2) } else { survivors };
    win.armies[to] = moved;
    win.armies[from] = 1 + survivors - moved;
    win.phase = if win.territories_of(loser) == 0 && win.alive_seats().count() <= 1 {
        Phase::Over
    } else {
        Phase::Attack
    };
    let mut loss = state.clone();
    loss.armies[from] = 1;
    loss.armies[to] = (held_with.round() as u16).clamp(1, defenders as u16);
    loss.phase = Phase::Attack;
    (win, loss)
}

/// `planner` as an agent.
pub struct PlannerAgent {
    pub planner: Planner,
}

impl Agent<Risk> for PlannerAgent {
    fn choose(
        &mut self,
        state: &Risk,
        _limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo<RiskAction>),
    ) -> Decision<RiskAction> {
        let actions = state.actions();
        let decision = Decision::new(self.planner.choose(state, &actions));
        report(&decision.info);
        decision
    }
}

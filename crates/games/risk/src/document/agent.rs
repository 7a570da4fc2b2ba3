//! The document's agent in the real game (docs/risk-minimax.md, "In the real game").
//!
//! - Draft: trades whenever it can (the document has no cards), then places its armies by the
//!   NBSR rule. A placement is a chunk of the reserve (one, half, all) on one territory, so the
//!   NBSR allocation of the reserve is worked out once and approached chunk by chunk: the
//!   territory with the largest deficit first, the largest chunk not above that deficit.
//! - Attack: alpha-beta on the prediction tree from the real position; the first attack of the
//!   plan is played as a blitz (until the territory falls or one army is left), or the attack
//!   phase ends when the plan attacks no more. The search runs again before each attack, from
//!   what the dice really left, with the attacks left of the turn's `attacks`.
//! - Occupy: the count closest to the survivors the tree predicted for that attack.
//! - Fortify (the document has none): all but one army of an interior territory to the
//!   neighbouring front territory with the highest BSR, if there is such a move; else the
//!   turn ends.
//! - Setup and picking (the document deals the map): a setup army goes to the highest BSR;
//!   picks follow `greedy`.
//!
//! What it remembers serves only the turn in progress — attacks made, the draft allocation, the
//! survivors of the last attack — and is checked against the position before use, so any state
//! handed to it gets a legal answer.

use ply_core::{Agent, Decision, Game, Limits, SearchInfo};
use ply_search::AlphaBeta;

use super::draft::{allocation, border_security_ratios};
use super::prediction::{Move, Prediction, battle};
use super::{AttackOrder, DocumentEval, DraftRule, MinimaxConfig};
use crate::agents::Greedy;
use crate::rules::{Phase, Risk, RiskAction};

/// A turn: the round and the seat.
type TurnKey = (u16, u8);

/// The draft allocation of a turn and what the position must look like for it to apply.
struct DraftPlan {
    armies: Vec<u16>,
    reserve: u16,
    seat: u8,
    /// Armies still to place, per territory, largest first.
    deficits: Vec<(usize, u16)>,
}

pub struct MinimaxAgent {
    config: MinimaxConfig,
    search: AlphaBeta<Prediction, DocumentEval, AttackOrder>,
    turn: Option<TurnKey>,
    attacks_made: u8,
    /// The last attack: (from, to, the survivors the tree predicted).
    attack: Option<(u8, u8, u16)>,
    draft: Option<DraftPlan>,
}

impl MinimaxAgent {
    pub fn new(config: MinimaxConfig) -> Self {
        MinimaxAgent {
            search: config.search(),
            config,
            turn: None,
            attacks_made: 0,
            attack: None,
            draft: None,
        }
    }

    fn enter_turn(&mut self, state: &Risk) {
        let key = (state.round(), state.current() as u8);
        if self.turn != Some(key) {
            self.turn = Some(key);
            self.attacks_made = 0;
            self.attack = None;
        }
    }

    fn place(&mut self, state: &Risk) -> RiskAction {
        if self.config.draft == DraftRule::Front {
            return Greedy::choose(state, &state.actions());
        }
        let n = state.map().len();
        let (seat, reserve) = (state.current() as u8, state.reserve());
        let fits = |plan: &DraftPlan| {
            plan.seat == seat && plan.reserve == reserve && plan.armies == state.armies[..n]
        };
        if !self.draft.as_ref().is_some_and(fits) {
            let deficits = allocation(state.map(), &state.owner[..n], &state.armies[..n], seat, reserve);
            self.draft = Some(DraftPlan { armies: state.armies[..n].to_vec(), reserve, seat, deficits });
        }
        let plan = self.draft.as_mut().expect("made above");
        plan.deficits.sort_by_key(|d| std::cmp::Reverse(d.1));
        let (t, deficit) = plan.deficits[0];
        let armies = Risk::chunks(1, reserve).filter(|&c| c <= deficit).max().unwrap_or(1);
        plan.deficits[0].1 -= armies;
        plan.deficits.retain(|d| d.1 > 0);
        plan.armies[t] += armies;
        plan.reserve -= armies;
        RiskAction::Place { territory: t as u8, armies }
    }

    fn trade(state: &Risk, actions: &[RiskAction]) -> Option<RiskAction> {
        let value = |cards: [u8; 3]| {
            let bonus =
                cards.iter().any(|&c| (c as usize) < state.map().len() && state.owned_by_current(c as usize));
            2 * u32::from(state.set_value(cards).unwrap_or(0)) + u32::from(bonus)
        };
        actions
            .iter()
            .filter_map(|&a| if let RiskAction::Trade(cards) = a { Some((a, value(cards))) } else { None })
            .max_by_key(|&(_, v)| v)
            .map(|(a, _)| a)
    }

    fn attack(
        &mut self,
        state: &Risk,
        limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo<RiskAction>),
    ) -> Decision<RiskAction> {
        if self.attacks_made >= self.config.attacks {
            return Decision::new(RiskAction::EndAttack);
        }
        let root = Prediction::from_risk(state, self.config.attacks - self.attacks_made, self.config.attacks);
        let mover = root.mover();
        // Only the mover's own attacks of this turn are real actions; the rest of the line is
        // the tree's forecast.
        let real_line = |pv: &[Move]| -> Vec<RiskAction> {
            let mut line = Vec::new();
            let mut s = root.clone();
            for &m in pv {
                if s.mover() != mover || (!line.is_empty() && !s.continues_turn()) {
                    break;
                }
                line.push(real(m));
                s.apply(m);
            }
            line
        };
        let decision = self.search.choose(&root, limits, &mut |info| {
            let mut mapped = info.map_actions(|&m| real(m));
            mapped.pv = real_line(&info.pv);
            report(&mapped);
        });
        let mut info = decision.info.map_actions(|&m| real(m));
        info.pv = real_line(&decision.info.pv);
        if let Move::Attack { from, to } = decision.action {
            self.attacks_made += 1;
            let (_, _, survivors, _) = battle(state.armies(from as usize), state.armies(to as usize));
            self.attack = Some((from, to, survivors));
        }
        Decision { action: real(decision.action), info }
    }

    fn occupy(&self, state: &Risk, from: u8, to: u8, min: u16) -> RiskAction {
        let most = state.armies(from as usize) - 1;
        let wanted = match self.attack {
            Some((f, t, survivors)) if (f, t) == (from, to) => survivors,
            // Not our plan (a position handed in): half way, as the tree sends about half.
            _ => min + (most - min).div_ceil(2),
        };
        let armies = Risk::chunks(min, most).min_by_key(|&c| c.abs_diff(wanted)).unwrap_or(min);
        RiskAction::Occupy(armies)
    }

    fn fortify(state: &Risk, actions: &[RiskAction]) -> RiskAction {
        let n = state.map().len();
        let me = state.current() as u8;
        let own = state.territories_of(me);
        let bsr = border_security_ratios(state.map(), &state.armies[..n], own);
        let interior = |t: usize| state.map().territories[t].border & !own == 0;
        actions
            .iter()
            .filter_map(|&a| match a {
                RiskAction::Fortify { from, to, armies }
                    if interior(from as usize)
                        && !interior(to as usize)
                        && armies == state.armies(from as usize) - 1
                        && state.map().territories[from as usize].border & (1 << to) != 0 =>
                {
                    Some((a, armies, bsr[to as usize]))
                }
                _ => None,
            })
            .max_by(|a, b| a.1.cmp(&b.1).then(a.2.total_cmp(&b.2)))
            .map_or(RiskAction::EndTurn, |(a, _, _)| a)
    }

    fn setup(state: &Risk) -> RiskAction {
        let n = state.map().len();
        let placed = allocation(state.map(), &state.owner[..n], &state.armies[..n], state.current() as u8, 1);
        let territory = placed.first().map_or(0, |&(t, _)| t as u8);
        RiskAction::Place { territory, armies: 1 }
    }
}

fn real(m: Move) -> RiskAction {
    match m {
        Move::Attack { from, to } => RiskAction::Attack { from, to, blitz: true },
        Move::EndTurn => RiskAction::EndAttack,
    }
}

impl Agent<Risk> for MinimaxAgent {
    fn choose(
        &mut self,
        state: &Risk,
        limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo<RiskAction>),
    ) -> Decision<RiskAction> {
        let actions = state.actions();
        assert!(!actions.is_empty(), "minimax asked to move where nobody can");
        self.enter_turn(state);
        let decision = match state.phase() {
            Phase::Attack => self.attack(state, limits, report),
            phase => {
                let action = match phase {
                    Phase::Pick => Greedy::choose(state, &actions),
                    Phase::Setup => Self::setup(state),
                    Phase::Draft => Self::trade(state, &actions).unwrap_or_else(|| self.place(state)),
                    Phase::Occupy { from, to, min } => self.occupy(state, from, to, min),
                    Phase::Fortify => Self::fortify(state, &actions),
                    _ => actions[0],
                };
                Decision::new(action)
            }
        };
        if actions.contains(&decision.action) {
            decision
        } else {
            // Nothing above should get here; a legal move is the contract all the same.
            debug_assert!(false, "minimax chose {:?} in {:?}", decision.action, state.phase());
            Decision::new(actions[0])
        }
    }
}

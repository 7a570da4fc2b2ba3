//! What can happen in a position: the legal actions of the player to move (counts of armies in
//! chunks) and the outcomes of a pending chance event with their exact probabilities.

use crate::dice;
use crate::map::bits;
use crate::rules::{FortifyRule, OPEN, Phase, Risk, RiskAction};
use ply_core::rng::Rng;

impl Risk {
    /// Counts offered for moving `most` armies at least `least`: the least, half way (rounded
    /// up) and the most.
    pub fn chunks(least: u16, most: u16) -> impl Iterator<Item = u16> {
        let values = [least, least + (most - least).div_ceil(2), most];
        (0..3).filter(move |&i| i == 0 || values[i] != values[i - 1]).map(move |i| values[i])
    }

    /// Territories `from` may fortify: neighbours, everything reached through the player's
    /// own territories, or (`Anywhere`) every other own territory.
    pub fn fortify_targets(&self, from: usize) -> u64 {
        self.fortify_targets_within(from, self.territories_of(self.current))
    }

    /// [`Risk::fortify_targets`] with the mover's territories `own` computed once per listing.
    pub(crate) fn fortify_targets_within(&self, from: usize, own: u64) -> u64 {
        let neighbours = self.map().territories[from].border & own;
        match self.rules.fortify {
            FortifyRule::Adjacent => return neighbours,
            FortifyRule::Anywhere => return own & !(1 << from),
            FortifyRule::Connected => {}
        }
        let mut reached = 1u64 << from;
        let mut frontier = reached;
        while frontier != 0 {
            let next =
                bits(frontier).fold(0, |acc, t| acc | self.map().territories[t].border) & own & !reached;
            reached |= next;
            frontier = next;
        }
        reached & !(1 << from)
    }

    pub(crate) fn list_actions(&self, out: &mut Vec<RiskAction>) {
        out.clear();
        let n = self.map().len();
        match self.phase {
            Phase::Deal | Phase::Battle { .. } | Phase::Draw | Phase::Over => {}
            Phase::Pick => {
                out.extend((0..n).filter(|&t| self.owner[t] == OPEN).map(|t| RiskAction::Pick(t as u8)));
            }
            Phase::Setup => {
                out.extend(
                    (0..n)
                        .filter(|&t| self.owned_by_current(t))
                        .map(|t| RiskAction::Place { territory: t as u8, armies: 1 }),
                );
            }
            Phase::Draft => {
                if self.rules.cards() {
                    self.for_each_set_in_hand(self.current(), |set| out.push(RiskAction::Trade(set)));
                }
                if !self.must_trade() && self.reserve > 0 {
                    for t in (0..n).filter(|&t| self.owned_by_current(t)) {
                        out.extend(
                            Self::chunks(1, self.reserve)
                                .map(|armies| RiskAction::Place { territory: t as u8, armies }),
                        );
                    }
                }
            }
            Phase::Attack => {
                let own = self.territories_of(self.current);
                for from in bits(own).filter(|&t| self.armies[t] >= 2) {
                    let territory = &self.map().territories[from];
                    if territory.border & !own == 0 {
                        continue;
                    }
                    // In the map's order of neighbours, not bit order: the listing's order is
                    // part of every seeded game.
                    for to in territory.neighbours.iter().copied() {
                        if !self.owned_by_current(to) {
                            for blitz in [false, true] {
                                out.push(RiskAction::Attack { from: from as u8, to: to as u8, blitz });
                            }
                        }
                    }
                }
                out.push(RiskAction::EndAttack);
            }
            Phase::Occupy { from, min, .. } => {
                let most = self.armies[from as usize] - 1;
                out.extend(Self::chunks(min, most).map(RiskAction::Occupy));
            }
            Phase::Fortify => {
                let own = self.territories_of(self.current);
                for from in bits(own).filter(|&t| self.armies[t] >= 2) {
                    for to in bits(self.fortify_targets_within(from, own)) {
                        out.extend(
                            Self::chunks(1, self.armies[from] - 1).map(|armies| RiskAction::Fortify {
                                from: from as u8,
                                to: to as u8,
                                armies,
                            }),
                        );
                    }
                }
                out.push(RiskAction::EndTurn);
            }
        }
    }

    /// The dice of the pending roll: attacker's and defender's.
    pub fn battle_dice(&self, from: usize, to: usize) -> (usize, usize) {
        (usize::from(self.armies[from] - 1).min(3), usize::from(self.armies[to]).min(2))
    }

    pub(crate) fn list_outcomes(&self, out: &mut Vec<(RiskAction, f64)>) {
        out.clear();
        match self.phase {
            Phase::Deal => out.extend(self.deal_outcomes()),
            Phase::Battle { from, to, .. } => out.extend(self.battle_outcomes(from, to)),
            Phase::Draw => out.extend(self.draw_outcomes()),
            _ => {}
        }
    }

    /// Draws an outcome without building the list (random games roll the dice thousands of
    /// times): the same draw, from the same order, as from the listed outcomes.
    pub(crate) fn sample_outcome(&self, rng: &mut Rng) -> RiskAction {
        match self.phase {
            Phase::Deal => ply_core::sample_outcome_from(self.deal_outcomes(), rng),
            Phase::Battle { from, to, .. } => {
                ply_core::sample_outcome_from(self.battle_outcomes(from, to), rng)
            }
            Phase::Draw => ply_core::sample_outcome_from(self.draw_outcomes(), rng),
            _ => panic!("no chance event is pending"),
        }
    }

    /// The next territory's owner in the deal, in proportion to the territories each has left.
    fn deal_outcomes(&self) -> impl Iterator<Item = (RiskAction, f64)> + '_ {
        let territory = self.dealt;
        let left = (self.map().len() - self.dealt as usize) as f64;
        self.deal_owners().filter_map(move |owner| {
            let quota_left = self.deal_quota(owner) - self.dealt_to(owner);
            (quota_left > 0).then(|| (RiskAction::Deal { territory, owner }, f64::from(quota_left) / left))
        })
    }

    fn battle_outcomes(&self, from: u8, to: u8) -> impl Iterator<Item = (RiskAction, f64)> + use<> {
        let (a, d) = self.battle_dice(from as usize, to as usize);
        dice::roll_outcomes(a, d).iter().map(move |&(al, dl, count)| {
            (RiskAction::Dice { attacker_loses: al, defender_loses: dl }, dice::probability(count, a, d))
        })
    }

    /// A card from the deck, or from the reshuffled discard pile once the deck is empty.
    fn draw_outcomes(&self) -> impl Iterator<Item = (RiskAction, f64)> + use<> {
        let pile = if self.deck() != 0 { self.deck() } else { self.discard };
        let p = 1.0 / f64::from(pile.count_ones());
        (0..128u8).filter(move |&c| pile & (1u128 << c) != 0).map(move |c| (RiskAction::Draw(c), p))
    }
}

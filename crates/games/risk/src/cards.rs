//! Cards: sets, their values (escalating or fixed) and trading them in.

use ply_core::Player;

use crate::map::CardKind;
use crate::rules::{CardValues, Risk};

impl Risk {
    /// Armies the next set traded is worth (escalating values; fixed values depend on the set).
    pub fn next_set_value(&self) -> u16 {
        escalating_value(self.trades)
    }

    /// What trading `cards` gives, in armies to place (not counting the +2 on a pictured
    /// territory), or `None` if they are not a set.
    pub fn set_value(&self, cards: [u8; 3]) -> Option<u16> {
        // Called for every three cards of a hand on each draft's listing: no allocation.
        let mut pictures = [CardKind::Infantry; 3];
        let mut count = 0;
        for c in cards {
            if let Some(kind) = self.map().card_kind(c as usize) {
                pictures[count] = kind;
                count += 1;
            }
        }
        let pictures = &pictures[..count];
        let wilds = 3 - count;
        let same = pictures.windows(2).all(|w| w[0] == w[1]);
        let different = pictures.iter().enumerate().all(|(i, k)| !pictures[..i].contains(k));
        if wilds == 0 && !same && !different {
            return None;
        }
        let kind_value = |kind: &CardKind| match kind {
            CardKind::Infantry => 4,
            CardKind::Cavalry => 6,
            CardKind::Artillery => 8,
        };
        Some(match self.rules.card_values {
            CardValues::None => return None,
            CardValues::Escalating => escalating_value(self.trades),
            // A wild card stands for whatever makes the set worth most.
            CardValues::Fixed => match wilds {
                0 if same => kind_value(&pictures[0]),
                1 if pictures[0] == pictures[1] => kind_value(&pictures[0]),
                _ => 10,
            },
        })
    }

    /// Whether the player to move must trade before anything else.
    pub fn must_trade(&self) -> bool {
        self.rules.cards() && self.hand_size(self.current()) >= 5
    }

    /// Three-card sets in the hand of `seat`, each in increasing card order.
    pub fn sets_in_hand(&self, seat: Player, out: &mut Vec<[u8; 3]>) {
        out.clear();
        self.for_each_set_in_hand(seat, |set| out.push(set));
    }

    /// [`Risk::sets_in_hand`] without a list, for the legal actions of every draft.
    pub(crate) fn for_each_set_in_hand(&self, seat: Player, mut visit: impl FnMut([u8; 3])) {
        let mut cards = [0u8; 128];
        let mut len = 0;
        let mut hand = self.hands[seat];
        while hand != 0 {
            cards[len] = hand.trailing_zeros() as u8;
            len += 1;
            hand &= hand - 1;
        }
        let cards = &cards[..len];
        for i in 0..cards.len() {
            for j in i + 1..cards.len() {
                for k in j + 1..cards.len() {
                    let set = [cards[i], cards[j], cards[k]];
                    if self.set_value(set).is_some() {
                        visit(set);
                    }
                }
            }
        }
    }

    pub(crate) fn trade(&mut self, cards: [u8; 3]) {
        let value = self.set_value(cards).unwrap_or(0);
        self.acted = true;
        self.trades += 1;
        self.reserve += value;
        let seat = self.current();
        for c in cards {
            self.hands[seat] &= !(1u128 << c);
            self.discard |= 1u128 << c;
        }
        // One +2 per set, on the first pictured territory the player holds.
        if let Some(&t) =
            cards.iter().find(|&&c| (c as usize) < self.map().len() && self.owned_by_current(c as usize))
        {
            self.armies[t as usize] += 2;
        }
        self.settle_draft();
    }
}

/// 4, 6, 8, 10, 12, 15, then 5 more each time.
pub fn escalating_value(trades_before: u16) -> u16 {
    const FIRST: [u16; 6] = [4, 6, 8, 10, 12, 15];
    match FIRST.get(trades_before as usize) {
        Some(&v) => v,
        None => 15 + 5 * (trades_before - 5),
    }
}

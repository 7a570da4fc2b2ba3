//! The rules of Risk (docs/risk.md): the deal or the pick of territories, starting armies, and
//! turns of trading, drafting, attacking with dice, moving in and fortifying, with cards hidden
//! in hand. Every random event (the deal, a roll, a card draw) is a chance event.

use std::sync::Arc;

use ply_core::{Player, Returns};

pub use crate::cards::escalating_value;
use crate::map::Map;

pub const MAX_SEATS: usize = 6;
/// The owner of the neutral territories in a two-player game with a neutral side.
pub const NEUTRAL: u8 = MAX_SEATS as u8;
/// The owner of a territory not yet dealt or picked.
pub const OPEN: u8 = u8::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Cards, fortifying and the rest of the classic rules.
    Classic,
    /// The source document's game: a turn is a draft and attacks, nothing else.
    Document,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FortifyRule {
    /// To a neighbouring territory.
    Adjacent,
    /// To any territory reached through the player's own territories.
    Connected,
    /// To any of the player's territories, connected or not.
    Anywhere,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CardValues {
    /// 4, 6, 8, 10, 12, 15, then 5 more for every set traded, by anyone.
    Escalating,
    /// Three infantry 4, cavalry 6, artillery 8, one of each 10.
    Fixed,
    /// No cards at all: none drawn, none traded.
    None,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetupRule {
    /// Territories dealt at random.
    Deal,
    /// Players claim territories in turn.
    Pick,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub players: u8,
    pub variant: Variant,
    pub fortify: FortifyRule,
    pub card_values: CardValues,
    pub setup: SetupRule,
    /// A neutral side that holds territories and armies but never moves (two players only).
    pub neutral: bool,
    /// Rounds (every player's turn once) before the game is adjudicated.
    pub max_rounds: u16,
    /// Starting armies per player, if not the classic table's.
    pub start_armies: Option<u16>,
}

impl Rules {
    pub fn classic(players: u8) -> Rules {
        Rules {
            players,
            variant: Variant::Classic,
            fortify: FortifyRule::Adjacent,
            card_values: CardValues::Escalating,
            setup: SetupRule::Deal,
            neutral: false,
            max_rounds: 100,
            start_armies: None,
        }
    }

    pub fn cards(&self) -> bool {
        self.variant == Variant::Classic && self.card_values != CardValues::None
    }

    /// Whether a turn ends with a fortifying move (the classic rules, with or without cards).
    pub fn fortifies(&self) -> bool {
        self.variant == Variant::Classic
    }

    /// Starting armies per player: 40, 35, 30, 25, 20 for 2–6 players, or the option's.
    pub fn starting_armies(&self) -> u16 {
        self.start_armies.unwrap_or(50 - 5 * u16::from(self.players))
    }

    /// Owners in the deal: the seats, then the neutral side.
    pub fn owners(&self) -> usize {
        self.players as usize + usize::from(self.neutral)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Chance: the next territory in map order gets its owner.
    Deal,
    /// The player to move claims an open territory, with one army.
    Pick,
    /// The player to move places one starting army.
    Setup,
    /// Trading cards and placing the turn's armies.
    Draft,
    Attack,
    /// Chance: a roll of the dice in an attack; `blitz` rolls on until the territory falls or
    /// the attacker has one army left.
    Battle {
        from: u8,
        to: u8,
        blitz: bool,
    },
    /// Armies to move into a conquered territory: at least `min` (the dice of the last roll).
    Occupy {
        from: u8,
        to: u8,
        min: u16,
    },
    Fortify,
    /// Chance: the card earned by a turn with a conquest.
    Draw,
    Over,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RiskAction {
    /// Chance: a territory's owner in the deal (a seat, [`NEUTRAL`], or [`OPEN`] for picking).
    Deal {
        territory: u8,
        owner: u8,
    },
    Pick(u8),
    Place {
        territory: u8,
        armies: u16,
    },
    /// Three cards from the hand, in increasing order.
    Trade([u8; 3]),
    Attack {
        from: u8,
        to: u8,
        blitz: bool,
    },
    /// Chance: the result of one roll.
    Dice {
        attacker_loses: u8,
        defender_loses: u8,
    },
    Occupy(u16),
    EndAttack,
    Fortify {
        from: u8,
        to: u8,
        armies: u16,
    },
    EndTurn,
    /// Chance: the card drawn.
    Draw(u8),
}

/// The map shared by every state of a game; states compare it by pointer first.
#[derive(Clone, Debug)]
pub struct SharedMap(pub Arc<Map>);

impl PartialEq for SharedMap {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0 == other.0
    }
}
impl Eq for SharedMap {}
impl std::hash::Hash for SharedMap {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.name.hash(state);
        self.0.len().hash(state);
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Risk {
    pub(crate) map: SharedMap,
    pub(crate) rules: Rules,
    pub(crate) owner: [u8; 64],
    pub(crate) armies: [u16; 64],
    pub(crate) phase: Phase,
    pub(crate) current: u8,
    /// Armies still to place this turn.
    pub(crate) reserve: u16,
    pub(crate) hands: [u128; MAX_SEATS],
    /// Cards traded in, out of the deck until it runs out and they are shuffled back.
    pub(crate) discard: u128,
    pub(crate) trades: u16,
    /// A territory taken this turn: a card is drawn at its end.
    pub(crate) conquered: bool,
    /// The player to move has made a decision this turn.
    pub(crate) acted: bool,
    /// 0 during setup, then 1, 2, ... (every seat moves once a round).
    pub(crate) round: u16,
    /// Territories dealt so far (in map order).
    pub(crate) dealt: u8,
}

impl Risk {
    pub fn new(map: Arc<Map>, rules: Rules) -> Risk {
        let mut state = Risk {
            map: SharedMap(map),
            rules,
            owner: [OPEN; 64],
            armies: [0; 64],
            phase: Phase::Deal,
            current: 0,
            reserve: 0,
            hands: [0; MAX_SEATS],
            discard: 0,
            trades: 0,
            conquered: false,
            acted: false,
            round: 0,
            dealt: 0,
        };
        if rules.setup == SetupRule::Pick && !rules.neutral {
            state.dealt = state.map().len() as u8;
            state.phase = Phase::Pick;
        }
        state
    }

    pub fn map(&self) -> &Map {
        &self.map.0
    }

    pub fn shared_map(&self) -> &Arc<Map> {
        &self.map.0
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn players(&self) -> usize {
        self.rules.players as usize
    }

    /// The seat whose turn it is (during chance events too).
    pub fn current(&self) -> Player {
        self.current as Player
    }

    pub fn owner(&self, territory: usize) -> u8 {
        self.owner[territory]
    }

    pub fn armies(&self, territory: usize) -> u16 {
        self.armies[territory]
    }

    pub fn reserve(&self) -> u16 {
        self.reserve
    }

    pub fn round(&self) -> u16 {
        self.round
    }

    pub fn trades(&self) -> u16 {
        self.trades
    }

    pub fn conquered_this_turn(&self) -> bool {
        self.conquered
    }

    pub fn hand(&self, seat: Player) -> u128 {
        self.hands[seat]
    }

    pub fn hand_size(&self, seat: Player) -> usize {
        self.hands[seat].count_ones() as usize
    }

    pub fn discard(&self) -> u128 {
        self.discard
    }

    /// Cards not in a hand and not discarded.
    pub fn deck(&self) -> u128 {
        let all = (1u128 << self.map().card_count()) - 1;
        all & !self.discard & !self.hands.iter().fold(0, |a, &h| a | h)
    }

    /// The territories `owner` holds, as a set.
    pub fn territories_of(&self, owner: u8) -> u64 {
        (0..self.map().len()).filter(|&t| self.owner[t] == owner).fold(0, |set, t| set | 1 << t)
    }

    pub fn armies_of(&self, owner: u8) -> u32 {
        (0..self.map().len()).filter(|&t| self.owner[t] == owner).map(|t| u32::from(self.armies[t])).sum()
    }

    pub fn is_alive(&self, seat: Player) -> bool {
        self.round == 0 || self.owner[..self.map().len()].contains(&(seat as u8))
    }

    pub fn alive_seats(&self) -> impl Iterator<Item = Player> + '_ {
        (0..self.players()).filter(|&p| self.is_alive(p))
    }

    /// Armies a seat receives at the start of its turn before cards: a third of its territories
    /// (at least 3) and the bonus of every continent it holds whole.
    pub fn reinforcements(&self, seat: Player) -> u16 {
        let held = self.territories_of(seat as u8);
        let base = (held.count_ones() as u16 / 3).max(3);
        base + self
            .map()
            .continents
            .iter()
            .filter(|c| c.territories & !held == 0)
            .map(|c| c.bonus)
            .sum::<u16>()
    }

    pub(crate) fn start_main_game(&mut self) {
        self.round = 1;
        self.current = 0;
        self.begin_turn();
    }

    fn begin_turn(&mut self) {
        self.phase = Phase::Draft;
        self.reserve = self.reinforcements(self.current());
        self.conquered = false;
        self.acted = false;
    }

    pub(crate) fn settle_draft(&mut self) {
        if self.reserve == 0 && !self.must_trade() {
            self.phase = Phase::Attack;
        }
    }

    fn end_turn(&mut self) {
        if self.rules.cards() && self.conquered && (self.deck() | self.discard) != 0 {
            self.phase = Phase::Draw;
        } else {
            self.next_turn();
        }
    }

    fn next_turn(&mut self) {
        let n = self.players();
        let mut next = (self.current() + 1) % n;
        while !self.is_alive(next) {
            next = (next + 1) % n;
        }
        if next <= self.current() {
            self.round += 1;
            if self.round > self.rules.max_rounds {
                self.round = self.rules.max_rounds;
                self.phase = Phase::Over;
                return;
            }
        }
        self.current = next as u8;
        self.begin_turn();
    }

    fn is_over_by_conquest(&self) -> bool {
        self.round > 0 && self.alive_seats().count() <= 1
    }

    pub(crate) fn owned_by_current(&self, territory: usize) -> bool {
        self.owner[territory] == self.current
    }

    pub(crate) fn apply_action(&mut self, action: RiskAction) {
        match action {
            RiskAction::Deal { territory, owner } => {
                self.owner[territory as usize] = owner;
                self.armies[territory as usize] = u16::from(owner != OPEN);
                self.dealt += 1;
                if self.dealt as usize == self.map().len() {
                    self.finish_deal();
                }
            }
            RiskAction::Pick(t) => {
                self.owner[t as usize] = self.current;
                self.armies[t as usize] = 1;
                if self.owner[..self.map().len()].contains(&OPEN) {
                    self.current = ((self.current() + 1) % self.players()) as u8;
                } else {
                    self.phase = Phase::Setup;
                    self.continue_setup(self.current());
                }
            }
            RiskAction::Place { territory, armies } => {
                self.armies[territory as usize] += armies;
                if self.phase == Phase::Setup {
                    self.continue_setup(self.current());
                } else {
                    self.acted = true;
                    self.reserve -= armies;
                    self.settle_draft();
                }
            }
            RiskAction::Trade(cards) => self.trade(cards),
            RiskAction::Attack { from, to, blitz } => {
                self.acted = true;
                self.phase = Phase::Battle { from, to, blitz };
            }
            RiskAction::Dice { attacker_loses, defender_loses } => {
                self.resolve_roll(attacker_loses, defender_loses)
            }
            RiskAction::Occupy(armies) => {
                if let Phase::Occupy { from, to, .. } = self.phase {
                    self.move_armies(from as usize, to as usize, armies);
                }
                self.after_occupy();
            }
            RiskAction::EndAttack => {
                self.acted = true;
                if self.rules.fortifies() {
                    self.phase = Phase::Fortify;
                } else {
                    self.end_turn();
                }
            }
            RiskAction::Fortify { from, to, armies } => {
                self.move_armies(from as usize, to as usize, armies);
                self.end_turn();
            }
            RiskAction::EndTurn => self.end_turn(),
            RiskAction::Draw(card) => {
                if self.deck() == 0 {
                    self.discard = 0;
                }
                self.hands[self.current()] |= 1u128 << card;
                self.next_turn();
            }
        }
    }

    fn move_armies(&mut self, from: usize, to: usize, armies: u16) {
        self.armies[from] -= armies;
        self.armies[to] += armies;
    }

    fn resolve_roll(&mut self, attacker_loses: u8, defender_loses: u8) {
        let Phase::Battle { from, to, blitz } = self.phase else { return };
        let (from, to) = (from as usize, to as usize);
        let (dice_rolled, _) = self.battle_dice(from, to);
        self.armies[from] -= u16::from(attacker_loses);
        self.armies[to] -= u16::from(defender_loses);
        if self.armies[to] > 0 {
            self.phase = if blitz && self.armies[from] >= 2 { self.phase } else { Phase::Attack };
            return;
        }
        let loser = self.owner[to];
        self.owner[to] = self.current;
        self.conquered = true;
        if loser != NEUTRAL && !self.owner[..self.map().len()].contains(&loser) {
            let seat = self.current();
            self.hands[seat] |= std::mem::take(&mut self.hands[loser as usize]);
        }
        let least = dice_rolled as u16;
        let most = self.armies[from] - 1;
        if self.is_over_by_conquest() {
            self.move_armies(from, to, least);
            self.phase = Phase::Over;
        } else if least == most {
            self.move_armies(from, to, least);
            self.after_occupy();
        } else {
            self.phase = Phase::Occupy { from: from as u8, to: to as u8, min: least };
        }
    }

    fn after_occupy(&mut self) {
        // An elimination can bring six or more cards: they are traded at once, then placed.
        self.phase = if self.rules.cards() && self.hand_size(self.current()) >= 6 {
            Phase::Draft
        } else {
            Phase::Attack
        };
    }

    pub(crate) fn scores(&self) -> Returns {
        let n = self.players();
        let alive: Vec<Player> = self.alive_seats().collect();
        if self.round > 0 && alive.len() == 1 {
            return Returns::win(n, alive[0]);
        }
        adjudicate(self)
    }

    pub(crate) fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Whether the next decision is the same player's, in the same turn.
    pub(crate) fn turn_goes_on(&self) -> bool {
        self.acted
            && matches!(
                self.phase,
                Phase::Draft | Phase::Attack | Phase::Battle { .. } | Phase::Occupy { .. } | Phase::Fortify
            )
    }

    pub(crate) fn over_by_conquest(&self) -> bool {
        self.is_over_by_conquest()
    }
}

/// A game stopped by the round limit: each seat still in it scores half its share of the
/// territories plus half its share of the armies (the neutral side's not counted), so the
/// scores sum to 1.
fn adjudicate(state: &Risk) -> Returns {
    let n = state.players();
    let territories: Vec<f64> =
        (0..n).map(|p| f64::from(state.territories_of(p as u8).count_ones())).collect();
    let armies: Vec<f64> = (0..n).map(|p| f64::from(state.armies_of(p as u8))).collect();
    let (tt, at) = (territories.iter().sum::<f64>(), armies.iter().sum::<f64>());
    if tt == 0.0 || at == 0.0 {
        return Returns::draw(n);
    }
    let scores: Vec<f64> = (0..n).map(|p| 0.5 * territories[p] / tt + 0.5 * armies[p] / at).collect();
    Returns::from_slice(&scores)
}

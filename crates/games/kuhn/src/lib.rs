//! Kuhn poker (H. W. Kuhn, 1950), the smallest poker: a deck of three cards, Jack < Queen < King.
//! Both players put one chip in the pot and are dealt one card each, which the other cannot see.
//! Player 0 passes or bets one chip; after a pass player 1 passes (showdown for the pot of 2) or
//! bets, and player 0 then passes (folds) or bets (calls); after a bet the other folds or calls.
//! At a showdown the higher card takes the pot. Its equilibrium is known — player 0 loses 1/18 of
//! a chip per game — which makes it the measuring stick for hidden-information search, and Ply's
//! worked example of a game whose players see different things.
//!
//! Results on Ply's scale: a player's score is `1/2 + chips won / 4`, so a pot of 2 won at a
//! showdown after a bet and a call scores 1, a fold or an unraised showdown 0.75, and maximising
//! the expected score is maximising the expected chips.

mod agents;
mod notation;

use ply_core::rng::Rng;
use ply_core::{Error, Game, GameDef, ParamInfo, Params, Player, Returns, Turn};
use rand::RngExt;

pub use agents::NashAgent;

pub const JACK: u8 = 0;
pub const QUEEN: u8 = 1;
pub const KING: u8 = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KuhnAction {
    /// A card dealt (chance): to player 0 first, then to player 1.
    Deal(u8),
    /// Check, or fold after a bet.
    Pass,
    /// Bet one chip, or call a bet.
    Bet,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Kuhn {
    cards: [Option<u8>; 2],
    /// The betting so far: true for a bet.
    bets: [bool; 3],
    len: u8,
}

impl Kuhn {
    pub fn card(&self, player: Player) -> Option<u8> {
        self.cards[player]
    }

    pub fn history(&self) -> &[bool] {
        &self.bets[..self.len as usize]
    }

    /// The chips player 0 wins at the end (negative: loses), or `None` while the hand goes on.
    pub fn net_for_first(&self) -> Option<i8> {
        let [a, b] = [self.cards[0]?, self.cards[1]?];
        let showdown = |stake: i8| if a > b { stake } else { -stake };
        match self.history() {
            [false, false] => Some(showdown(1)),
            [true, false] => Some(1),
            [true, true] | [false, true, true] => Some(showdown(2)),
            [false, true, false] => Some(-1),
            _ => None,
        }
    }

    /// Chips in the pot.
    pub fn pot(&self) -> u8 {
        2 + self.history().iter().filter(|&&bet| bet).count() as u8
    }

    /// The seat the next dealt card goes to.
    fn dealing_to(&self) -> Option<Player> {
        self.cards.iter().position(Option::is_none)
    }
}

impl Game for Kuhn {
    type Action = KuhnAction;
    const HIDDEN_INFORMATION: bool = true;

    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.dealing_to().is_some() {
            Turn::Chance
        } else if self.net_for_first().is_some() {
            Turn::Over
        } else {
            Turn::Player(self.len as usize % 2)
        }
    }

    fn legal_actions(&self, out: &mut Vec<KuhnAction>) {
        out.clear();
        if let Turn::Player(_) = self.turn() {
            out.extend([KuhnAction::Pass, KuhnAction::Bet]);
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(KuhnAction, f64)>) {
        out.clear();
        if self.dealing_to().is_some() {
            let left: Vec<u8> = (JACK..=KING).filter(|c| !self.cards.contains(&Some(*c))).collect();
            let p = 1.0 / left.len() as f64;
            out.extend(left.into_iter().map(|c| (KuhnAction::Deal(c), p)));
        }
    }

    fn apply(&mut self, action: KuhnAction) {
        match action {
            KuhnAction::Deal(card) => {
                let seat = self.dealing_to().expect("a card is dealt only while one is owed");
                self.cards[seat] = Some(card);
            }
            KuhnAction::Pass | KuhnAction::Bet => {
                self.bets[self.len as usize] = action == KuhnAction::Bet;
                self.len += 1;
            }
        }
    }

    fn returns(&self) -> Returns {
        let net = f64::from(self.net_for_first().unwrap_or(0));
        Returns::from_slice(&[0.5 + net / 4.0, 0.5 - net / 4.0])
    }

    fn hash_key(&self) -> Option<u64> {
        let card = |c: Option<u8>| c.map_or(0, |c| u64::from(c) + 1);
        let bets = self.history().iter().fold(1u64, |acc, &b| acc << 1 | u64::from(b));
        Some(card(self.cards[0]) | card(self.cards[1]) << 2 | bets << 4)
    }

    fn action_to_text(&self, action: KuhnAction) -> String {
        notation::action_text(action)
    }

    fn parse_action(&self, text: &str) -> Result<KuhnAction, Error> {
        notation::parse_action(text)
    }

    fn to_text(&self) -> String {
        notation::state_text(self, [false; 2])
    }

    fn parse_state(&self, text: &str) -> Result<Self, Error> {
        notation::parse_state(text)
    }

    fn to_json(&self) -> serde_json::Value {
        notation::state_json(self, [false; 2])
    }

    fn state_from_json(&self, json: &serde_json::Value) -> Result<Self, Error> {
        notation::state_from_json(json)
    }

    fn observation_text(&self, viewer: Option<Player>) -> String {
        notation::state_text(self, self.hidden_from(viewer))
    }

    fn observation_json(&self, viewer: Option<Player>) -> serde_json::Value {
        notation::state_json(self, self.hidden_from(viewer))
    }

    fn action_observation(&self, action: KuhnAction, viewer: Option<Player>) -> String {
        match (action, self.dealing_to()) {
            (KuhnAction::Deal(_), Some(seat)) if viewer != Some(seat) => format!("a card to player {seat}"),
            _ => self.action_to_text(action),
        }
    }

    /// The other player's card, drawn again from the two the viewer does not hold — while the
    /// hand is played: at its end both cards are shown.
    fn resample_hidden(&self, viewer: Player, rng: &mut Rng) -> Self {
        let mut world = self.clone();
        let other = 1 - viewer;
        if world.cards[other].is_some() && self.turn() != Turn::Over {
            let left: Vec<u8> = (JACK..=KING).filter(|&c| Some(c) != self.cards[viewer]).collect();
            world.cards[other] = Some(left[rng.random_range(0..left.len())]);
        }
        world
    }
}

impl Kuhn {
    /// Which seats' cards `viewer` may not see: the other's until the end (a spectator sees
    /// neither), nobody's once the hand is over.
    fn hidden_from(&self, viewer: Option<Player>) -> [bool; 2] {
        if self.turn() == Turn::Over {
            return [false; 2];
        }
        [viewer != Some(0), viewer != Some(1)]
    }
}

impl GameDef for Kuhn {
    const NAME: &'static str = "kuhn";
    const ABOUT: &'static str = "Kuhn poker: three cards, one hidden card each, one round of betting";

    fn options() -> Vec<ParamInfo> {
        Vec::new()
    }

    fn new_game(_options: &Params) -> Result<Self, Error> {
        Ok(Kuhn::default())
    }

    fn agents() -> Vec<ply_core::AgentFactory<Self>> {
        agents::factories()
    }

    fn bench_cases() -> Vec<ply_core::BenchCase> {
        // A decision for each seat: the searches re-deal the other card at every iteration.
        vec![
            ply_core::BenchCase { position: "QK", agent: "ismcts", iterations: 20_000 },
            ply_core::BenchCase { position: "QJ p", agent: "ismcts", iterations: 20_000 },
            ply_core::BenchCase { position: "JK pb", agent: "pimc", iterations: 20_000 },
        ]
    }
}

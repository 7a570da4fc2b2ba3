//! Setup: the deal (or the pick) of the territories, the neutral side's armies and the placing
//! of the starting armies, one at a time in turn.

use ply_core::Player;

use crate::map::bits;
use crate::rules::{NEUTRAL, OPEN, Phase, Risk, SetupRule};

impl Risk {
    /// Territories dealt to `owner` so far, and how many it gets in all.
    pub(crate) fn deal_quota(&self, owner: u8) -> u32 {
        let n = self.map().len() as u32;
        let owners = self.rules.owners() as u32;
        match (self.rules.setup, owner) {
            (SetupRule::Pick, NEUTRAL) => n / owners,
            (SetupRule::Pick, OPEN) => n - n / owners,
            (SetupRule::Pick, _) => 0,
            (SetupRule::Deal, OPEN) => 0,
            (SetupRule::Deal, o) => {
                let index = if o == NEUTRAL { owners - 1 } else { u32::from(o) };
                n / owners + u32::from(index < n % owners)
            }
        }
    }

    pub(crate) fn deal_owners(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.rules.players).chain(self.rules.neutral.then_some(NEUTRAL)).chain(std::iter::once(OPEN))
    }

    /// An owner with more territories dealt than its share, in a position read from outside.
    pub(crate) fn overdealt_owner(&self) -> Option<u8> {
        let mut owners: Vec<u8> = self.deal_owners().collect();
        if !self.rules.neutral && self.owner[..self.dealt as usize].contains(&NEUTRAL) {
            owners.push(NEUTRAL);
        }
        owners
            .into_iter()
            .find(|&o| self.dealt_to(o) > self.deal_quota(o) && self.round == 0 && self.phase == Phase::Deal)
    }

    pub(crate) fn dealt_to(&self, owner: u8) -> u32 {
        self.owner[..self.dealt as usize].iter().filter(|&&o| o == owner).count() as u32
    }

    /// Armies a seat still has to place in setup.
    pub fn setup_left(&self, seat: Player) -> u16 {
        if self.round > 0 {
            return 0;
        }
        let placed: u32 = self.armies_of(seat as u8);
        self.rules.starting_armies().saturating_sub(placed.min(u32::from(u16::MAX)) as u16)
    }

    pub(crate) fn finish_deal(&mut self) {
        if self.rules.neutral {
            let neutral: Vec<usize> = bits(self.territories_of(NEUTRAL)).collect();
            let total = usize::from(self.rules.starting_armies());
            for (i, &t) in neutral.iter().enumerate() {
                self.armies[t] =
                    (total / neutral.len() + usize::from(i < total % neutral.len())).max(1) as u16;
            }
        }
        self.current = 0;
        if self.owner[..self.map().len()].contains(&OPEN) {
            self.phase = Phase::Pick;
        } else {
            self.phase = Phase::Setup;
            self.continue_setup(self.players() - 1);
        }
    }

    /// Moves setup on to the next seat after `after` with armies left to place; the main game
    /// starts when nobody has any.
    pub(crate) fn continue_setup(&mut self, after: Player) {
        let n = self.players();
        for step in 1..=n {
            let seat = (after + step) % n;
            if self.setup_left(seat) > 0 {
                self.current = seat as u8;
                return;
            }
        }
        self.start_main_game();
    }
}

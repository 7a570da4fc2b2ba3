//! The three kinds of unit, their numbers (docs/tactics.md, "Units"), their values for the turn
//! cap's adjudication, and teams.

use ply_core::rng::{derive_seed, rng_from_seed};
use rand::RngExt;

use crate::grid::Cell;

/// Units a side may have: 6, one more with a handicap.
pub const MAX_TEAM: usize = 7;
/// Units in a team as the options give it, before the handicap.
pub const TEAM_SIZE: usize = 6;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Fighter,
    Archer,
    Sorcerer,
}

/// How an attack travels along its line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shot {
    /// The adjacent cell only.
    Melee,
    /// The first unit on the line; over water, not through walls.
    Arrow,
    /// Every unit on the line, friends too; stopped by walls and water.
    Fire,
}

/// A kind's fixed numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stats {
    pub letter: char,
    pub name: &'static str,
    pub hp: u8,
    pub damage: u8,
    /// Steps a unit may move in a turn.
    pub moves: u8,
    /// The farthest cell its attack reaches (the nearest is always the adjacent one).
    pub range: u8,
    pub shot: Shot,
    /// Its worth unhurt (the source document's step 1).
    pub value: u32,
}

const STATS: [Stats; 3] = [
    Stats {
        letter: 'F',
        name: "fighter",
        hp: 100,
        damage: 50,
        moves: 4,
        range: 1,
        shot: Shot::Melee,
        value: 100_000,
    },
    Stats {
        letter: 'A',
        name: "archer",
        hp: 60,
        damage: 25,
        moves: 3,
        range: 7,
        shot: Shot::Arrow,
        value: 70_000,
    },
    Stats {
        letter: 'W',
        name: "sorcerer",
        hp: 40,
        damage: 35,
        moves: 3,
        range: 5,
        shot: Shot::Fire,
        value: 85_000,
    },
];

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Fighter, Kind::Archer, Kind::Sorcerer];

    #[inline]
    pub fn stats(self) -> &'static Stats {
        &STATS[self as usize]
    }

    pub fn letter(self) -> char {
        self.stats().letter
    }

    pub fn from_letter(c: char) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.letter() == c)
    }

    pub fn name(self) -> &'static str {
        self.stats().name
    }
}

/// The common denominator of every kind's value scale, so that values add up exactly in
/// integers: a unit is worth `value × (max_hp + hp) / (2 × max_hp)`, and `2 × max_hp` divides
/// this for every kind. Exact sums make "the same material" a draw, whatever the order of
/// the units.
const VALUE_DENOMINATOR: u64 = {
    const fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    let mut lcm = 1u64;
    let mut i = 0;
    while i < STATS.len() {
        let d = 2 * STATS[i].hp as u64;
        lcm = lcm / gcd(lcm, d) * d;
        i += 1;
    }
    lcm
};

/// A unit's value in units of 1 / [`VALUE_DENOMINATOR`]: exact, for comparing sides.
pub fn scaled_value(kind: Kind, hp: u8) -> u64 {
    if hp == 0 {
        return 0;
    }
    let s = kind.stats();
    u64::from(s.value) * (u64::from(s.hp) + u64::from(hp)) * (VALUE_DENOMINATOR / (2 * u64::from(s.hp)))
}

/// A unit's value: 0 dead, the kind's full value unhurt, and wounded half of it plus half in
/// proportion to the hit points left.
pub fn unit_value(kind: Kind, hp: u8) -> f64 {
    scaled_value(kind, hp) as f64 / VALUE_DENOMINATOR as f64
}

/// One unit. `hp == 0` is a dead unit, off the board (its cell is then 0 by convention, so that
/// equal positions compare equal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    pub kind: Kind,
    pub hp: u8,
    pub cell: Cell,
}

impl Unit {
    #[inline]
    pub fn alive(&self) -> bool {
        self.hp > 0
    }

    pub fn stats(&self) -> &'static Stats {
        self.kind.stats()
    }
}

/// A team as the options give it: 1 to 6 kinds, in the order they stand (the first in the
/// corner).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Team {
    kinds: [Kind; MAX_TEAM],
    len: u8,
}

impl Team {
    pub fn new(kinds: &[Kind]) -> Result<Team, String> {
        if kinds.is_empty() || kinds.len() > MAX_TEAM {
            return Err(format!("a team has 1 to {MAX_TEAM} units, not {}", kinds.len()));
        }
        let mut team = Team { kinds: [Kind::Fighter; MAX_TEAM], len: kinds.len() as u8 };
        team.kinds[..kinds.len()].copy_from_slice(kinds);
        Ok(team)
    }

    pub fn kinds(&self) -> &[Kind] {
        &self.kinds[..self.len as usize]
    }

    /// Reads a team option: 1 to 6 letters F, A, W.
    pub fn parse(text: &str) -> Result<Team, String> {
        let kinds: Vec<Kind> = text
            .chars()
            .map(|c| {
                Kind::from_letter(c).ok_or_else(|| format!("'{c}' in team '{text}' is not a unit: F, A or W"))
            })
            .collect::<Result<_, _>>()?;
        if kinds.is_empty() || kinds.len() > TEAM_SIZE {
            return Err(format!("a team is 1 to {TEAM_SIZE} letters F, A, W; '{text}' has {}", kinds.len()));
        }
        Team::new(&kinds)
    }

    /// The team drawn from a game's seed: six units with every kind at least once, each slot
    /// drawn evenly (draws without some kind are drawn again), then ordered sorcerers, archers,
    /// fighters, so that the fighters stand in front and the sorcerers in the corner.
    pub fn from_seed(seed: u64) -> Team {
        let mut rng = rng_from_seed(derive_seed(seed, TEAM_STREAM));
        loop {
            let mut kinds: Vec<Kind> = (0..TEAM_SIZE).map(|_| Kind::ALL[rng.random_range(0..3)]).collect();
            if Kind::ALL.iter().all(|k| kinds.contains(k)) {
                kinds.sort_by_key(|k| std::cmp::Reverse(*k));
                return Team::new(&kinds).expect("six units");
            }
        }
    }

    /// The team with a handicap: +1 adds a fighter after the last unit, -1 removes the last
    /// unit (a one-unit team keeps its unit).
    pub fn with_handicap(&self, handicap: i8) -> Team {
        let mut kinds = self.kinds().to_vec();
        match handicap {
            1 if kinds.len() < MAX_TEAM => kinds.push(Kind::Fighter),
            -1 if kinds.len() > 1 => {
                kinds.pop();
            }
            _ => {}
        }
        Team::new(&kinds).expect("within the limits")
    }

    pub fn letters(&self) -> String {
        self.kinds().iter().map(|k| k.letter()).collect()
    }
}

/// The generator stream of a seed that draws the team (the map draws from others).
const TEAM_STREAM: u64 = 1 << 40;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_follow_the_document() {
        assert_eq!(unit_value(Kind::Fighter, 100), 100_000.0);
        assert_eq!(unit_value(Kind::Archer, 60), 70_000.0);
        assert_eq!(unit_value(Kind::Sorcerer, 40), 85_000.0);
        assert_eq!(unit_value(Kind::Fighter, 50), 75_000.0);
        assert_eq!(unit_value(Kind::Archer, 30), 52_500.0);
        assert_eq!(unit_value(Kind::Sorcerer, 1), 85_000.0 * 41.0 / 80.0);
        assert_eq!(unit_value(Kind::Sorcerer, 0), 0.0);
    }

    #[test]
    fn seeded_teams_have_every_kind_and_six_units() {
        for seed in 0..500 {
            let team = Team::from_seed(seed);
            assert_eq!(team.kinds().len(), 6);
            assert!(Kind::ALL.iter().all(|k| team.kinds().contains(k)), "{}", team.letters());
            assert_eq!(team, Team::from_seed(seed));
        }
        assert_eq!(Team::parse("FFAAWW").unwrap().with_handicap(1).letters(), "FFAAWWF");
        assert_eq!(Team::parse("FFAAWW").unwrap().with_handicap(-1).letters(), "FFAAW");
        assert!(Team::parse("FFAAWWF").is_err());
        assert!(Team::parse("FFX").unwrap_err().contains("'X'"));
        assert!(Team::parse("").is_err());
    }
}

//! The document's prediction tree as a game of its own, so that the generic alpha-beta of
//! `ply_search` can search it (docs/risk-minimax.md):
//!
//! - a position is the map's owners and armies, whose turn it is and how many attacks it has
//!   left; no cards, no dice, no fortifying;
//! - a turn begins with the mover's draft placed by the NBSR rule ([`super::draft`]) at once, the
//!   tree never branches on drafts;
//! - then the mover makes up to `max_attacks` attacks, each from an own territory with at least
//!   one army more than the enemy neighbour it attacks, or ends its turn; the turn ends by itself
//!   after the last attack allowed;
//! - a battle is deterministic: the attacker sends S = ⌈(A + D) / 2⌉ of its A armies against the
//!   D defending, but never the last one (S ≤ A − 1: a territory is never empty); armies fall
//!   one for one and ties go to the defender, as with dice. S > D takes the territory with
//!   S − D survivors moving in; S ≤ D (only when A = D + 1) fails: the S sent are lost and the
//!   defender loses S − 1;
//! - a seat left without territories is out; the last seat standing wins. The neutral side of a
//!   two-player game holds its territories and never moves.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use ply_core::{Error, Game, Player, Returns, Turn};
use serde_json::{Value, json};

use super::draft;
use crate::map::{Map, bits};
use crate::rules::{MAX_SEATS, NEUTRAL, Risk, SharedMap};

/// Owners are the seats and the neutral side.
const OWNERS: usize = MAX_SEATS + 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Attack { from: u8, to: u8 },
    EndTurn,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prediction {
    map: SharedMap,
    players: u8,
    max_attacks: u8,
    owner: [u8; 64],
    armies: [u16; 64],
    held: [u64; OWNERS],
    current: u8,
    attacks_left: u8,
    /// The mover has attacked this turn: its next decision continues the turn.
    acted: bool,
}

/// The armies sent and the battle's result for an attack from `a` armies against `d`:
/// (sent, armies left on the attacking territory, armies on the attacked one, conquered).
pub fn battle(a: u16, d: u16) -> (u16, u16, u16, bool) {
    let sent = (a + d).div_ceil(2).min(a - 1);
    if sent > d { (sent, a - sent, sent - d, true) } else { (sent, a - sent, d - sent + 1, false) }
}

impl Prediction {
    /// The position of a real game whose mover is about to attack (its draft is placed) with
    /// `attacks_left` of its `max_attacks` attacks per turn left.
    pub fn from_risk(state: &Risk, attacks_left: u8, max_attacks: u8) -> Prediction {
        let n = state.map().len();
        Prediction::at_attack(
            state.shared_map().clone(),
            state.players(),
            &state.owner[..n],
            &state.armies[..n],
            state.current(),
            attacks_left,
            max_attacks,
        )
    }

    /// A position where `mover`'s draft is done and it has `attacks_left` attacks left.
    /// Owners are seats below `players` or [`NEUTRAL`]; every territory has at least one army.
    pub fn at_attack(
        map: Arc<Map>,
        players: usize,
        owner: &[u8],
        armies: &[u16],
        mover: Player,
        attacks_left: u8,
        max_attacks: u8,
    ) -> Prediction {
        let n = map.len();
        assert!(owner.len() == n && armies.len() == n, "one owner and one army count per territory");
        let mut state = Prediction {
            map: SharedMap(map),
            players: players as u8,
            max_attacks,
            owner: [NEUTRAL; 64],
            armies: [0; 64],
            held: [0; OWNERS],
            current: mover as u8,
            attacks_left: attacks_left.min(max_attacks),
            acted: false,
        };
        state.owner[..n].copy_from_slice(owner);
        state.armies[..n].copy_from_slice(armies);
        for (t, &o) in owner.iter().enumerate() {
            assert!((o as usize) < players || o == NEUTRAL, "territory {t} has owner {o}");
            state.held[o as usize] |= 1 << t;
        }
        state
    }

    /// The same position at the start of `mover`'s turn: its draft placed, all attacks left.
    pub fn at_turn_start(
        map: Arc<Map>,
        players: usize,
        owner: &[u8],
        armies: &[u16],
        mover: Player,
        max_attacks: u8,
    ) -> Prediction {
        let mut state = Prediction::at_attack(map, players, owner, armies, mover, max_attacks, max_attacks);
        state.begin_turn();
        state
    }

    pub fn map(&self) -> &Map {
        &self.map.0
    }

    pub fn owner(&self, t: usize) -> u8 {
        self.owner[t]
    }

    pub fn armies(&self, t: usize) -> u16 {
        self.armies[t]
    }

    pub fn owners(&self) -> &[u8] {
        &self.owner[..self.map().len()]
    }

    pub fn army_counts(&self) -> &[u16] {
        &self.armies[..self.map().len()]
    }

    pub fn mover(&self) -> Player {
        self.current as Player
    }

    pub fn attacks_left(&self) -> u8 {
        self.attacks_left
    }

    pub fn territories_of(&self, owner: u8) -> u64 {
        self.held[owner as usize]
    }

    fn alive(&self, seat: usize) -> bool {
        self.held[seat] != 0
    }

    fn over(&self) -> bool {
        (0..self.players as usize).filter(|&s| self.alive(s)).count() <= 1
    }

    /// Whether the mover may attack `to` from `from` under the document's first rule.
    pub fn may_attack(&self, from: usize, to: usize) -> bool {
        let me = self.current;
        self.attacks_left > 0
            && self.owner[from] == me
            && self.owner[to] != me
            && self.map().territories[from].border & (1 << to) != 0
            && self.armies[from] > self.armies[to]
    }

    fn begin_turn(&mut self) {
        self.attacks_left = self.max_attacks;
        self.acted = false;
        let own = self.held[self.current as usize];
        let reserve = draft::reinforcements(self.map(), own);
        let n = self.map().len();
        let placed = draft::allocate(self.map(), &self.armies[..n], own, reserve);
        for (t, armies) in placed.iter() {
            self.armies[t] = self.armies[t].saturating_add(armies);
        }
    }

    fn end_turn(&mut self) {
        let n = self.players as usize;
        let mut next = (self.current as usize + 1) % n;
        while !self.alive(next) {
            next = (next + 1) % n;
        }
        self.current = next as u8;
        self.begin_turn();
    }

    fn attack(&mut self, from: usize, to: usize) {
        let (_, home, there, conquered) = battle(self.armies[from], self.armies[to]);
        self.armies[from] = home;
        self.armies[to] = there;
        if conquered {
            let loser = self.owner[to] as usize;
            self.held[loser] &= !(1 << to);
            self.held[self.current as usize] |= 1 << to;
            self.owner[to] = self.current;
        }
        self.attacks_left -= 1;
        self.acted = true;
        if self.attacks_left == 0 && !self.over() {
            self.end_turn();
        }
    }

    fn owner_text(&self, owner: u8) -> String {
        if owner == NEUTRAL { "neutral".into() } else { owner.to_string() }
    }

    fn parse_owner(&self, text: &str) -> Result<u8, String> {
        match text {
            "neutral" => Ok(NEUTRAL),
            _ => text.parse::<u8>().ok().filter(|&s| s < self.players).ok_or_else(|| {
                format!("'{text}' is not an owner: a seat 0-{} or 'neutral'", self.players - 1)
            }),
        }
    }

    fn territory(&self, text: &str) -> Result<u8, String> {
        self.map().territory(text).map(|t| t as u8).ok_or_else(|| format!("'{text}' is not a territory"))
    }

    /// A position from its parts, checked: what `parse_state` and `state_from_json` build.
    fn assemble(
        &self,
        mover: u8,
        left: u8,
        acted: bool,
        owners: &[u8],
        armies: &[u16],
    ) -> Result<Self, String> {
        if owners.len() != self.map().len() {
            return Err(format!("{} territories given, the map has {}", owners.len(), self.map().len()));
        }
        if armies.contains(&0) {
            return Err("every territory holds at least one army".into());
        }
        if mover >= self.players || !owners.contains(&mover) {
            return Err(format!("seat {mover} is not in the game"));
        }
        if left > self.max_attacks || (acted && left == self.max_attacks) {
            return Err(format!("{left} attacks left, acted {acted}, of {} a turn", self.max_attacks));
        }
        let mut state = Prediction::at_attack(
            self.map.0.clone(),
            self.players as usize,
            owners,
            armies,
            mover as usize,
            left,
            self.max_attacks,
        );
        state.acted = acted;
        Ok(state)
    }
}

impl Hash for Prediction {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let n = self.map().len();
        self.owner[..n].hash(state);
        self.armies[..n].hash(state);
        (self.current, self.attacks_left, self.acted).hash(state);
    }
}

impl Game for Prediction {
    type Action = Move;

    fn num_players(&self) -> usize {
        self.players as usize
    }

    fn turn(&self) -> Turn {
        if self.over() { Turn::Over } else { Turn::Player(self.current as Player) }
    }

    fn legal_actions(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.over() {
            return;
        }
        let me = self.current as usize;
        if self.attacks_left > 0 {
            for from in bits(self.held[me]) {
                let a = self.armies[from];
                for to in bits(self.map().territories[from].border & !self.held[me]) {
                    if a > self.armies[to] {
                        out.push(Move::Attack { from: from as u8, to: to as u8 });
                    }
                }
            }
        }
        out.push(Move::EndTurn);
    }

    fn chance_outcomes(&self, out: &mut Vec<(Move, f64)>) {
        out.clear();
    }

    fn apply(&mut self, action: Move) {
        match action {
            Move::Attack { from, to } => self.attack(from as usize, to as usize),
            Move::EndTurn => self.end_turn(),
        }
    }

    fn returns(&self) -> Returns {
        let n = self.players as usize;
        match (0..n).find(|&s| self.alive(s)) {
            Some(winner) if self.over() => Returns::win(n, winner),
            _ => Returns::draw(n),
        }
    }

    fn continues_turn(&self) -> bool {
        self.acted && !self.over()
    }

    fn decisions_left_in_turn(&self) -> Option<u32> {
        None
    }

    /// A multiply-rotate hash with a SplitMix finish: SipHash over every territory cost more
    /// than a tenth of the search.
    fn hash_key(&self) -> Option<u64> {
        let mut h = u64::from(self.current) | u64::from(self.attacks_left) << 8 | u64::from(self.acted) << 16;
        for t in 0..self.map().len() {
            let word = u64::from(self.armies[t]) | u64::from(self.owner[t]) << 16 | (t as u64) << 24;
            h = (h ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
        }
        Some(ply_core::rng::derive_seed(h, 0))
    }

    fn action_to_text(&self, action: Move) -> String {
        let name = |t: u8| self.map().territories[t as usize].slug.clone();
        match action {
            Move::Attack { from, to } => format!("attack {} {}", name(from), name(to)),
            Move::EndTurn => "end-turn".into(),
        }
    }

    fn parse_action(&self, text: &str) -> Result<Move, Error> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let parsed = match words.as_slice() {
            ["end-turn"] => Ok(Move::EndTurn),
            ["attack", from, to] => {
                self.territory(from).and_then(|from| Ok(Move::Attack { from, to: self.territory(to)? }))
            }
            _ => Err(format!("'{text}': expected 'attack FROM TO' or 'end-turn'")),
        };
        parsed.map_err(Error::notation)
    }

    /// `turn SEAT attacks LEFT acted yes|no`, then one line per territory: `NAME OWNER ARMIES`.
    fn to_text(&self) -> String {
        let mut text = format!(
            "turn {} attacks {} acted {}\n",
            self.current,
            self.attacks_left,
            if self.acted { "yes" } else { "no" }
        );
        for (t, territory) in self.map().territories.iter().enumerate() {
            text += &format!("{} {} {}\n", territory.slug, self.owner_text(self.owner[t]), self.armies[t]);
        }
        text
    }

    fn parse_state(&self, text: &str) -> Result<Self, Error> {
        let read = || -> Result<Self, String> {
            let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
            let header: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
            let ["turn", seat, "attacks", left, "acted", acted] = header.as_slice() else {
                return Err("the first line is 'turn SEAT attacks LEFT acted yes|no'".into());
            };
            let number = |s: &str| s.parse::<u8>().map_err(|_| format!("'{s}' is not a number"));
            let acted = match *acted {
                "yes" => true,
                "no" => false,
                other => return Err(format!("acted is 'yes' or 'no', not '{other}'")),
            };
            let n = self.map().len();
            let (mut owners, mut armies, mut seen) = (vec![0u8; n], vec![0u16; n], 0u64);
            for line in lines {
                let words: Vec<&str> = line.split_whitespace().collect();
                let [name, owner, count] = words.as_slice() else {
                    return Err(format!("'{line}': expected 'TERRITORY OWNER ARMIES'"));
                };
                let t = self.territory(name)? as usize;
                owners[t] = self.parse_owner(owner)?;
                armies[t] = count.parse().map_err(|_| format!("'{count}' is not a number of armies"))?;
                seen |= 1 << t;
            }
            if seen != self.map().all() {
                return Err("every territory needs a line".into());
            }
            self.assemble(number(seat)?, number(left)?, acted, &owners, &armies)
        };
        read().map_err(Error::notation)
    }

    fn to_json(&self) -> Value {
        let territories: Vec<Value> = (0..self.map().len())
            .map(|t| {
                let owner = if self.owner[t] == NEUTRAL { json!("neutral") } else { json!(self.owner[t]) };
                json!({"name": self.map().territories[t].slug, "owner": owner, "armies": self.armies[t]})
            })
            .collect();
        json!({"turn": self.current, "attacks_left": self.attacks_left, "acted": self.acted, "territories": territories})
    }

    fn state_from_json(&self, json: &Value) -> Result<Self, Error> {
        let read = || -> Result<Self, String> {
            let small = |key: &str| {
                json[key].as_u64().filter(|&v| v < 256).map(|v| v as u8).ok_or(format!("'{key}' is a number"))
            };
            let acted = json["acted"].as_bool().ok_or("'acted' is true or false")?;
            let list = json["territories"].as_array().ok_or("'territories' is a list")?;
            let n = self.map().len();
            let (mut owners, mut armies, mut seen) = (vec![0u8; n], vec![0u16; n], 0u64);
            for entry in list {
                let t = self.territory(entry["name"].as_str().ok_or("a territory has a 'name'")?)? as usize;
                owners[t] = match &entry["owner"] {
                    Value::String(s) => self.parse_owner(s)?,
                    v => self.parse_owner(&v.to_string())?,
                };
                armies[t] = entry["armies"]
                    .as_u64()
                    .and_then(|a| u16::try_from(a).ok())
                    .ok_or("a territory has a number of 'armies'")?;
                seen |= 1 << t;
            }
            if seen != self.map().all() {
                return Err("every territory needs an entry".into());
            }
            self.assemble(small("turn")?, small("attacks_left")?, acted, &owners, &armies)
        };
        read().map_err(Error::notation)
    }
}

//! Pig, the dice game, for 2 to 6 players (docs/pig.md). On your turn you roll a die as often as
//! you like, adding each roll to your turn total; rolling a 1 loses the turn total and ends your
//! turn; holding banks the turn total and passes the die. The first to reach `target` points
//! (banked plus turn total) wins at once.
//!
//! Small as it is, Pig has what the big games need from the model: a chance event (each roll),
//! more than two players, and turns of several actions by the same player. Tests of the generic
//! search use it for exactly that.

use ply_core::{
    AgentFactory, BenchCase, Error, Game, GameDef, MAX_PLAYERS, ParamInfo, Params, Returns, Turn,
};
use ply_search::{GeneratedOrder, UniformRollout, factories};
use serde_json::{Value, json};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PigAction {
    Roll,
    Hold,
    /// A die outcome, 1 to 6.
    Die(u8),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pig {
    players: u8,
    target: u8,
    max_turns: u16,
    scores: [u8; MAX_PLAYERS],
    player: u8,
    turn_total: u8,
    /// A roll was asked for and the die is in the air.
    rolling: bool,
    turns: u16,
}

impl Pig {
    pub fn new(players: usize, target: u8, max_turns: u16) -> Self {
        assert!((2..=6).contains(&players) && target > 0 && max_turns > 0);
        Pig {
            players: players as u8,
            target,
            max_turns,
            scores: [0; MAX_PLAYERS],
            player: 0,
            turn_total: 0,
            rolling: false,
            turns: 0,
        }
    }

    pub fn score(&self, player: usize) -> u8 {
        self.scores[player]
    }

    pub fn turn_total(&self) -> u8 {
        self.turn_total
    }

    fn winner(&self) -> Option<usize> {
        (0..self.players as usize).find(|&p| self.scores[p] >= self.target)
    }

    fn end_turn(&mut self) {
        self.turn_total = 0;
        self.player = (self.player + 1) % self.players;
        self.turns += 1;
    }

    fn check(self) -> Result<Self, Error> {
        let n = self.players as usize;
        if self.scores[..n].iter().filter(|&&s| s >= self.target).count() > 1 {
            return Err(Error::notation("more than one player has reached the target"));
        }
        if self.player >= self.players {
            return Err(Error::notation(format!("player {} does not exist ({} players)", self.player, n)));
        }
        if self.winner().is_some() && (self.turn_total > 0 || self.rolling) {
            return Err(Error::notation("the game is over but a turn is still going on"));
        }
        if u16::from(self.scores[self.player as usize]) + u16::from(self.turn_total) >= u16::from(self.target)
            && self.winner().is_none()
        {
            return Err(Error::notation("score plus turn total reach the target: the game would be over"));
        }
        Ok(self)
    }
}

impl Game for Pig {
    type Action = PigAction;

    fn num_players(&self) -> usize {
        self.players as usize
    }

    fn turn(&self) -> Turn {
        if self.winner().is_some() || self.turns >= self.max_turns {
            Turn::Over
        } else if self.rolling {
            Turn::Chance
        } else {
            Turn::Player(self.player as usize)
        }
    }

    fn legal_actions(&self, out: &mut Vec<PigAction>) {
        out.clear();
        if let Turn::Player(_) = self.turn() {
            out.push(PigAction::Roll);
            // Holding on nothing would only pass: every turn rolls at least once, so games end.
            if self.turn_total > 0 {
                out.push(PigAction::Hold);
            }
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(PigAction, f64)>) {
        out.clear();
        if self.turn() == Turn::Chance {
            out.extend((1..=6).map(|d| (PigAction::Die(d), 1.0 / 6.0)));
        }
    }

    /// A turn goes on from its first roll until a hold, a 1, or the target.
    fn continues_turn(&self) -> bool {
        self.turn() != Turn::Over && (self.rolling || self.turn_total > 0)
    }

    /// A player rolls as long as it likes.
    fn decisions_left_in_turn(&self) -> Option<u32> {
        None
    }

    fn apply(&mut self, action: PigAction) {
        match action {
            PigAction::Roll => self.rolling = true,
            PigAction::Hold => {
                self.scores[self.player as usize] += self.turn_total;
                if self.winner().is_some() {
                    self.turn_total = 0;
                } else {
                    self.end_turn();
                }
            }
            PigAction::Die(1) => {
                self.rolling = false;
                self.end_turn();
            }
            PigAction::Die(d) => {
                self.rolling = false;
                self.turn_total = self.turn_total.saturating_add(d);
                // Reaching the target wins at once: no need to hold, and every turn is finite.
                let player = self.player as usize;
                if self.scores[player] as u16 + self.turn_total as u16 >= self.target as u16 {
                    self.scores[player] += self.turn_total;
                    self.turn_total = 0;
                }
            }
        }
    }

    fn returns(&self) -> Returns {
        let n = self.players as usize;
        if let Some(w) = self.winner() {
            return Returns::win(n, w);
        }
        // Out of turns: the leaders share the win.
        let best = *self.scores[..n].iter().max().unwrap();
        let leaders = self.scores[..n].iter().filter(|&&s| s == best).count() as f64;
        Returns::from_slice(
            &(0..n).map(|p| if self.scores[p] == best { 1.0 / leaders } else { 0.0 }).collect::<Vec<_>>(),
        )
    }

    fn hash_key(&self) -> Option<u64> {
        let mut h = 0u64;
        for &s in &self.scores[..self.players as usize] {
            h = ply_core::rng::derive_seed(h, s as u64);
        }
        let rest = (self.player as u64)
            | (self.turn_total as u64) << 8
            | (self.rolling as u64) << 16
            | (self.turns as u64) << 24;
        Some(ply_core::rng::derive_seed(h, rest))
    }

    fn action_to_text(&self, action: PigAction) -> String {
        match action {
            PigAction::Roll => "roll".into(),
            PigAction::Hold => "hold".into(),
            PigAction::Die(d) => d.to_string(),
        }
    }

    fn parse_action(&self, text: &str) -> Result<PigAction, Error> {
        match text.trim() {
            "roll" => Ok(PigAction::Roll),
            "hold" => Ok(PigAction::Hold),
            t => match t.parse::<u8>() {
                Ok(d @ 1..=6) => Ok(PigAction::Die(d)),
                _ => Err(Error::notation(format!(
                    "'{t}' is not a Pig action: expected roll, hold or a die value 1-6"
                ))),
            },
        }
    }

    /// `scores;player;turn total;phase;turns`, e.g. `0,5,12;1;4;decide;17`; the phase is
    /// `decide` (the player chooses) or `roll` (the die is in the air).
    fn to_text(&self) -> String {
        let scores: Vec<String> =
            self.scores[..self.players as usize].iter().map(|s| s.to_string()).collect();
        format!(
            "{};{};{};{};{}",
            scores.join(","),
            self.player,
            self.turn_total,
            if self.rolling { "roll" } else { "decide" },
            self.turns
        )
    }

    fn parse_state(&self, text: &str) -> Result<Self, Error> {
        let fields: Vec<&str> = text.trim().split(';').collect();
        let [scores, player, total, phase, turns] = fields[..] else {
            return Err(Error::notation(
                "a Pig position is scores;player;turn total;phase;turns, e.g. 0,5,12;1;4;decide;17",
            ));
        };
        let number = |what: &str, t: &str| -> Result<u64, Error> {
            t.trim().parse().map_err(|_| Error::notation(format!("{what} must be a number, got '{t}'")))
        };
        let scores: Vec<u64> = scores.split(',').map(|s| number("a score", s)).collect::<Result<_, _>>()?;
        if scores.len() != self.players as usize {
            return Err(Error::notation(format!("expected {} scores, got {}", self.players, scores.len())));
        }
        let mut state = self.clone();
        for (slot, &s) in state.scores.iter_mut().zip(&scores) {
            *slot = u8::try_from(s).map_err(|_| Error::notation(format!("score {s} is too large")))?;
        }
        state.player = u8::try_from(number("the player", player)?).unwrap_or(u8::MAX);
        state.turn_total = u8::try_from(number("the turn total", total)?)
            .map_err(|_| Error::notation("turn total too large"))?;
        state.rolling = match phase.trim() {
            "roll" => true,
            "decide" => false,
            other => return Err(Error::notation(format!("phase must be 'decide' or 'roll', got '{other}'"))),
        };
        state.turns = u16::try_from(number("the turn count", turns)?)
            .map_err(|_| Error::notation("turn count too large"))?;
        state.check()
    }

    fn to_json(&self) -> Value {
        json!({
            "scores": &self.scores[..self.players as usize],
            "player": self.player,
            "turn_total": self.turn_total,
            "phase": if self.rolling { "roll" } else { "decide" },
            "turns": self.turns,
            "target": self.target,
        })
    }

    fn state_from_json(&self, json: &Value) -> Result<Self, Error> {
        let field = |name: &str| {
            json.get(name).ok_or_else(|| Error::notation(format!("a Pig position needs \"{name}\"")))
        };
        let scores = field("scores")?
            .as_array()
            .ok_or_else(|| Error::notation("\"scores\" must be an array of numbers"))?
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(",");
        let text = format!(
            "{};{};{};{};{}",
            scores,
            field("player")?,
            field("turn_total")?,
            field("phase")?.as_str().unwrap_or("?"),
            field("turns")?
        );
        self.parse_state(&text)
    }
}

/// A sensible heuristic: banked points plus a share of the turn total, against the best rival.
fn pig_eval(state: &Pig, player: usize) -> f64 {
    let worth = |p: usize| {
        let mut v = state.scores[p] as f64;
        if p == state.player as usize {
            v += 0.8 * state.turn_total as f64;
        }
        v / state.target as f64
    };
    let best_rival = (0..state.players as usize).filter(|&p| p != player).map(worth).fold(0.0, f64::max);
    (worth(player) - best_rival).clamp(-1.0, 1.0)
}

impl GameDef for Pig {
    const NAME: &'static str = "pig";
    const ABOUT: &'static str = "Pig, the dice game, for 2-6 players: roll or hold, a 1 loses the turn";

    fn options() -> Vec<ParamInfo> {
        vec![
            ParamInfo::new("players", 3, "number of players, 2-6"),
            ParamInfo::new("target", 30, "points needed to win, 1-100"),
            ParamInfo::new("max_turns", 300, "turns before the game ends with the leaders sharing the win"),
        ]
    }

    fn new_game(options: &Params) -> Result<Self, Error> {
        Ok(Pig::new(
            options.get_in("players", 2..=6)?,
            options.get_in("target", 1..=100)?,
            options.get_in("max_turns", 1..=10_000)?,
        ))
    }

    fn agents() -> Vec<AgentFactory<Self>> {
        vec![
            factories::alphabeta(
                "expectimax",
                "paranoid expectimax (*-minimax) over rolls, banked-points evaluation",
                vec![],
                |_| Ok((pig_eval, GeneratedOrder)),
            ),
            factories::mcts("mcts", "UCT with chance nodes and random playouts", vec![], |_| {
                Ok((pig_eval, UniformRollout))
            }),
            factories::evolution(
                "oep",
                "Online Evolutionary Planning: whole turns (rolls, then a hold) evolved and judged by the banked-points evaluation",
                |_| Ok(pig_eval),
            ),
            factories::random(),
        ]
    }

    fn bench_cases() -> Vec<BenchCase> {
        // Positions where the player to move has a real choice (at the start it can only roll).
        const EARLY: &str = "5,3,8;0;6;decide;4";
        const LATE: &str = "21,25,17;2;9;decide;30";
        vec![
            BenchCase { position: EARLY, agent: "expectimax:depth=9", iterations: 50_000_000 },
            BenchCase { position: LATE, agent: "expectimax:depth=9", iterations: 50_000_000 },
            BenchCase { position: EARLY, agent: "mcts", iterations: 20_000 },
            BenchCase { position: LATE, agent: "mcts", iterations: 20_000 },
        ]
    }
}

//! The harness against a small game that passes, and against the same game broken in each way
//! the harness is meant to notice: every check must be able to fail.

use serde_json::{Value, json};

use super::*;
use crate::error::Error;
use crate::game::Returns;

/// Climb: players take turns of up to `MAX_ROLLS` rolls of a three-sided die, banking the turn's
/// total when they hold; a 1 loses it. The first to reach the target wins; after `max_turns`
/// turns the leaders share. Chance, turns of several decisions that the game can count, draws.
#[derive(Clone, Debug)]
struct Climb {
    players: u8,
    target: u8,
    max_turns: u16,
    scores: [u8; 3],
    to_move: u8,
    total: u8,
    rolls: u8,
    rolling: bool,
    turns: u16,
    over: bool,
    /// Kept up to date by `apply`, as a Zobrist hash is; left out of equality.
    hash: u64,
    history: Vec<[u64; 2]>,
    fault: Fault,
}

const MAX_ROLLS: u8 = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Step {
    Roll,
    Hold,
    Die(u8),
}

/// One way of getting the model wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    None,
    IsLegalRefusesHold,
    IsLegalAcceptsAnything,
    RollListedTwice,
    NoActionOnTurnTwo,
    HoldListedAtChance,
    ProbabilitiesShort,
    SampleUnlisted,
    TextDropsTotal,
    JsonDropsTurns,
    HashStaleAfterHold,
    UndoKeepsHash,
    UndoKeepsTotal,
    ContinuesIntoNextTurn,
    ZeroDecisionsLeft,
    DecisionsCountUp,
    ReturnsSumToTwo,
    RollSpelledByTurn,
    RefusalCountsATurn,
}

impl Climb {
    fn new(players: u8, target: u8, max_turns: u16, fault: Fault) -> Self {
        let mut climb = Climb {
            players,
            target,
            max_turns,
            scores: [0; 3],
            to_move: 0,
            total: 0,
            rolls: 0,
            rolling: false,
            turns: 0,
            over: false,
            hash: 0,
            history: Vec::new(),
            fault,
        };
        climb.hash = climb.computed_hash();
        climb
    }

    fn fields(&self) -> [u64; 2] {
        let scores = u64::from_le_bytes([self.scores[0], self.scores[1], self.scores[2], 0, 0, 0, 0, 0]);
        let rest = u64::from(self.to_move)
            | u64::from(self.total) << 8
            | u64::from(self.rolls) << 16
            | u64::from(self.rolling) << 24
            | u64::from(self.over) << 25
            | u64::from(self.turns) << 32;
        [scores, rest]
    }

    fn set_fields(&mut self, [scores, rest]: [u64; 2]) {
        let s = scores.to_le_bytes();
        self.scores = [s[0], s[1], s[2]];
        self.to_move = rest as u8;
        self.total = (rest >> 8) as u8;
        self.rolls = (rest >> 16) as u8;
        self.rolling = rest >> 24 & 1 == 1;
        self.over = rest >> 25 & 1 == 1;
        self.turns = (rest >> 32) as u16;
    }

    fn computed_hash(&self) -> u64 {
        let [a, b] = self.fields();
        derive_seed(a, b)
    }

    fn next_turn(&mut self) {
        self.total = 0;
        self.rolls = 0;
        self.to_move = (self.to_move + 1) % self.players;
        self.turns += 1;
        self.over = self.turns >= self.max_turns;
    }
}

impl PartialEq for Climb {
    fn eq(&self, other: &Self) -> bool {
        (self.players, self.target, self.max_turns) == (other.players, other.target, other.max_turns)
            && self.fields() == other.fields()
    }
}

impl Game for Climb {
    type Action = Step;

    fn num_players(&self) -> usize {
        self.players as usize
    }

    fn turn(&self) -> Turn {
        match (self.over, self.rolling) {
            (true, _) => Turn::Over,
            (false, true) => Turn::Chance,
            (false, false) => Turn::Player(self.to_move as usize),
        }
    }

    fn legal_actions(&self, out: &mut Vec<Step>) {
        out.clear();
        let fault = self.fault;
        if self.rolling && fault == Fault::HoldListedAtChance {
            out.push(Step::Hold);
        }
        if self.turn() != Turn::Player(self.to_move as usize)
            || fault == Fault::NoActionOnTurnTwo && self.turns == 2
        {
            return;
        }
        out.push(Step::Roll);
        if fault == Fault::RollListedTwice {
            out.push(Step::Roll);
        }
        if self.total > 0 {
            out.push(Step::Hold);
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(Step, f64)>) {
        out.clear();
        if self.turn() == Turn::Chance {
            let p = if self.fault == Fault::ProbabilitiesShort { 0.3 } else { 1.0 / 3.0 };
            out.extend((1..=3).map(|d| (Step::Die(d), p)));
        }
    }

    fn sample_chance(&self, rng: &mut Rng) -> Step {
        let top = if self.fault == Fault::SampleUnlisted { 4 } else { 3 };
        Step::Die(rng.random_range(1..=top))
    }

    fn is_legal(&self, action: Step) -> bool {
        match self.fault {
            Fault::IsLegalRefusesHold if action == Step::Hold => false,
            Fault::IsLegalAcceptsAnything if self.turn() != Turn::Over => true,
            _ => listed(self).contains(&action),
        }
    }

    fn play(&mut self, action: Step) -> Result<(), Error> {
        if self.fault == Fault::RefusalCountsATurn {
            self.turns += 1;
            if !self.is_legal(action) {
                return Err(Error::illegal("no"));
            }
            self.turns -= 1;
        }
        if !self.is_legal(action) {
            return Err(Error::illegal("not legal here"));
        }
        self.apply(action);
        Ok(())
    }

    fn apply(&mut self, action: Step) {
        self.history.push(self.fields());
        let player = self.to_move as usize;
        match action {
            Step::Roll => {
                self.rolls += 1;
                self.rolling = true;
            }
            Step::Hold => {
                self.scores[player] += self.total;
                self.next_turn();
            }
            Step::Die(1) => {
                self.rolling = false;
                self.next_turn();
            }
            Step::Die(d) => {
                self.rolling = false;
                self.total += d;
                if self.scores[player] + self.total >= self.target {
                    self.scores[player] += self.total;
                    self.total = 0;
                    self.over = true;
                } else if self.rolls == MAX_ROLLS {
                    self.scores[player] += self.total;
                    self.next_turn();
                }
            }
        }
        if !(self.fault == Fault::HashStaleAfterHold && action == Step::Hold) {
            self.hash = self.computed_hash();
        }
    }

    const CAN_UNDO: bool = true;

    fn undo(&mut self, _action: Step) {
        let total = self.total;
        let before = self.history.pop().expect("undo of an applied action");
        self.set_fields(before);
        if self.fault == Fault::UndoKeepsTotal && self.turn() == Turn::Chance {
            self.total = total;
        }
        if self.fault != Fault::UndoKeepsHash {
            self.hash = self.computed_hash();
        }
    }

    fn returns(&self) -> Returns {
        let players = self.num_players();
        if self.fault == Fault::ReturnsSumToTwo {
            return Returns::from_slice(&vec![1.0; players]);
        }
        let best = *self.scores[..players].iter().max().unwrap();
        let leaders = self.scores[..players].iter().filter(|&&s| s == best).count();
        let shares: Vec<f64> = self.scores[..players]
            .iter()
            .map(|&s| if s == best { 1.0 / leaders as f64 } else { 0.0 })
            .collect();
        Returns::from_slice(&shares)
    }

    fn continues_turn(&self) -> bool {
        let fresh_turn = self.fault == Fault::ContinuesIntoNextTurn && self.turns > 0 && !self.rolling;
        !self.over && (self.rolling || self.rolls > 0 || fresh_turn)
    }

    fn decisions_left_in_turn(&self) -> Option<u32> {
        match self.fault {
            Fault::ZeroDecisionsLeft if self.rolls == 2 => Some(0),
            Fault::DecisionsCountUp => Some(u32::from(self.rolls) + 1),
            _ => Some(u32::from(MAX_ROLLS - self.rolls)),
        }
    }

    fn hash_key(&self) -> Option<u64> {
        Some(self.hash)
    }

    fn action_to_text(&self, action: Step) -> String {
        match action {
            Step::Roll if self.fault == Fault::RollSpelledByTurn && self.turns % 2 == 1 => "r".into(),
            Step::Roll => "roll".into(),
            Step::Hold => "hold".into(),
            Step::Die(d) => d.to_string(),
        }
    }

    fn parse_action(&self, text: &str) -> Result<Step, Error> {
        match text {
            "roll" | "r" => Ok(Step::Roll),
            "hold" => Ok(Step::Hold),
            _ => match text.parse() {
                Ok(d @ 1..=4) => Ok(Step::Die(d)),
                _ => Err(Error::notation(format!("'{text}' is not a Climb action"))),
            },
        }
    }

    fn to_text(&self) -> String {
        let total = if self.fault == Fault::TextDropsTotal { 0 } else { self.total };
        let scores: Vec<String> = self.scores[..self.num_players()].iter().map(u8::to_string).collect();
        let phase = if self.over {
            "over"
        } else if self.rolling {
            "rolling"
        } else {
            "deciding"
        };
        format!("{};{};{total};{};{phase};{}", scores.join(","), self.to_move, self.rolls, self.turns)
    }

    fn parse_state(&self, text: &str) -> Result<Self, Error> {
        let bad = || Error::notation(format!("'{text}' is not a Climb position"));
        let parts: Vec<&str> = text.split(';').collect();
        let [scores, to_move, total, rolls, phase, turns] = parts[..] else { return Err(bad()) };
        let number = |t: &str| t.parse::<u16>().map_err(|_| bad());
        let mut state = Climb::new(self.players, self.target, self.max_turns, self.fault);
        for (i, score) in scores.split(',').enumerate().take(3) {
            state.scores[i] = number(score)? as u8;
        }
        state.to_move = number(to_move)? as u8;
        state.total = number(total)? as u8;
        state.rolls = number(rolls)? as u8;
        state.turns = number(turns)?;
        (state.rolling, state.over) = match phase {
            "rolling" => (true, false),
            "over" => (false, true),
            _ => (false, false),
        };
        state.hash = state.computed_hash();
        Ok(state)
    }

    fn to_json(&self) -> Value {
        let turns = if self.fault == Fault::JsonDropsTurns { 0 } else { self.turns };
        json!({"text": self.to_text(), "turns": turns})
    }

    fn state_from_json(&self, json: &Value) -> Result<Self, Error> {
        let text = json["text"].as_str().ok_or_else(|| Error::notation("no text"))?;
        let mut state = self.parse_state(text)?;
        state.turns = json["turns"].as_u64().ok_or_else(|| Error::notation("no turns"))? as u16;
        state.hash = state.computed_hash();
        Ok(state)
    }
}

fn climb(fault: Fault) -> Climb {
    Climb::new(3, 12, 12, fault)
}

/// What the harness says about a game with this fault.
fn failure(fault: Fault) -> String {
    match Conformance::new(200, 1).check(&climb(fault)) {
        Ok(summary) => panic!("{fault:?} went unnoticed: {summary:?}"),
        Err(failure) => failure,
    }
}

#[test]
fn a_game_that_keeps_the_rules_passes_and_the_summary_counts_what_was_seen() {
    let summary = Conformance::new(300, 7).run(&climb(Fault::None));
    assert_eq!(summary.games, 300);
    assert!(summary.chance_events > 0 && summary.continued_decisions > 0, "{summary:?}");
    assert!(summary.won > 0 && summary.shared > 0, "{summary:?}");
    assert_eq!(summary.actions, summary.decisions + summary.chance_events);
    assert_eq!(summary.perft_positions, 8);
    assert_eq!(summary, Conformance::new(300, 7).run(&climb(Fault::None)), "seeded: the same games again");
    // From a position in the middle of a turn: no last decision to compare the turn with.
    let mid_turn = climb(Fault::None).parse_state("3,0,0;0;3;1;deciding;0").unwrap();
    check_random_games(&mid_turn, 50, 1);
}

#[test]
fn every_broken_rule_is_noticed_and_named() {
    let cases = [
        (Fault::IsLegalRefusesHold, "is_legal refuses Hold"),
        (Fault::IsLegalAcceptsAnything, "not listed"),
        (Fault::RollListedTwice, "listed twice"),
        (Fault::NoActionOnTurnTwo, "has no legal action"),
        (Fault::HoldListedAtChance, "legal actions are listed"),
        (Fault::ProbabilitiesShort, "probabilities [0.3, 0.3, 0.3]"),
        (Fault::SampleUnlisted, "sample_chance drew Die(4)"),
        (Fault::TextDropsTotal, "its text reads back as another state"),
        (Fault::JsonDropsTurns, "its JSON"),
        (Fault::HashStaleAfterHold, "hash"),
        (Fault::UndoKeepsHash, "undo of"),
        (Fault::UndoKeepsTotal, "undo of"),
        (Fault::ContinuesIntoNextTurn, "but the last decision was player"),
        (Fault::ZeroDecisionsLeft, "0 decisions left"),
        (Fault::DecisionsCountUp, "decisions left"),
        (Fault::ReturnsSumToTwo, "sum to 3"),
        (Fault::RollSpelledByTurn, "at the start"),
        (Fault::RefusalCountsATurn, "changed the state"),
    ];
    for (fault, expected) in cases {
        let failure = failure(fault);
        assert!(failure.contains(expected), "{fault:?}: {failure}");
        assert!(
            failure.contains("Conformance::new(200, 1)") || failure.contains("start position"),
            "{failure}"
        );
    }
}

#[test]
fn a_games_own_invariant_is_checked_at_every_position() {
    let mut seen = 0;
    let summary = Conformance::new(20, 3).run_with(&climb(Fault::None), |state| {
        seen += 1;
        if state.scores.iter().sum::<u8>() > 60 {
            Err("more points than the game can give".into())
        } else {
            Ok(())
        }
    });
    assert_eq!(seen, 1 + summary.actions, "the start, then the position after every action");
    let failure = Conformance::new(20, 3)
        .check_with(&climb(Fault::None), |state| if state.turns < 4 { Ok(()) } else { Err("turn 4".into()) })
        .unwrap_err();
    assert!(failure.contains("position '") && failure.ends_with("turn 4"), "{failure}");
}

#[test]
fn a_game_that_runs_too_long_fails() {
    let failure = Conformance::new(5, 1).max_actions(5).check(&climb(Fault::None)).unwrap_err();
    assert!(failure.contains("did not end within 5 actions"), "{failure}");
}

#[test]
fn move_path_counts_differ_after_a_bad_undo_or_a_lossy_text() {
    // Target 5, a die pending on an empty turn: after undoing a 2 the stale total makes the 3
    // that follows it a win (a leaf) instead of a total of 3 (roll or hold).
    let pending = "0,0,0;0;0;1;rolling;0";
    let broken = Climb::new(3, 5, 12, Fault::UndoKeepsTotal).parse_state(pending).unwrap();
    let failure = check_perft(&broken, &broken, 2).unwrap_err();
    assert!(failure.contains("5 by cloning but 4 by apply and undo"), "{failure}");
    // A total of 2 that the text leaves out: the position read back cannot hold.
    let lossy = climb(Fault::TextDropsTotal).parse_state("0,0,0;0;2;1;deciding;0").unwrap();
    let failure = check_perft(&lossy, &lossy, 1).unwrap_err();
    assert!(failure.contains("perft 1 is 2, but Ok(1) from its text"), "{failure}");
    let fine = Climb::new(3, 5, 12, Fault::None).parse_state(pending).unwrap();
    assert!(check_perft(&fine, &fine, 4).is_ok());
}

/// Player 1 is dealt a hidden number from 0 to 2; player 0 guesses it. `leaky` re-deals by
/// shifting the real number, so its worlds depend on what player 0 cannot see.
#[derive(Clone, Debug, PartialEq)]
struct Peek {
    secret: Option<u8>,
    guess: Option<u8>,
    leaky: bool,
}

impl Game for Peek {
    type Action = u8;
    const HIDDEN_INFORMATION: bool = true;

    fn num_players(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        match (self.secret, self.guess) {
            (None, _) => Turn::Chance,
            (Some(_), None) => Turn::Player(0),
            _ => Turn::Over,
        }
    }
    fn legal_actions(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.turn() == Turn::Player(0) {
            out.extend(0..3);
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(u8, f64)>) {
        out.clear();
        if self.turn() == Turn::Chance {
            out.extend((0..3).map(|n| (n, 1.0 / 3.0)));
        }
    }
    fn apply(&mut self, action: u8) {
        if self.secret.is_none() { self.secret = Some(action) } else { self.guess = Some(action) }
    }
    fn returns(&self) -> Returns {
        Returns::win(2, usize::from(self.guess != self.secret))
    }
    fn action_to_text(&self, action: u8) -> String {
        action.to_string()
    }
    fn parse_action(&self, text: &str) -> Result<u8, Error> {
        text.parse().map_err(|_| Error::notation("a number"))
    }
    fn to_text(&self) -> String {
        let show = |n: Option<u8>| n.map_or("-".to_string(), |n| n.to_string());
        format!("{}:{}", show(self.secret), show(self.guess))
    }
    fn parse_state(&self, _text: &str) -> Result<Self, Error> {
        Err(Error::notation("not read"))
    }
    fn to_json(&self) -> Value {
        json!(self.to_text())
    }
    fn state_from_json(&self, _json: &Value) -> Result<Self, Error> {
        Err(Error::notation("not read"))
    }
    fn observation_text(&self, viewer: Option<Player>) -> String {
        if self.is_over() || viewer == Some(1) {
            self.to_text()
        } else {
            format!("?:{}", self.guess.map_or("-".into(), |g| g.to_string()))
        }
    }
    fn observation_json(&self, viewer: Option<Player>) -> Value {
        json!(self.observation_text(viewer))
    }
    fn resample_hidden(&self, viewer: Player, rng: &mut Rng) -> Self {
        let mut world = self.clone();
        if viewer == 0
            && !self.is_over()
            && let Some(secret) = self.secret
        {
            let drawn = rng.random_range(0..3u8);
            world.secret = Some(if self.leaky { (secret + drawn) % 3 } else { drawn });
        }
        world
    }
}

#[test]
fn a_redeal_that_depends_on_the_hidden_part_is_noticed() {
    let dealt = |leaky| Peek { secret: Some(2), guess: None, leaky };
    check_observations(&dealt(false)).unwrap();
    let err = check_observations(&dealt(true)).unwrap_err();
    assert!(err.contains("depends on more than what it sees"), "{err}");
    let over = Peek { secret: Some(1), guess: Some(0), leaky: false };
    check_observations(&over).unwrap();
}

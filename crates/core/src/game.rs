use std::fmt::Debug;
use std::hash::Hash;

use rand::RngExt;
use serde_json::Value;

use crate::error::Error;
use crate::rng::Rng;

/// A seat at the table, counted from 0.
pub type Player = usize;

/// The most players any game may seat. Fixed so that [`Returns`] is a `Copy` value that search
/// can pass around without allocating.
pub const MAX_PLAYERS: usize = 8;

/// Who acts next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    Player(Player),
    /// A chance event (a die roll, a card draw): its outcomes come from [`Game::chance_outcomes`].
    Chance,
    /// The game is over: [`Game::returns`] holds the result.
    Over,
}

/// Every player's score at the end of a game, each in `[0, 1]`: 1 for a win, 0 for a loss,
/// 0.5 each for a two-player draw. Scores of a finished game sum to 1, so multi-player shares
/// (a draw between three players gives each 1/3) stay comparable.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Returns {
    scores: [f64; MAX_PLAYERS],
    len: u8,
}

impl Returns {
    /// All zeros, for `players` players.
    pub fn zeros(players: usize) -> Self {
        assert!(players <= MAX_PLAYERS, "at most {MAX_PLAYERS} players");
        Returns { scores: [0.0; MAX_PLAYERS], len: players as u8 }
    }

    pub fn win(players: usize, winner: Player) -> Self {
        let mut returns = Self::zeros(players);
        returns.scores[winner] = 1.0;
        returns
    }

    /// An equal share for everyone.
    pub fn draw(players: usize) -> Self {
        let mut returns = Self::zeros(players);
        for score in &mut returns.scores[..players] {
            *score = 1.0 / players as f64;
        }
        returns
    }

    pub fn from_slice(scores: &[f64]) -> Self {
        let mut returns = Self::zeros(scores.len());
        returns.scores[..scores.len()].copy_from_slice(scores);
        returns
    }

    pub fn players(&self) -> usize {
        self.len as usize
    }

    pub fn get(&self, player: Player) -> f64 {
        self.as_slice()[player]
    }

    pub fn set(&mut self, player: Player, score: f64) {
        self.scores[..self.len as usize][player] = score;
    }

    pub fn as_slice(&self) -> &[f64] {
        &self.scores[..self.len as usize]
    }

    /// The player's score minus the best score among the others: +1 for an outright win,
    /// -1 for a loss to a single winner, 0 for an even draw. This is the root player's value in
    /// two-player (negamax) and paranoid search.
    pub fn margin(&self, player: Player) -> f64 {
        let best_other = self
            .as_slice()
            .iter()
            .enumerate()
            .filter(|&(p, _)| p != player)
            .map(|(_, &s)| s)
            .fold(f64::NEG_INFINITY, f64::max);
        if best_other == f64::NEG_INFINITY { self.get(player) } else { self.get(player) - best_other }
    }
}

/// A game state. Implementations are plain values: cloning one gives an independent copy.
///
/// The required methods are the fast, unchecked core that search uses; the provided methods add
/// checked play, sampling and conveniences on top. Actions are small `Copy` values. Their text
/// form may depend on the game's options (the board size, say) but not on the position, so that a
/// line of play can be printed from the position where it starts.
pub trait Game: Clone + Send + Sync + 'static {
    type Action: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    fn num_players(&self) -> usize;

    fn turn(&self) -> Turn;

    /// Clears `out` and fills it with the legal actions of the player to move. Empty at chance
    /// events and at the end.
    fn legal_actions(&self, out: &mut Vec<Self::Action>);

    /// Clears `out` and fills it with the outcomes of the pending chance event and their
    /// probabilities (positive, summing to 1). Empty unless [`Turn::Chance`].
    fn chance_outcomes(&self, out: &mut Vec<(Self::Action, f64)>);

    /// Applies an action (a player's move or a chance outcome) without checking it. Search calls
    /// this only with actions from `legal_actions`/`chance_outcomes`; use [`Game::play`] for
    /// anything from outside.
    fn apply(&mut self, action: Self::Action);

    /// Every player's score. Meaningful once [`Turn::Over`]; games may return a provisional
    /// value before that but nothing relies on it.
    fn returns(&self) -> Returns;

    /// Whether [`Game::undo`] is implemented. Search takes back moves instead of cloning states
    /// when it is.
    const CAN_UNDO: bool = false;

    /// Takes back `action`, which must be the last action applied. Only called when
    /// [`Game::CAN_UNDO`] is true.
    fn undo(&mut self, _action: Self::Action) {
        unimplemented!("undo is not implemented for this game (CAN_UNDO is false)")
    }

    /// Whether the turn in progress goes on: the next decision (after any chance events) is the
    /// same player's, in the same turn. False at the start of a turn, between turns and at the
    /// end. By default every action is a whole turn; a game whose turns are several actions (Pig
    /// rolls until it holds, a tactics side moves each unit) says so here, and the arena gives a
    /// budget per turn, alpha-beta can count its depth in turns, and MCTS keeps its tree through
    /// the turn.
    fn continues_turn(&self) -> bool {
        false
    }

    /// How many decisions the player to move still has in this turn, this one included, when
    /// the game knows (a tactics side: its units yet to act); `None` when it cannot say (Pig
    /// rolls as long as it likes). The arena shares a turn's budget out by it. One by default.
    fn decisions_left_in_turn(&self) -> Option<u32> {
        Some(1)
    }

    /// A hash of the whole state (position, player to move, pending chance event), for
    /// transposition tables. `None` turns them off.
    fn hash_key(&self) -> Option<u64> {
        None
    }

    /// The text form of an action in this state.
    fn action_to_text(&self, action: Self::Action) -> String;

    /// Parses the text form of an action. Only the syntax is checked here; [`Game::play`]
    /// checks legality.
    fn parse_action(&self, text: &str) -> Result<Self::Action, Error>;

    /// The JSON form of an action. By default the text form as a JSON string.
    fn action_to_json(&self, action: Self::Action) -> Value {
        Value::String(self.action_to_text(action))
    }

    /// Parses the JSON form of an action. A JSON string is always read as the text form.
    fn action_from_json(&self, json: &Value) -> Result<Self::Action, Error> {
        match json {
            Value::String(text) => self.parse_action(text),
            other => Err(Error::notation(format!("expected an action as a JSON string, got {other}"))),
        }
    }

    /// The text form of the whole state; [`Game::parse_state`] reads it back.
    fn to_text(&self) -> String;

    /// Reads a state in text form. `self` supplies the game's options (board size, rules) where
    /// the text does not carry them. The result is checked for consistency.
    fn parse_state(&self, text: &str) -> Result<Self, Error>;

    /// The JSON form of the whole state.
    fn to_json(&self) -> Value;

    /// Reads a state in JSON form, checked like [`Game::parse_state`].
    fn state_from_json(&self, json: &Value) -> Result<Self, Error>;

    /// What stays the same through a game, for a page to draw: a map (Risk's territories, their
    /// positions and borders), fixed by the options and never by the play. It is public: it must
    /// hold nothing that any seat may not see. `Null` by default: a game whose position says it
    /// all (a board of a given size) needs none.
    fn board_json(&self) -> Value {
        Value::Null
    }

    // ----- hidden information -----
    //
    // In a game where players see different things (cards in hand), these say what each may
    // see. `viewer` is a seat, or `None` for a spectator who sees only what is public. The
    // defaults are for games of perfect information, where everyone sees everything.

    /// Whether some players may not see the whole state. Agents are then handed a state
    /// re-dealt for their seat ([`Game::resample_hidden`]) instead of the real one.
    const HIDDEN_INFORMATION: bool = false;

    /// The state as `viewer` sees it, in text: hidden parts masked. Not necessarily readable
    /// back with [`Game::parse_state`]; the whole state once the game is over.
    fn observation_text(&self, _viewer: Option<Player>) -> String {
        self.to_text()
    }

    /// The state as `viewer` sees it, in JSON (what a page draws for that seat).
    fn observation_json(&self, _viewer: Option<Player>) -> Value {
        self.to_json()
    }

    /// How `action`, about to be applied to this state, looks to `viewer`: a card dealt to
    /// another player is seen as "a card", not which one.
    fn action_observation(&self, action: Self::Action, _viewer: Option<Player>) -> String {
        self.action_to_text(action)
    }

    /// A state `viewer` cannot tell from this one: what it sees is kept, what it cannot see is
    /// drawn again at random, consistently with everything it has seen (the other hands from
    /// the cards it has not seen). It must depend only on what `viewer` sees and on `rng`, never
    /// on the hidden part itself, so that an agent handed it learns nothing it should not.
    fn resample_hidden(&self, _viewer: Player, _rng: &mut Rng) -> Self {
        self.clone()
    }

    // ----- provided -----

    fn is_over(&self) -> bool {
        self.turn() == Turn::Over
    }

    /// The player to move, if a player is to move.
    fn current_player(&self) -> Option<Player> {
        match self.turn() {
            Turn::Player(p) => Some(p),
            _ => None,
        }
    }

    fn actions(&self) -> Vec<Self::Action> {
        let mut out = Vec::new();
        self.legal_actions(&mut out);
        out
    }

    fn outcomes(&self) -> Vec<(Self::Action, f64)> {
        let mut out = Vec::new();
        self.chance_outcomes(&mut out);
        out
    }

    /// Whether `action` may be applied now: a legal move of the player to move, or a possible
    /// outcome of the pending chance event.
    fn is_legal(&self, action: Self::Action) -> bool {
        match self.turn() {
            Turn::Over => false,
            Turn::Player(_) => self.actions().contains(&action),
            Turn::Chance => self.outcomes().iter().any(|&(a, p)| a == action && p > 0.0),
        }
    }

    /// Applies `action` after checking it; on error the state is unchanged.
    fn play(&mut self, action: Self::Action) -> Result<(), Error> {
        match self.turn() {
            Turn::Over => Err(Error::illegal(format!(
                "the game is over: {} cannot be played",
                self.action_to_text(action)
            ))),
            _ if !self.is_legal(action) => {
                let kind = if self.turn() == Turn::Chance { "chance outcome" } else { "move" };
                Err(Error::illegal(format!("{} is not a legal {kind} here", self.action_to_text(action))))
            }
            _ => {
                self.apply(action);
                Ok(())
            }
        }
    }

    /// Parses and plays an action given in text form.
    fn play_text(&mut self, text: &str) -> Result<Self::Action, Error> {
        let action = self.parse_action(text)?;
        self.play(action)?;
        Ok(action)
    }

    /// A uniformly random legal move of the player to move: the move, and the random numbers
    /// drawn, of picking from [`Game::legal_actions`] with `random_range(0..len)`, so a seeded
    /// playout is the same whichever way it is found. Random playouts call this at every
    /// decision; a game with long move lists overrides it to find the drawn move without
    /// writing the list. `scratch` is the default's buffer.
    fn random_action(&self, rng: &mut Rng, scratch: &mut Vec<Self::Action>) -> Self::Action {
        self.legal_actions(scratch);
        scratch[rng.random_range(0..scratch.len())]
    }

    /// Draws an outcome of the pending chance event. Playouts call this at every chance event, so
    /// games with many outcomes (a 720-way arrangement, a shuffled deck) override it with a
    /// direct draw of the same distribution.
    fn sample_chance(&self, rng: &mut Rng) -> Self::Action {
        let outcomes = self.outcomes();
        sample_outcome(&outcomes, rng)
    }
}

/// Draws from a list of outcomes with probabilities. The last outcome absorbs rounding, so a
/// list whose probabilities sum to slightly under 1 never fails to pick.
pub fn sample_outcome<A: Copy>(outcomes: &[(A, f64)], rng: &mut Rng) -> A {
    sample_outcome_from(outcomes.iter().copied(), rng)
}

/// [`sample_outcome`] from outcomes as they are generated, for games that draw without
/// building the list.
pub fn sample_outcome_from<A>(outcomes: impl IntoIterator<Item = (A, f64)>, rng: &mut Rng) -> A {
    let mut x: f64 = rng.random();
    let mut last = None;
    for (action, probability) in outcomes {
        if x < probability {
            return action;
        }
        x -= probability;
        last = Some(action);
    }
    last.expect("a chance event needs at least one outcome")
}

/// Plays uniformly random moves and sampled chance outcomes until the end, or for at most
/// `max_actions` actions. Returns the number of actions played.
pub fn random_playout<G: Game>(state: &mut G, rng: &mut Rng, max_actions: usize) -> usize {
    let mut actions = Vec::new();
    for played in 0..max_actions {
        match state.turn() {
            Turn::Over => return played,
            Turn::Chance => {
                let outcome = state.sample_chance(rng);
                state.apply(outcome);
            }
            Turn::Player(_) => {
                let action = state.random_action(rng, &mut actions);
                state.apply(action);
            }
        }
    }
    max_actions
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margin_is_win_loss_draw() {
        assert_eq!(Returns::win(2, 0).margin(0), 1.0);
        assert_eq!(Returns::win(2, 0).margin(1), -1.0);
        assert_eq!(Returns::draw(2).margin(1), 0.0);
        assert_eq!(Returns::win(4, 2).margin(0), -1.0);
        assert_eq!(Returns::win(4, 2).margin(2), 1.0);
    }

    #[test]
    fn sampling_follows_probabilities() {
        use rand::SeedableRng;
        let mut rng = Rng::seed_from_u64(7);
        let outcomes = [('a', 0.25), ('b', 0.75)];
        let draws = 40_000;
        let a = (0..draws).filter(|_| sample_outcome(&outcomes, &mut rng) == 'a').count();
        let share = a as f64 / draws as f64;
        // 4.5 standard deviations: fails by chance about once in 300,000 runs.
        let sd = (0.25f64 * 0.75 / draws as f64).sqrt();
        assert!((share - 0.25).abs() < 4.5 * sd, "share of 'a' was {share}");
    }
}

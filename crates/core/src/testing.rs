//! The conformance harness: what every game must satisfy, checked once here instead of by hand in
//! each game's tests. [`check_random_games`] plays seeded random games from a position and checks
//! every invariant of the model at every step; [`check_position`] checks one position (the fuzz
//! tests call it on every position a parser accepts).
//!
//! Behind the `testing` feature (which `fuzz` turns on), so that only dev-dependencies pull it in.
//! Checks return `Err` with a description instead of panicking, so that a proptest can shrink its
//! input; [`Conformance::run`] panics with the description, the game's seed and the line of play.

use std::collections::HashSet;
use std::fmt::Debug;

use rand::RngExt;

use crate::game::{Game, MAX_PLAYERS, Player, Turn};
use crate::perft::perft;
use crate::rng::{Rng, derive_seed, rng_from_seed};

/// Lists longer than this are checked on a spread of this many entries (EinStein's 720
/// arrangements, a 22×22 board), plus the action actually played: every entry of every list would
/// cost a quadratic time for nothing a spread does not find.
const SPREAD: usize = 64;

/// Actions of earlier positions tried as illegal ones, per position.
const FOREIGN_TRIES: usize = 4;
/// Distinct actions remembered for those tries.
const FOREIGN_POOL: usize = 64;

/// Each game's counted position is one of its first this many.
const PERFT_WITHIN: usize = 30;

/// Probabilities and returns are sums of a few floats: equal to 1 within this.
const EPSILON: f64 = 1e-9;

/// How many random games to check, from which seed, and how far.
#[derive(Clone, Debug)]
pub struct Conformance {
    pub games: usize,
    pub seed: u64,
    /// A game still going after this many actions (moves and chance outcomes) fails: random play
    /// must end, or search and the arena never would.
    pub max_actions: usize,
    /// Depth of the move-path counts compared at sampled positions (0: none).
    pub perft_depth: u32,
    /// How many positions get those counts: the start and one of each of the first games.
    pub perft_positions: usize,
}

/// What the checked games covered, so that a game's test can say what it expects to have seen
/// (chance events in Pig, turns of several decisions, shared results).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub games: usize,
    /// Moves and chance outcomes played.
    pub actions: usize,
    pub decisions: usize,
    pub chance_events: usize,
    /// Decisions made in a turn that had already begun (the same player acting again).
    pub continued_decisions: usize,
    /// Actions in the longest game.
    pub longest: usize,
    /// Games with a single winner scoring 1; the rest shared their result.
    pub won: usize,
    pub shared: usize,
    pub perft_positions: usize,
}

impl Conformance {
    /// `games` games from `seed`, each at most 10,000 actions long; move-path counts to depth 2
    /// at 8 positions.
    pub fn new(games: usize, seed: u64) -> Self {
        Conformance { games, seed, max_actions: 10_000, perft_depth: 2, perft_positions: 8 }
    }

    pub fn max_actions(mut self, max_actions: usize) -> Self {
        self.max_actions = max_actions;
        self
    }

    pub fn perft_depth(mut self, depth: u32) -> Self {
        self.perft_depth = depth;
        self
    }

    pub fn perft_positions(mut self, positions: usize) -> Self {
        self.perft_positions = positions;
        self
    }

    /// Checks the games; panics with what broke, where and how to get there.
    #[track_caller]
    pub fn run<G: Game + PartialEq + Debug>(&self, start: &G) -> Summary {
        self.run_with(start, |_| Ok(()))
    }

    /// [`Conformance::run`], with the game's own invariants checked by `extra` at every position
    /// (the start, every position of every game, every end).
    #[track_caller]
    pub fn run_with<G: Game + PartialEq + Debug>(
        &self,
        start: &G,
        extra: impl FnMut(&G) -> Result<(), String>,
    ) -> Summary {
        match self.check_with(start, extra) {
            Ok(summary) => summary,
            Err(failure) => panic!("{failure}"),
        }
    }

    /// Checks the games; `Err` describes the first thing that broke.
    pub fn check<G: Game + PartialEq + Debug>(&self, start: &G) -> Result<Summary, String> {
        self.check_with(start, |_| Ok(()))
    }

    /// [`Conformance::check`] with `extra` as in [`Conformance::run_with`].
    pub fn check_with<G: Game + PartialEq + Debug>(
        &self,
        start: &G,
        mut extra: impl FnMut(&G) -> Result<(), String>,
    ) -> Result<Summary, String> {
        let mut summary = Summary::default();
        let at_start = |e: String| format!("the start position '{}': {e}", start.to_text());
        check_position(start, start).map_err(at_start)?;
        extra(start).map_err(at_start)?;
        if self.perft_positions > 0 && self.perft_depth > 0 {
            check_perft(start, start, self.perft_depth).map_err(at_start)?;
            summary.perft_positions += 1;
        }
        for game in 0..self.games {
            let mut rng = rng_from_seed(derive_seed(self.seed, game as u64));
            // From a generator of its own, so that the games are the same whatever the counts.
            let perft_at = (summary.perft_positions < self.perft_positions && self.perft_depth > 0)
                .then(|| rng_from_seed(derive_seed(!self.seed, game as u64)).random_range(1..=PERFT_WITHIN));
            let mut playout = Playout::new(start);
            let result = playout.play(self, &mut rng, perft_at, &mut extra, &mut summary);
            result.map_err(|e| {
                let line: Vec<String> = playout.line.iter().map(|&a| start.action_to_text(a)).collect();
                format!(
                    "game {game} of Conformance::new({}, {}), after {} actions [{}]: position '{}': {e}",
                    self.games,
                    self.seed,
                    line.len(),
                    line.join(" "),
                    playout.state.to_text()
                )
            })?;
            summary.games += 1;
        }
        Ok(summary)
    }
}

/// [`Conformance::new`]`(games, seed).run(start)`: the one line a game's tests need.
#[track_caller]
pub fn check_random_games<G: Game + PartialEq + Debug>(start: &G, games: usize, seed: u64) -> Summary {
    Conformance::new(games, seed).run(start)
}

/// One random game being checked.
struct Playout<'a, G: Game> {
    start: &'a G,
    state: G,
    line: Vec<G::Action>,
    /// The player of the last decision, and how many decisions the game said were left in its
    /// turn then.
    last_decision: Option<(Player, Option<u32>)>,
    /// Actions seen earlier, tried where they are not listed: they must be refused.
    foreign: Vec<G::Action>,
}

impl<'a, G: Game + PartialEq + Debug> Playout<'a, G> {
    fn new(start: &'a G) -> Self {
        Playout { start, state: start.clone(), line: Vec::new(), last_decision: None, foreign: Vec::new() }
    }

    fn play(
        &mut self,
        conformance: &Conformance,
        rng: &mut Rng,
        perft_at: Option<usize>,
        extra: &mut impl FnMut(&G) -> Result<(), String>,
        summary: &mut Summary,
    ) -> Result<(), String> {
        let players = self.start.num_players();
        loop {
            let state = &self.state;
            if state.num_players() != players {
                return Err(format!("{} players, but the game began with {players}", state.num_players()));
            }
            if !self.line.is_empty() {
                check_position(self.start, state)?;
                extra(state)?;
            }
            self.check_turn()?;
            self.check_foreign(rng)?;
            if perft_at == Some(self.line.len()) {
                check_perft(self.start, state, conformance.perft_depth)?;
                summary.perft_positions += 1;
            }
            let action = match state.turn() {
                Turn::Over => break,
                Turn::Chance => {
                    let outcome = state.sample_chance(rng);
                    if !state.outcomes().iter().any(|&(o, p)| o == outcome && p > 0.0) {
                        return Err(format!("sample_chance drew {outcome:?}, which is not a listed outcome"));
                    }
                    summary.chance_events += 1;
                    outcome
                }
                Turn::Player(p) => {
                    let actions = state.actions();
                    let mut drawn_by_game = rng.clone();
                    let action = actions[rng.random_range(0..actions.len())];
                    let fast = state.random_action(&mut drawn_by_game, &mut Vec::new());
                    if fast != action || drawn_by_game != *rng {
                        return Err(format!(
                            "random_action drew {fast:?}, but the same draw from the legal list is {action:?} \
                             (or it used other random numbers)"
                        ));
                    }
                    if state.continues_turn() {
                        summary.continued_decisions += 1;
                    }
                    self.last_decision = Some((p, state.decisions_left_in_turn()));
                    summary.decisions += 1;
                    action
                }
            };
            if self.line.len() == conformance.max_actions {
                return Err(format!("the game did not end within {} actions", conformance.max_actions));
            }
            self.check_played(action)?;
            if !self.foreign.contains(&action) {
                if self.foreign.len() == FOREIGN_POOL {
                    self.foreign.remove(0);
                }
                self.foreign.push(action);
            }
        }
        self.check_replay()?;
        let returns = self.state.returns();
        if returns.as_slice().contains(&1.0) {
            summary.won += 1;
        } else {
            summary.shared += 1;
        }
        summary.actions += self.line.len();
        summary.longest = summary.longest.max(self.line.len());
        Ok(())
    }

    /// A turn that goes on is the same player's as the last decision, and no longer than the
    /// game said it would be.
    fn check_turn(&self) -> Result<(), String> {
        let state = &self.state;
        let Turn::Player(p) = state.turn() else { return Ok(()) };
        let left = state.decisions_left_in_turn();
        // A game checked from a position in mid-turn has no last decision to compare with.
        let Some((last, said)) = self.last_decision else { return Ok(()) };
        if !state.continues_turn() {
            return Ok(());
        }
        if last != p {
            return Err(format!(
                "continues_turn() at player {p}'s decision, but the last decision was player {last}'s"
            ));
        }
        match (said, left) {
            (Some(1), _) => Err("the turn goes on after a decision that had Some(1) decisions left".into()),
            (Some(before), Some(now)) if now >= before => {
                Err(format!("decisions left in the turn went from {before} to {now}"))
            }
            (Some(before), None) => Err(format!("decisions left in the turn went from {before} to unknown")),
            _ => Ok(()),
        }
    }

    /// Actions of earlier positions that are not listed here are illegal, and refused without a
    /// change to the state.
    fn check_foreign(&self, rng: &mut Rng) -> Result<(), String> {
        if self.foreign.is_empty() {
            return Ok(());
        }
        let state = &self.state;
        let listed: HashSet<G::Action> = listed(state).into_iter().collect();
        for _ in 0..FOREIGN_TRIES {
            let action = self.foreign[rng.random_range(0..self.foreign.len())];
            if listed.contains(&action) {
                continue;
            }
            if state.is_legal(action) {
                return Err(format!("is_legal says {action:?} is legal, but it is not listed"));
            }
            let mut played = state.clone();
            if played.play(action).is_ok() {
                return Err(format!("play accepted {action:?}, which is not listed"));
            }
            if played != *state || played.hash_key() != state.hash_key() {
                return Err(format!("play refused {action:?} but changed the state"));
            }
        }
        Ok(())
    }

    /// The action about to be played: legal, spelled as at the start of the game, undone exactly;
    /// then played.
    fn check_played(&mut self, action: G::Action) -> Result<(), String> {
        let state = &self.state;
        if !state.is_legal(action) {
            return Err(format!("is_legal refuses {action:?}, which was listed"));
        }
        // Action text may depend on the options, not the position, so that a line of play prints
        // from where it starts (records, the engine's `pv`, the web's moves).
        let (text, json) = (state.action_to_text(action), state.action_to_json(action));
        let (start_text, start_json) = (self.start.action_to_text(action), self.start.action_to_json(action));
        if text != start_text || json != start_json {
            return Err(format!(
                "{action:?} is spelled '{text}' / {json} here but '{start_text}' / {start_json} at the start"
            ));
        }
        match self.start.parse_action(&text) {
            Ok(back) if back == action => {}
            other => return Err(format!("'{text}' read at the start gives {other:?}, not {action:?}")),
        }
        let mut next = state.clone();
        next.apply(action);
        if G::CAN_UNDO {
            let mut undone = next.clone();
            undone.undo(action);
            same_state(state, &undone).map_err(|e| format!("undo of {action:?}: {e}"))?;
            if undone.actions() != state.actions() || undone.outcomes() != state.outcomes() {
                return Err(format!("undo of {action:?} left other legal actions or outcomes"));
            }
        }
        self.state = next;
        self.line.push(action);
        Ok(())
    }

    /// The line of play, as text from the start, replays to the same end.
    fn check_replay(&self) -> Result<(), String> {
        let mut replay = self.start.clone();
        for (i, &action) in self.line.iter().enumerate() {
            let text = self.start.action_to_text(action);
            replay.play_text(&text).map_err(|e| format!("replaying the game, action {i} '{text}': {e}"))?;
        }
        same_state(&self.state, &replay).map_err(|e| format!("the game replayed from its text: {e}"))
    }
}

/// The moves of the player to move, or the outcomes of the pending chance event.
fn listed<G: Game>(state: &G) -> Vec<G::Action> {
    match state.turn() {
        Turn::Chance => state.outcomes().into_iter().map(|(a, _)| a).collect(),
        _ => state.actions(),
    }
}

/// `other` is `state`: equal, with the same hash and the same text.
fn same_state<G: Game + PartialEq + Debug>(state: &G, other: &G) -> Result<(), String> {
    if other != state {
        return Err(format!("another state: {other:?}"));
    }
    if other.hash_key() != state.hash_key() {
        return Err(format!(
            "an equal state with hash {:?} instead of {:?}",
            other.hash_key(),
            state.hash_key()
        ));
    }
    let (text, other_text) = (state.to_text(), other.to_text());
    if other_text != text {
        return Err(format!("an equal state that prints as '{other_text}'"));
    }
    Ok(())
}

/// What each seat sees, and the worlds re-dealt for it: a re-dealt world looks the same to its
/// seat (observation, turn, the seat's own moves), and re-dealing depends only on what the seat
/// sees — re-dealing a world already re-dealt, with the same generator, gives the same world, so
/// the hidden part of the real state cannot have steered it. Once the game is over every seat
/// sees everything.
pub fn check_observations<G: Game + PartialEq + Debug>(state: &G) -> Result<(), String> {
    let players = state.num_players();
    if state.is_over() {
        for viewer in (0..players).map(Some).chain([None]) {
            if state.observation_text(viewer) != state.to_text() {
                return Err(format!("at the end {viewer:?} does not see the whole state"));
            }
        }
    }
    if !G::HIDDEN_INFORMATION {
        return Ok(());
    }
    for seat in 0..players {
        for seed in 0..3u64 {
            let world = state.resample_hidden(seat, &mut rng_from_seed(seed));
            if world.observation_text(Some(seat)) != state.observation_text(Some(seat))
                || world.observation_json(Some(seat)) != state.observation_json(Some(seat))
            {
                return Err(format!(
                    "seat {seat} can tell a re-dealt world from the real state: '{}' against '{}'",
                    world.observation_text(Some(seat)),
                    state.observation_text(Some(seat))
                ));
            }
            if world.turn() != state.turn()
                || (state.current_player() == Some(seat) && world.actions() != state.actions())
            {
                return Err(format!(
                    "a world re-dealt for seat {seat} changes whose turn it is or its moves"
                ));
            }
            let other = state.resample_hidden(seat, &mut rng_from_seed(seed + 100));
            let again = other.resample_hidden(seat, &mut rng_from_seed(seed));
            if again != world {
                return Err(format!(
                    "re-dealing for seat {seat} depends on more than what it sees: {world:?} and {again:?} from the same generator"
                ));
            }
        }
    }
    Ok(())
}

/// What every position must satisfy, wherever it came from (`template` supplies the options for
/// reading it back):
/// - whoever acts has something to do, and only they: a player has legal actions and no chance
///   outcomes, a chance event has outcomes (positive, summing to 1) and no legal actions, a
///   finished game has neither and returns in [0, 1] summing to 1, one per player;
/// - no action or outcome is listed twice; every one is legal by [`Game::is_legal`], and its text
///   and JSON forms read back to it;
/// - `continues_turn` is false at the end; a player never has 0 decisions left;
/// - the position's text and JSON forms read back to an equal state with the same hash, which
///   prints the same and lists the same actions in the same order (searches from a position read
///   back must be the searches from the position).
pub fn check_position<G: Game + PartialEq + Debug>(template: &G, state: &G) -> Result<(), String> {
    let players = state.num_players();
    if players == 0 || players > MAX_PLAYERS {
        return Err(format!("{players} players"));
    }
    let actions = state.actions();
    let outcomes = state.outcomes();
    match state.turn() {
        Turn::Player(p) => {
            if p >= players {
                return Err(format!("player {p} is to move in a game of {players}"));
            }
            if actions.is_empty() {
                return Err(format!("player {p} is to move but has no legal action"));
            }
            if !outcomes.is_empty() {
                return Err(format!("player {p} is to move but chance outcomes are listed"));
            }
            if state.current_player() != Some(p) || state.is_over() {
                return Err("current_player or is_over disagrees with turn".into());
            }
            if state.decisions_left_in_turn() == Some(0) {
                return Err(format!("player {p} is to move with 0 decisions left in the turn"));
            }
        }
        Turn::Chance => {
            let total: f64 = outcomes.iter().map(|o| o.1).sum();
            if outcomes.is_empty()
                || outcomes.iter().any(|o| o.1.is_nan() || o.1 <= 0.0)
                || (total - 1.0).abs() > EPSILON
            {
                let probabilities: Vec<f64> = outcomes.iter().map(|o| o.1).collect();
                return Err(format!("a chance event has outcomes with probabilities {probabilities:?}"));
            }
            if !actions.is_empty() {
                return Err("a chance event is pending but legal actions are listed".into());
            }
            if state.current_player().is_some() || state.is_over() {
                return Err("current_player or is_over disagrees with turn".into());
            }
        }
        Turn::Over => {
            if !actions.is_empty() || !outcomes.is_empty() {
                return Err("the game is over but actions or outcomes are listed".into());
            }
            let returns = state.returns();
            let scores = returns.as_slice();
            let total: f64 = scores.iter().sum();
            if scores.len() != players || scores.iter().any(|r| !(0.0..=1.0).contains(r)) {
                return Err(format!("returns {scores:?} of a finished game of {players}"));
            }
            if (total - 1.0).abs() > EPSILON {
                return Err(format!("returns {scores:?} of a finished game sum to {total}"));
            }
            if state.continues_turn() {
                return Err("continues_turn() after the end".into());
            }
            if state.current_player().is_some() || !state.is_over() {
                return Err("current_player or is_over disagrees with turn".into());
            }
        }
    }
    check_observations(state)?;
    let listed = listed(state);
    if listed.iter().collect::<HashSet<_>>().len() != listed.len() {
        return Err(format!("an action or outcome is listed twice: {listed:?}"));
    }
    let step = listed.len().div_ceil(SPREAD).max(1);
    for &action in listed.iter().step_by(step) {
        if !state.is_legal(action) {
            return Err(format!("is_legal refuses {action:?}, which is listed"));
        }
        let text = state.action_to_text(action);
        match state.parse_action(&text) {
            Ok(back) if back == action => {}
            other => return Err(format!("{action:?} prints as '{text}', which reads back as {other:?}")),
        }
        let json = state.action_to_json(action);
        match state.action_from_json(&json) {
            Ok(back) if back == action => {}
            other => return Err(format!("{action:?} prints as JSON {json}, which reads back as {other:?}")),
        }
    }
    let text = state.to_text();
    let back = template.parse_state(&text).map_err(|e| format!("its own text is refused: {e}"))?;
    same_reading(state, &back).map_err(|e| format!("its text reads back as {e}"))?;
    let json = state.to_json();
    let back = template.state_from_json(&json).map_err(|e| format!("its own JSON {json} is refused: {e}"))?;
    same_reading(state, &back).map_err(|e| format!("its JSON {json} reads back as {e}"))?;
    if back.to_json() != json {
        return Err(format!("its JSON {json} reads back as a state whose JSON is {}", back.to_json()));
    }
    Ok(())
}

/// A state read back from `state`'s notation is `state` in every way search can see.
fn same_reading<G: Game + PartialEq + Debug>(state: &G, back: &G) -> Result<(), String> {
    same_state(state, back)?;
    if back.turn() != state.turn()
        || back.continues_turn() != state.continues_turn()
        || back.decisions_left_in_turn() != state.decisions_left_in_turn()
    {
        return Err("a state with another turn, continues_turn or decisions_left_in_turn".into());
    }
    if back.actions() != state.actions() || back.outcomes() != state.outcomes() {
        return Err("a state that lists other actions or outcomes, or in another order".into());
    }
    Ok(())
}

/// Move-path counts of `state` to `depth` agree however they are counted: by cloning, by apply
/// and undo (when the game can undo), and from the position read back from its text and JSON
/// (which would differ if the notation lost something equality does not look at).
pub fn check_perft<G: Game + PartialEq + Debug>(template: &G, state: &G, depth: u32) -> Result<(), String> {
    let counted = perft(state, depth);
    if G::CAN_UNDO {
        let mut scratch = state.clone();
        let by_undo = perft_by_undo(&mut scratch, depth);
        if by_undo != counted {
            return Err(format!("perft {depth} is {counted} by cloning but {by_undo} by apply and undo"));
        }
    }
    let from_text = template.parse_state(&state.to_text()).map(|s| perft(&s, depth));
    let from_json = template.state_from_json(&state.to_json()).map(|s| perft(&s, depth));
    if from_text != Ok(counted) || from_json != Ok(counted) {
        return Err(format!(
            "perft {depth} is {counted}, but {from_text:?} from its text and {from_json:?} from its JSON"
        ));
    }
    Ok(())
}

/// [`perft`] by apply and undo on one state, as search walks the tree when it can.
fn perft_by_undo<G: Game>(state: &mut G, depth: u32) -> u64 {
    if depth == 0 || state.is_over() {
        return 1;
    }
    let mut total = 0;
    for action in listed(state) {
        state.apply(action);
        total += perft_by_undo(state, depth - 1);
        state.undo(action);
    }
    total
}

#[cfg(test)]
mod tests;

//! Judging played games: how much winning chance each decision gave away, against the best move.
//!
//! A move's value is the mover's chance of winning after it: exact ([`ply_einstein::solve`]) once few
//! cubes are left, otherwise an estimate that looks `depth` rolls ahead by expectimax and then asks
//! the value network. A decision's regret is the best move's value minus the chosen one's.
//!
//! Why this measures what a player could score: along a game, the winning chance with best play
//! changes only by dice (zero on average) and by mistakes. So a player's expected score is its
//! winning chance at the start, plus what its opponent gives away, minus what it gives away itself.
//! With exact values this is an identity; with estimates it is checked by comparing the prediction
//! with the games' actual scores ([`GameJudgement::predicted_score`]).

use std::collections::HashMap;
use std::sync::Arc;

use ply_core::Game;

use ply_einstein::solve::{self, Solver};
use ply_einstein::value::features::Features;
use ply_einstein::value::net::ValueNet;
use ply_einstein::{Action, Einstein, Phase};

/// Values positions and moves: exact with at most `exact_cubes` cubes left, else estimated.
pub struct Judge {
    net: Arc<ValueNet>,
    solver: Solver,
    exact_cubes: u32,
    depth: u32,
    estimates: HashMap<(u128, u32), f64>,
}

fn cubes(state: &Einstein) -> u32 {
    state.cubes_left(0) + state.cubes_left(1)
}

impl Judge {
    /// With `exact_cubes` 4 a game takes about a twentieth of a second, with 5 several seconds
    /// and a few hundred MB. `depth` 0 takes the network's value of the position after a move;
    /// each further roll multiplies the work by about 20.
    pub fn new(net: Arc<ValueNet>, exact_cubes: u32, depth: u32) -> Self {
        Judge { net, solver: Solver::new(), exact_cubes, depth, estimates: HashMap::new() }
    }

    /// Forgets the positions valued so far. Games rarely share positions (their arrangements
    /// differ), so forgetting between games bounds the memory at little cost.
    pub fn forget(&mut self) {
        self.solver = Solver::new();
        self.estimates.clear();
    }

    /// The chance that the side about to roll wins.
    pub fn roll_value(&mut self, state: &Einstein) -> f64 {
        self.roll_value_at(state, self.depth)
    }

    fn roll_value_at(&mut self, state: &Einstein, depth: u32) -> f64 {
        debug_assert_eq!(state.phase(), Phase::Roll);
        if cubes(state) <= self.exact_cubes {
            return self.solver.roll_value(state);
        }
        if depth == 0 {
            return self.net.value(&Features::of(state)) as f64;
        }
        let key = (solve::key(state), depth);
        if let Some(&v) = self.estimates.get(&key) {
            return v;
        }
        let mut total = 0.0;
        for die in 1..=6 {
            let mut rolled = state.clone();
            rolled.apply(Action::Roll(die));
            let moves = rolled.actions();
            total += moves.into_iter().map(|m| self.after_move(&rolled, m, depth - 1)).fold(0.0, f64::max);
        }
        let v = total / 6.0;
        self.estimates.insert(key, v);
        v
    }

    /// The mover's chance after `action`, its opponent then looking `depth` rolls ahead.
    fn after_move(&mut self, state: &Einstein, action: Action, depth: u32) -> f64 {
        if state.is_winning_move(action) {
            return 1.0;
        }
        let mut after = state.clone();
        after.apply(action);
        1.0 - self.roll_value_at(&after, depth)
    }

    /// Every move of a rolled position with the mover's winning chance after it, and whether
    /// those chances are exact.
    pub fn move_values(&mut self, state: &Einstein) -> (Vec<(Action, f64)>, bool) {
        debug_assert!(matches!(state.phase(), Phase::Move(_)));
        let exact = cubes(state) <= self.exact_cubes;
        let values =
            state.actions().into_iter().map(|m| (m, self.after_move(state, m, self.depth))).collect();
        (values, exact)
    }
}

/// What one side gave away in one game, summed over its decisions with more than one move.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideJudgement {
    /// Decisions judged.
    pub decisions: u32,
    /// Decisions where the move played was not (one of) the best.
    pub mistakes: u32,
    /// Winning chance given away where the values were exact.
    pub exact_regret: f64,
    /// Winning chance given away where the values were estimated.
    pub estimated_regret: f64,
}

impl SideJudgement {
    pub fn regret(&self) -> f64 {
        self.exact_regret + self.estimated_regret
    }
}

/// One decision judged: the move played and the best one, with the mover's chances after them.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The action's index in the game's actions.
    pub index: usize,
    /// The position before the move (its die rolled).
    pub position: Einstein,
    pub played: (Action, f64),
    pub best: (Action, f64),
    pub exact: bool,
}

impl Decision {
    pub fn regret(&self) -> f64 {
        self.best.1 - self.played.1
    }
}

/// One game judged, by side (red 0, blue 1).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameJudgement {
    /// Each side's winning chance when the first die of the game is about to be rolled.
    pub start: [f64; 2],
    pub sides: [SideJudgement; 2],
    /// Every decision with more than one move, in game order.
    pub decisions: Vec<Decision>,
}

impl GameJudgement {
    /// What `side` should score by the values: its start, plus what the other side gave away,
    /// minus what it gave away.
    pub fn predicted_score(&self, side: usize) -> f64 {
        self.start[side] + self.sides[1 - side].regret() - self.sides[side].regret()
    }

    /// What best play in `side`'s place would score against the other side's mistakes, as
    /// estimated on this game's positions.
    pub fn best_play_score(&self, side: usize) -> f64 {
        self.start[side] + self.sides[1 - side].regret()
    }
}

/// A move gap below this counts as a tie (estimates and solved values are f32 or sums of them).
const TIE: f64 = 1e-6;

/// Judges a single game (not a match) given as its actions from `start`, which must be the
/// position before them. The actions must be legal; the caller replays text records first.
pub fn judge_game(judge: &mut Judge, start: &Einstein, actions: &[Action]) -> GameJudgement {
    let mut judgement = GameJudgement::default();
    let mut state = start.clone();
    let mut started = false;
    for (index, &action) in actions.iter().enumerate() {
        match state.phase() {
            Phase::Roll if !started => {
                started = true;
                let roller = state.side() as usize;
                let v = judge.roll_value(&state);
                judgement.start[roller] = v;
                judgement.start[1 - roller] = 1.0 - v;
            }
            Phase::Move(_) if state.actions().len() > 1 => {
                let (values, exact) = judge.move_values(&state);
                // The first of equal bests.
                let best = values.iter().copied().fold(values[0], |b, m| if m.1 > b.1 { m } else { b });
                let played = *values.iter().find(|m| m.0 == action).expect("the actions are legal");
                let side = &mut judgement.sides[state.side() as usize];
                side.decisions += 1;
                let regret = best.1 - played.1;
                judgement.decisions.push(Decision { index, position: state.clone(), played, best, exact });
                if regret > TIE {
                    side.mistakes += 1;
                }
                if exact {
                    side.exact_regret += regret;
                } else {
                    side.estimated_regret += regret;
                }
            }
            _ => {}
        }
        state.apply(action);
    }
    judgement
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::GameDef;
    use ply_einstein::value::shipped;

    fn position(text: &str) -> Einstein {
        Einstein::new_from_text_options("").unwrap().parse_state(text).unwrap()
    }

    #[test]
    fn exact_values_agree_with_the_solver_and_estimates_with_the_network() {
        let late = position("....r3/...r5./..b6r6./.b5.../..... red 5 0-0");
        let mut judge = Judge::new(shipped(), 5, 2);
        let (values, exact) = judge.move_values(&late);
        assert!(exact);
        let solved = Solver::new().move_values(&late);
        assert_eq!(values, solved);

        let mut shallow = Judge::new(shipped(), 0, 0);
        let (values, exact) = shallow.move_values(&late);
        assert!(!exact);
        for (action, value) in values {
            if late.is_winning_move(action) {
                assert_eq!(value, 1.0);
            } else {
                let mut after = late.clone();
                after.apply(action);
                let net = shipped().value(&Features::of(&after)) as f64;
                assert!((value - (1.0 - net)).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn a_deeper_estimate_is_the_average_over_dice_of_the_best_replies() {
        let middle = position("r1.r3../..r5r2./r6..b6./.r4.b5b4/..b3.b1 blue 2 0-0");
        // After blue's move, red is about to roll.
        let mut roll = middle.clone();
        roll.apply(middle.actions()[0]);
        let mut deep = Judge::new(shipped(), 0, 1);
        let mut flat = Judge::new(shipped(), 0, 0);
        let mut expected = 0.0;
        for die in 1..=6 {
            let mut rolled = roll.clone();
            rolled.apply(Action::Roll(die));
            let (values, _) = flat.move_values(&rolled);
            expected += values.iter().map(|m| m.1).fold(0.0, f64::max) / 6.0;
        }
        assert!((deep.roll_value(&roll) - expected).abs() < 1e-12);
    }

    /// With exact values, a side's score is its start plus the other's regret minus its own, on
    /// average over the dice: random play from a small endgame checks the bookkeeping (which side
    /// a regret belongs to, and its sign) against the games' results.
    #[test]
    fn exact_regrets_predict_the_scores_of_random_play() {
        use ply_core::rng::rng_from_seed;
        use rand::RngExt;
        let mut start = position("....r3/...r5./..b6r6./.b5.../..... red 5 0-0");
        start.apply(start.actions()[0]);
        assert_eq!(start.phase(), Phase::Roll);
        let mut judge = Judge::new(shipped(), 5, 0);
        let mut rng = rng_from_seed(3);
        let games = 4000;
        let (mut gap, mut regrets) = (0.0, 0.0);
        for _ in 0..games {
            let mut state = start.clone();
            let mut actions = Vec::new();
            while state.phase() != Phase::Over {
                let action = match state.phase() {
                    Phase::Move(_) => {
                        let moves = state.actions();
                        moves[rng.random_range(0..moves.len())]
                    }
                    _ => state.sample_chance(&mut rng),
                };
                actions.push(action);
                state.apply(action);
            }
            let judged = judge_game(&mut judge, &start, &actions);
            assert!(judged.sides.iter().all(|s| s.estimated_regret == 0.0 && s.exact_regret >= 0.0));
            regrets += judged.sides[0].regret() + judged.sides[1].regret();
            gap += state.returns().get(0) - judged.predicted_score(0);
        }
        // Random play gives a lot away, so the test has something to account for.
        assert!(regrets / games as f64 > 0.2, "{}", regrets / games as f64);
        let mean_gap = gap / games as f64;
        assert!(mean_gap.abs() < 4.0 * 0.5 / (games as f64).sqrt(), "{mean_gap}");
    }

    #[test]
    fn best_moves_give_nothing_away() {
        let start = position("....r3/...r5./..b6r6./.b5.../..... red 5 0-0");
        let mut judge = Judge::new(shipped(), 5, 0);
        let mut solver = Solver::new();
        let mut rng = ply_core::rng::rng_from_seed(5);
        for _ in 0..50 {
            let mut state = start.clone();
            let mut actions = Vec::new();
            while state.phase() != Phase::Over {
                let action = match state.phase() {
                    Phase::Move(_) => {
                        let values = solver.move_values(&state);
                        let best = values.iter().map(|m| m.1).fold(0.0, f64::max);
                        values.iter().find(|m| m.1 == best).unwrap().0
                    }
                    _ => state.sample_chance(&mut rng),
                };
                actions.push(action);
                state.apply(action);
            }
            let judged = judge_game(&mut judge, &start, &actions);
            assert_eq!(judged.sides[0].mistakes + judged.sides[1].mistakes, 0);
            assert!(judged.sides.iter().all(|s| s.regret().abs() < 1e-9));
        }
    }
}

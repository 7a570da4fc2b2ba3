//! The learnt evaluation and the exact endgame solver: hand-worked endgames, the solver against
//! the race evaluation where the sides cannot meet, the shipped network against exact play, and
//! the agents that use the network.

use ply_core::rng::rng_from_seed;
use ply_core::{AgentSpec, Game, GameDef, Limits};
use ply_einstein::solve::Solver;
use ply_einstein::value::{NetEval, best_move, shipped};
use ply_einstein::{Action, Einstein, Options, Phase, race_win_probability};
use rand::RngExt;
use rand::seq::SliceRandom;

fn at(text: &str) -> Einstein {
    Einstein::new(Options::default()).parse_state(text).unwrap()
}

#[test]
fn hand_worked_endgames() {
    let mut solver = Solver::new();
    // Red's cube 1 is a step from its corner and moves on every die but 6 (on 2-5 red may move
    // cube 1 or cube 6); blue's lone cube is a step from its corner and out of cube 6's way.
    let state = at("...../.b1.../...../r6..r1./..... red roll 0-0");
    assert!((solver.roll_value(&state) - 5.0 / 6.0).abs() < 1e-6);
    // The die is known: a 6 moves cube 6, which cannot win, and blue then wins.
    let mut six = state.clone();
    six.apply(Action::Roll(6));
    let best = solver.move_values(&six).into_iter().map(|m| m.1).fold(0.0, f64::max);
    assert!(best.abs() < 1e-6);
    // One cube each, two steps from their corners and unable to meet: every die moves the only
    // cube, so whoever rolls first wins.
    assert_eq!(solver.roll_value(&at("...../...../b1...r1/...../..... red roll 0-0")), 1.0);
    assert_eq!(solver.roll_value(&at("...../...../b1...r1/...../..... blue roll 0-0")), 1.0);
    // Blue's lone cube stands a step east of red's: blue takes red's last cube whatever it rolls.
    assert_eq!(solver.roll_value(&at("...../...../...../...r1b1/..... blue roll 0-0")), 1.0);
}

/// Whether no cube of one side can ever reach a square a cube of the other side can reach: red
/// moves down and right, blue up and left.
fn sides_cannot_meet(state: &Einstein) -> bool {
    let cubes = |side: u8| (1..=6).filter_map(move |c| state.cube_square(side, c));
    cubes(0).all(|r| cubes(1).all(|b| r / 5 > b / 5 || r % 5 > b % 5))
}

/// A random position with the given numbers of cubes, red to roll (`None` if it is not a legal
/// position, a cube on its own goal corner say).
fn random_position(rng: &mut ply_core::Rng, reds: usize, blues: usize) -> Option<Einstein> {
    let mut squares: Vec<usize> = (0..25).collect();
    squares.shuffle(rng);
    let mut cells = vec![String::from("."); 25];
    let mut free = squares.into_iter();
    for (side, count) in [('r', reds), ('b', blues)] {
        let mut numbers = [1, 2, 3, 4, 5, 6];
        numbers.shuffle(rng);
        for &cube in &numbers[..count] {
            cells[free.next().unwrap()] = format!("{side}{cube}");
        }
    }
    let board: Vec<String> = cells.chunks(5).map(|row| row.concat()).collect();
    Einstein::new(Options::default()).parse_state(&format!("{} red roll 0-0", board.join("/"))).ok()
}

#[test]
fn a_lone_cube_each_that_cannot_meet_races_as_the_race_evaluation_says() {
    // Every die moves the only cube: the game is the race, decided by distances and who rolls.
    let mut rng = rng_from_seed(11);
    let mut solver = Solver::new();
    let mut compared = 0;
    while compared < 100 {
        let Some(state) = random_position(&mut rng, 1, 1) else { continue };
        if !sides_cannot_meet(&state) {
            continue;
        }
        let (exact, race) = (solver.roll_value(&state), race_win_probability(&state, 0));
        assert!((exact - race).abs() < 1e-5, "{}: exact {exact}, race {race}", state.to_text());
        compared += 1;
    }
}

#[test]
fn exact_values_are_what_exact_play_scores() {
    // Both sides play the solver's best moves from random two-against-two positions; the share
    // of games red wins must match the value the solver gave the position.
    let mut rng = rng_from_seed(12);
    let mut solver = Solver::new();
    let mut positions = 0;
    while positions < 6 {
        let Some(start) = random_position(&mut rng, 2, 2) else { continue };
        let value = solver.roll_value(&start);
        let games = 3000;
        let mut red_wins = 0;
        for _ in 0..games {
            let mut state = start.clone();
            while state.phase() != Phase::Over {
                let action = match state.phase() {
                    Phase::Move(_) => {
                        let moves = solver.move_values(&state);
                        moves.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap().0
                    }
                    _ => state.sample_chance(&mut rng),
                };
                state.apply(action);
            }
            red_wins += usize::from(state.returns().get(0) > 0.5);
        }
        let share = red_wins as f64 / games as f64;
        let sigma = (value * (1.0 - value) / games as f64).sqrt().max(1e-3);
        assert!(
            (share - value).abs() < 4.5 * sigma,
            "{}: value {value:.4}, exact play won {share:.4}",
            start.to_text()
        );
        positions += 1;
    }
}

/// Mean winning chance an endgame decision gives away against exact play, over decisions with
/// at most four cubes on the board, choosing by the shipped network or by the race.
fn endgame_losses(games: usize) -> (f64, f64, usize) {
    let net = shipped();
    let mut rng = rng_from_seed(5);
    let mut solver = Solver::new();
    let (mut net_loss, mut race_loss, mut decisions) = (0.0, 0.0, 0);
    for _ in 0..games {
        let mut state = Einstein::new(Options::default());
        while state.phase() != Phase::Over {
            let action = match state.phase() {
                Phase::Move(_) => {
                    let moves = state.actions();
                    let after = |a: Action| {
                        let mut s = state.clone();
                        s.apply(a);
                        s
                    };
                    let by_race = |a: Action| {
                        if state.is_winning_move(a) {
                            1.0
                        } else {
                            race_win_probability(&after(a), state.side() as usize)
                        }
                    };
                    let net_move = best_move(&net, &state, &moves).0;
                    if state.cubes_left(0) + state.cubes_left(1) <= 4 && moves.len() > 1 {
                        let exact = solver.move_values(&state);
                        let value = |a: Action| exact.iter().find(|m| m.0 == a).unwrap().1;
                        let best = exact.iter().map(|m| m.1).fold(0.0, f64::max);
                        net_loss += best - value(net_move);
                        race_loss += best
                            - value(
                                *moves.iter().max_by(|&&a, &&b| by_race(a).total_cmp(&by_race(b))).unwrap(),
                            );
                        decisions += 1;
                    }
                    // Some random moves, so that the games reach varied endgames.
                    if rng.random_range(0..8) == 0 {
                        moves[rng.random_range(0..moves.len())]
                    } else {
                        net_move
                    }
                }
                _ => state.sample_chance(&mut rng),
            };
            state.apply(action);
        }
    }
    (net_loss / decisions as f64, race_loss / decisions as f64, decisions)
}

#[test]
fn the_shipped_network_plays_endgames_nearly_exactly() {
    // Measured when the network was trained: about 0.003 for the network, 0.03 for the race.
    let (net, race, decisions) = endgame_losses(400);
    assert!(decisions > 300, "only {decisions} endgame decisions");
    assert!(net < 0.01, "the network gives away {net:.4} per endgame decision");
    assert!(net < race / 3.0, "network {net:.4} against race {race:.4}");
}

#[test]
fn a_rolled_position_is_worth_its_best_move() {
    let eval = NetEval::new(shipped());
    let state = at("r1r2r3../r4r5.../r6...b6/...b5b4/..b3b2b1 red 3 0-0");
    let best = state
        .actions()
        .into_iter()
        .map(|a| {
            let mut after = state.clone();
            after.apply(a);
            1.0 - eval.side_to_act_wins(&after)
        })
        .fold(0.0, f64::max);
    assert!((eval.side_to_act_wins(&state) - best).abs() < 1e-9);
    // A move that wins is worth a win whatever the network says.
    let winning = at("...../...../..b6../...r1./..... red 4 0-0");
    assert_eq!(eval.side_to_act_wins(&winning), 1.0);
    // Both players' views agree.
    let rolled = at("r1.r3../..r5r2./r6..b6./.r4.b5b4/..b3.b1 blue roll 0-0");
    use ply_search::Evaluator;
    assert!((eval.evaluate(&rolled, 0) + eval.evaluate(&rolled, 1)).abs() < 1e-9);
}

fn build(spec: &str) -> Result<ply_core::BuiltAgent<Einstein>, ply_core::Error> {
    Einstein::build_agent(&AgentSpec::parse(spec)?, 3)
}

#[test]
fn agents_use_the_network_and_refuse_bad_ones() {
    let state = at("r1.r3../..r5r2./r6..b6./.r4.b5b4/..b3.b1 blue 2 0-0");
    for spec in ["expectimax:depth=3", "mcts:policy=net,iters=300", "mcts:eval=net,rollout=0,iters=300"] {
        let mut built = build(spec).unwrap();
        let limits = Limits::new(built.budget.or(ply_core::Budget::iterations(100_000)));
        let action = built.agent.choose(&state, &limits, &mut |_| {}).action;
        assert!(state.actions().contains(&action), "{spec}");
    }
    let missing = build("expectimax:eval=net,net=/no/such/network").err().unwrap().to_string();
    assert!(missing.contains("/no/such/network"), "{missing}");
    let dir = std::env::temp_dir().join(format!("ply-bad-net-{}", std::process::id()));
    std::fs::write(&dir, b"PLYEWNV1 and then nonsense").unwrap();
    let bad = build(&format!("expectimax:eval=net,net={}", dir.display())).err().unwrap().to_string();
    std::fs::remove_file(&dir).ok();
    assert!(bad.contains("not an EinStein value network"), "{bad}");
    if std::path::Path::new("/dev/zero").exists() {
        let endless = build("expectimax:net=/dev/zero").err().unwrap().to_string();
        assert!(endless.contains("larger than"), "{endless}");
    }
}

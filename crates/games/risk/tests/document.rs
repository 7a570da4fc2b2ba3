//! The document's AI (docs/risk-minimax.md): its draft rule worked out by hand, the rules of its
//! prediction tree, the generic alpha-beta against plain minimax on that tree, and the real-game
//! agent's moves over whole random games.

use std::sync::Arc;

use ply_core::rng::{Rng, rng_from_seed};
use ply_core::{Agent, AgentSpec, Game, GameDef, Limits, Turn};
use ply_risk::document::draft::{allocation, nbsr, reinforcements};
use ply_risk::document::{DocumentEval, MinimaxConfig, Move, Prediction, battle};
use ply_risk::{Map, NEUTRAL, Phase, Risk, RiskAction};
use ply_search::minimax::expectiminimax_in;
use ply_search::value::{DepthUnit, EvalScale};
use rand::RngExt;

/// Two rows of three, in two continents:
///
/// ```text
///   a — b — c        west: a, d (bonus 2)
///   |   |   |        east: b, c, e, f (bonus 3)
///   d — e — f
/// ```
const SQUARE: &str = r#"{
  "name": "square",
  "continents": [{"name": "west", "bonus": 2}, {"name": "east", "bonus": 3}],
  "territories": [
    {"name": "a", "continent": "west", "neighbours": ["b", "d"]},
    {"name": "b", "continent": "east", "neighbours": ["a", "c", "e"]},
    {"name": "c", "continent": "east", "neighbours": ["b", "f"]},
    {"name": "d", "continent": "west", "neighbours": ["a", "e"]},
    {"name": "e", "continent": "east", "neighbours": ["b", "d", "f"]},
    {"name": "f", "continent": "east", "neighbours": ["c", "e"]}
  ]
}"#;
const A: usize = 0;
const B: usize = 1;
const C: usize = 2;
const D: usize = 3;
const E: usize = 4;
const F: usize = 5;

fn square() -> Arc<Map> {
    Arc::new(Map::from_json_text(SQUARE).unwrap())
}

fn rounded(shares: Vec<(usize, f64)>) -> Vec<(usize, f64)> {
    shares.into_iter().map(|(t, s)| (t, (s * 1e9).round() / 1e9)).collect()
}

#[test]
fn nbsr_draft_worked_by_hand() {
    let map = square();
    //   a 0:2   b 0:4   c 1:3
    //   d 0:1   e 1:5   f 1:2
    let owner = [0, 0, 1, 0, 1, 1];
    let armies = [2, 4, 3, 1, 5, 2];
    // Seat 0. BST: a 0 (no enemy neighbour), b 3 + 5 = 8, d 5. BSR: a 0, b 8/4 = 2, d 5/1 = 5.
    // Three territories: the median is the 2nd largest, 2; a (0) falls below it and is cut.
    // NBSR: d 5/7, b 2/7. Reinforcements: 3 territories give 3, the west (a, d) 2 more: 5.
    // Shares 25/7 = 3.57 and 10/7 = 1.43: 3 and 1, the one left over to d: d 4, b 1.
    assert_eq!(rounded(nbsr(&map, &owner, &armies, 0)), rounded(vec![(D, 5.0 / 7.0), (B, 2.0 / 7.0)]));
    assert_eq!(reinforcements(&map, 0b001011), 5);
    assert_eq!(allocation(&map, &owner, &armies, 0, 5), vec![(D, 4), (B, 1)]);
    // The tree places exactly that when seat 0's turn begins.
    let start = Prediction::at_turn_start(map.clone(), 2, &owner, &armies, 0, 3);
    assert_eq!((0..6).map(|t| start.armies(t)).collect::<Vec<_>>(), [2, 5, 3, 5, 5, 2]);
    // Seat 1. BST: c 4 (b), e 4 + 1 = 5 (b, d), f 0. BSR: c 4/3, e 5/5 = 1, f 0. Median 1: f cut.
    // NBSR: c (4/3)/(7/3) = 4/7, e 3/7. Reinforcements 3 (no whole continent). Shares 12/7 = 1.71
    // and 9/7 = 1.29: 1 and 1, the one left to c: c 2, e 1.
    assert_eq!(rounded(nbsr(&map, &owner, &armies, 1)), rounded(vec![(C, 4.0 / 7.0), (E, 3.0 / 7.0)]));
    assert_eq!(reinforcements(&map, 0b110100), 3);
    assert_eq!(allocation(&map, &owner, &armies, 1, 3), vec![(C, 2), (E, 1)]);
}

#[test]
fn nbsr_keeps_ties_at_the_median_and_breaks_remainders_by_index() {
    let map = square();
    //   a 1:2   b 0:2   c 1:2
    //   d 1:2   e 0:2   f 1:2
    let owner = [1, 0, 1, 1, 0, 1];
    let armies = [2; 6];
    // Seat 0: b faces a and c (4 armies), e faces d and f (4): BSR 2 each. Two territories: the
    // median is the largest, 2, and both keep a share (ties are kept): NBSR 1/2 each.
    // 3 armies (two territories give the minimum): 1.5 each, floors 1 and 1, the one left over
    // to the highest NBSR, the tie to the lower index, b: b 2, e 1.
    assert_eq!(nbsr(&map, &owner, &armies, 0), vec![(B, 0.5), (E, 0.5)]);
    assert_eq!(allocation(&map, &owner, &armies, 0, 3), vec![(B, 2), (E, 1)]);
    // Seat 1 holds the west whole: 3 + 2. BST: a 2 (b), c 2 (b), d 2 (e), f 2 (e), all BSR 1:
    // every one is at the median. 5/4 = 1.25 each, one left over, to a.
    assert_eq!(allocation(&map, &owner, &armies, 1, 5), vec![(A, 2), (C, 1), (D, 1), (F, 1)]);
    // With no enemy in sight the whole draft goes to the first territory.
    let alone = [0; 6];
    assert_eq!(allocation(&map, &alone, &armies, 0, 4), vec![(A, 4)]);
}

#[test]
fn reinforcements_match_the_real_game() {
    let mut rng = rng_from_seed(5);
    for _ in 0..50 {
        let state = random_real_position(&mut rng, 3);
        for seat in 0..3 {
            let held = state.territories_of(seat as u8);
            assert_eq!(reinforcements(state.map(), held), state.reinforcements(seat));
        }
    }
}

#[test]
fn battles_send_half_the_armies_rounded_up_and_never_the_last() {
    // (A, D) -> (sent, left home, on the attacked territory, conquered)
    assert_eq!(battle(5, 2), (4, 1, 2, true)); // ⌈7/2⌉ = 4 > 2: 2 survive and move in
    assert_eq!(battle(6, 2), (4, 2, 2, true));
    assert_eq!(battle(7, 3), (5, 2, 2, true));
    assert_eq!(battle(10, 1), (6, 4, 5, true)); // ⌈11/2⌉ = 6
    assert_eq!(battle(3, 1), (2, 1, 1, true));
    // A = D + 1: ⌈(2D + 1)/2⌉ = D + 1 = A would empty the territory; one stays, so D are sent,
    // the tie goes to the defender: the D sent are lost and the defender loses D - 1.
    assert_eq!(battle(2, 1), (1, 1, 1, false));
    assert_eq!(battle(4, 3), (3, 1, 1, false));
}

#[test]
fn attacks_only_from_one_army_more_than_the_defender() {
    let map = square();
    //   a 0:3   b 1:2   c 1:5
    //   d 0:2   e 1:2   f 0:6
    let owner = [0, 1, 1, 0, 1, 0];
    let armies = [3, 2, 5, 2, 2, 6];
    let state = Prediction::at_attack(map.clone(), 2, &owner, &armies, 0, 3, 3);
    let name = |m: Move| state.action_to_text(m);
    let moves: Vec<String> = state.actions().into_iter().map(name).collect();
    // a (3) may attack b (2); d (2) may not attack e (2); f (6) may attack c (5) and e (2).
    assert_eq!(moves, ["attack a b", "attack f c", "attack f e", "end-turn"]);
    for from in 0..6 {
        for to in 0..6 {
            let listed = state.actions().contains(&Move::Attack { from: from as u8, to: to as u8 });
            let rule = owner[from] == 0
                && owner[to] != 0
                && map.territories[from].neighbours.contains(&to)
                && armies[from] > armies[to];
            assert_eq!(listed, rule, "{from} -> {to}");
            assert_eq!(state.may_attack(from, to), rule);
        }
    }
}

#[test]
fn a_turn_is_up_to_three_deterministic_attacks_then_the_next_draft() {
    let map = square();
    //   a 0:9   b 1:1   c 1:1
    //   d 0:1   e 1:1   f 1:1
    let owner = [0, 1, 1, 0, 1, 1];
    let armies = [9, 1, 1, 1, 1, 1];
    let mut state = Prediction::at_attack(map.clone(), 2, &owner, &armies, 0, 3, 3);
    assert!(!state.continues_turn());
    let attack = |from, to| Move::Attack { from: from as u8, to: to as u8 };
    // a 9 -> b 1: ⌈10/2⌉ = 5 sent, 4 survive in b, a keeps 4.
    state.apply(attack(A, B));
    assert_eq!((state.owner(B), state.armies(B), state.armies(A)), (0, 4, 4));
    assert!(state.continues_turn() && state.mover() == 0 && state.attacks_left() == 2);
    // b 4 -> c 1: 3 sent, 2 survive, b keeps 1.
    state.apply(attack(B, C));
    assert_eq!((state.owner(C), state.armies(C), state.armies(B)), (0, 2, 1));
    // The same again with the same result: the tree has no dice.
    let again = {
        let mut s = Prediction::at_attack(map.clone(), 2, &owner, &armies, 0, 3, 3);
        s.apply(attack(A, B));
        s.apply(attack(B, C));
        s
    };
    assert_eq!(again, state);
    // Left: a 0:4, b 0:1, c 0:2, d 0:1, e 1:1, f 1:1. The one attack left is c 2 -> f 1, and it
    // fails (A = D + 1): c keeps 1, f keeps 1.
    let moves = state.actions();
    assert_eq!(moves, vec![attack(C, F), Move::EndTurn]);
    state.apply(attack(C, F));
    assert_eq!((state.owner(F), state.armies(F), state.armies(C)), (1, 1, 1));
    // That was the third attack: the turn ends by itself and seat 1 drafts at once. Two
    // territories give 3 armies. BST: e 1 + 1 (b, d), f 1 (c); BSR e 2, f 1; the median of two
    // is the larger, so f is cut and e gets all 3.
    assert_eq!(state.mover(), 1);
    assert!(!state.continues_turn() && state.attacks_left() == 3);
    assert_eq!((state.armies(E), state.armies(F)), (4, 1));
    // Zero attacks is a turn too: ending at once passes the turn, with seat 0's draft: four
    // territories give 3, the west 2 more.
    state.apply(Move::EndTurn);
    assert_eq!(state.mover(), 0);
    let total: u16 = (0..6).map(|t| state.armies(t)).sum();
    assert_eq!(total, 4 + 1 + 1 + 1 + 4 + 1 + 5);
}

#[test]
fn attacks_per_turn_is_a_setting() {
    let map = square();
    let owner = [0, 1, 1, 0, 1, 1];
    let armies = [30, 1, 1, 1, 1, 1];
    let mut state = Prediction::at_attack(map, 2, &owner, &armies, 0, 1, 1);
    state.apply(Move::Attack { from: A as u8, to: B as u8 });
    assert_eq!(state.mover(), 1, "one attack a turn: the first ends it");
}

#[test]
fn eliminating_the_last_opponent_ends_the_tree() {
    let map = square();
    let owner = [0, 0, 0, 0, 0, 1];
    let armies = [1, 1, 9, 1, 1, 1];
    let mut state = Prediction::at_attack(map, 3, &owner, &armies, 0, 3, 3);
    assert_eq!(state.turn(), Turn::Player(0), "seat 2 is out already, seat 1 is not");
    state.apply(Move::Attack { from: C as u8, to: F as u8 });
    assert_eq!(state.turn(), Turn::Over);
    assert_eq!(state.returns().as_slice(), &[1.0, 0.0, 0.0]);
}

#[test]
fn notation_round_trips() {
    let mut rng = rng_from_seed(11);
    for _ in 0..30 {
        let state = random_prediction(&mut rng, 3);
        let text = state.to_text();
        assert_eq!(state.parse_state(&text).unwrap(), state, "{text}");
        assert_eq!(state.state_from_json(&state.to_json()).unwrap(), state);
        for m in state.actions() {
            assert_eq!(state.parse_action(&state.action_to_text(m)).unwrap(), m);
        }
    }
    let state = random_prediction(&mut rng, 2);
    assert!(state.parse_state("turn 0 attacks 3 acted no\na 0 1").is_err(), "a territory missing");
    assert!(state.parse_action("attack a z").is_err());
}

/// A position on the square map with every seat holding something, a neutral territory now and
/// then, 1-6 armies each, some attacks already made.
fn random_prediction(rng: &mut Rng, players: usize) -> Prediction {
    let mut owner = [0u8; 6];
    loop {
        for o in &mut owner {
            *o = if players == 2 && rng.random_range(0..6) == 0 {
                NEUTRAL
            } else {
                rng.random_range(0..players) as u8
            };
        }
        if (0..players).all(|p| owner.contains(&(p as u8))) {
            break;
        }
    }
    let armies: Vec<u16> = (0..6).map(|_| rng.random_range(1..=6)).collect();
    let mover = rng.random_range(0..players);
    Prediction::at_attack(square(), players, &owner, &armies, mover, rng.random_range(1..=3), 3)
}

#[test]
fn generic_alpha_beta_equals_plain_minimax_on_the_tree() {
    let mut rng = rng_from_seed(2024);
    let mut compared = 0;
    for (players, depth) in [(2, 1), (2, 2), (3, 1), (3, 2), (2, 3)] {
        for _ in 0..12 {
            let state = random_prediction(&mut rng, players);
            let weights: [f64; 4] = std::array::from_fn(|_| rng.random_range(0.0..10.0));
            let eval = DocumentEval { weights };
            let config = MinimaxConfig { weights, depth, attacks: 3, draft: Default::default() };
            let root = state.mover();
            let expected = expectiminimax_in(&state, depth, DepthUnit::Turns, root, &eval, EvalScale::Rank);
            let mut search = config.search();
            let value = search.value_at_depth(&state, depth, root);
            assert!(
                (value - expected).abs() < 1e-9,
                "{players} players, depth {depth}: alpha-beta {value}, minimax {expected}\n{}",
                state.to_text()
            );
            // Its choice is worth the minimax value too.
            let decision = search.choose(&state, &Limits::default(), &mut |_| {});
            let mut child = state.clone();
            child.apply(decision.action);
            // The root begins a turn: every child has a turn less to go.
            let chosen =
                0.999 * expectiminimax_in(&child, depth - 1, DepthUnit::Turns, root, &eval, EvalScale::Rank);
            assert!((chosen - expected).abs() < 1e-9, "chosen {chosen}, best {expected}");
            compared += 1;
        }
    }
    assert_eq!(compared, 60);
}

/// Random play from the start (deal, setup, then random moves) for `decisions` decisions of
/// the main game, or to the end.
fn random_real_position(rng: &mut Rng, players: usize) -> Risk {
    let mut state = Risk::new_from_text_options(&format!("players={players},max_rounds=20")).unwrap();
    let decisions = rng.random_range(0..300);
    let mut made = 0;
    loop {
        match state.turn() {
            Turn::Over => break,
            Turn::Chance => {
                let outcome = state.sample_chance(rng);
                state.apply(outcome);
            }
            Turn::Player(_) => {
                if state.round() > 0 {
                    if made == decisions {
                        break;
                    }
                    made += 1;
                }
                let actions = state.actions();
                state.apply(actions[rng.random_range(0..actions.len())]);
            }
        }
    }
    state
}

fn minimax(spec: &str) -> Box<dyn ply_core::Agent<Risk>> {
    Risk::build_agent(&AgentSpec::parse(spec).unwrap(), 0).unwrap().agent
}

/// Armies per territory: an allocation, (territory, armies).
type Allocation = Vec<(usize, u16)>;

/// What the test expects of the agent over a game, checked as it goes.
#[derive(Default)]
struct Watch {
    /// The allocation being placed, and what has been placed so far.
    draft: Option<(Allocation, Vec<u16>)>,
    /// (round, seat) of the turn and its blitzes so far.
    attacks: ((u16, usize), u8),
    /// The last blitz: from, to and the armies each side had.
    blitz: Option<(u8, u8, u16, u16)>,
    occupied: usize,
    drafts: usize,
}

impl Watch {
    fn check(&mut self, state: &Risk, action: RiskAction, max_attacks: u8) {
        let n = state.map().len();
        let seat = state.current();
        match (state.phase(), action) {
            (Phase::Draft, RiskAction::Place { territory, armies }) => {
                let (target, placed) = self.draft.get_or_insert_with(|| {
                    let owners: Vec<u8> = (0..n).map(|t| state.owner(t)).collect();
                    let counts: Vec<u16> = (0..n).map(|t| state.armies(t)).collect();
                    (allocation(state.map(), &owners, &counts, seat as u8, state.reserve()), vec![0; n])
                });
                placed[territory as usize] += armies;
                if armies == state.reserve() {
                    let mut wanted = vec![0; n];
                    for &(t, a) in target.iter() {
                        wanted[t] = a;
                    }
                    assert_eq!(*placed, wanted, "the draft placed is the NBSR allocation");
                    self.draft = None;
                    self.drafts += 1;
                }
            }
            (Phase::Draft, RiskAction::Trade(_)) => assert!(self.draft.is_none(), "trades come first"),
            (Phase::Attack, RiskAction::Attack { from, to, blitz }) => {
                assert!(blitz, "attacks are blitzes");
                let key = (state.round(), seat);
                if self.attacks.0 != key {
                    self.attacks = (key, 0);
                }
                self.attacks.1 += 1;
                assert!(self.attacks.1 <= max_attacks, "at most {max_attacks} attacks a turn");
                let (a, d) = (state.armies(from as usize), state.armies(to as usize));
                assert!(a > d, "attacks only from one army more than the defender");
                self.blitz = Some((from, to, a, d));
            }
            (Phase::Occupy { from, to, min }, RiskAction::Occupy(armies)) => {
                let (f, t, a, d) = self.blitz.expect("an attack came before");
                assert_eq!((f, t), (from, to));
                let survivors = battle(a, d).2;
                let most = state.armies(from as usize) - 1;
                let best = Risk::chunks(min, most).map(|c| c.abs_diff(survivors)).min().unwrap();
                assert_eq!(armies.abs_diff(survivors), best, "moves in about the predicted survivors");
                self.occupied += 1;
            }
            _ => {}
        }
    }
}

/// Whole games with every seat the document's agent (each seeing its own view of the hands),
/// every decision checked.
fn play_watched(options: &str, spec: &str, seed: u64, budget: ply_core::Budget) -> (Watch, u64) {
    let mut state = Risk::new_from_text_options(options).unwrap();
    let mut agents: Vec<_> = (0..state.num_players()).map(|_| minimax(spec)).collect();
    let max_attacks = MinimaxConfig::from_params(
        &ply_core::Params::parse(
            "minimax",
            ply_risk::document::params(),
            spec.split_once(':').map_or("", |s| s.1),
        )
        .unwrap(),
    )
    .unwrap()
    .attacks;
    let mut rng = rng_from_seed(seed);
    let mut watches: Vec<Watch> = (0..state.num_players()).map(|_| Watch::default()).collect();
    let mut decisions = 0;
    loop {
        let action = match state.turn() {
            Turn::Over => break,
            Turn::Chance => state.sample_chance(&mut rng),
            Turn::Player(p) => {
                let view = state.resample_hidden(p, &mut rng);
                let action = agents[p].choose(&view, &Limits::new(budget), &mut |_| {}).action;
                assert!(state.is_legal(action), "{options}: {action:?} in\n{}", state.to_text());
                watches[p].check(&state, action, max_attacks);
                decisions += 1;
                action
            }
        };
        state.apply(action);
    }
    let mut total = Watch::default();
    for w in watches {
        total.occupied += w.occupied;
        total.drafts += w.drafts;
    }
    (total, decisions)
}

#[test]
fn minimax_plays_whole_games_by_the_document() {
    let unlimited = ply_core::Budget::default();
    let nodes = ply_core::Budget::iterations(3000);
    let cases = [
        ("players=3,max_rounds=8", "minimax", unlimited),
        ("players=6,max_rounds=5", "minimax", unlimited),
        ("players=3,rules=document,max_rounds=8", "minimax", unlimited),
        ("players=6,rules=document,max_rounds=5", "minimax", unlimited),
        ("players=2,max_rounds=10", "minimax", nodes),
        ("players=2,neutral=true,max_rounds=8", "minimax:attacks=2", nodes),
        ("players=3,setup=pick,max_rounds=4", "minimax:depth=1,attacks=5", unlimited),
    ];
    for (seed, (options, spec, budget)) in cases.into_iter().enumerate() {
        let (watch, decisions) = play_watched(options, spec, seed as u64, budget);
        assert!(
            decisions > 100 && watch.drafts > 5 && watch.occupied > 0,
            "{options}: {decisions} decisions"
        );
    }
}

#[test]
fn minimax_answers_any_position_handed_to_it() {
    let mut rng = rng_from_seed(77);
    // One agent for all: what it remembers of one game must not mislead it in another.
    let mut agent = minimax("minimax");
    for players in [2, 3, 6] {
        for _ in 0..40 {
            let state = random_real_position(&mut rng, players);
            if let Turn::Player(_) = state.turn() {
                let action = agent
                    .choose(&state, &Limits::new(ply_core::Budget::iterations(2000)), &mut |_| {})
                    .action;
                assert!(state.is_legal(action), "{action:?} in\n{}", state.to_text());
                let fresh = minimax("minimax:depth=1").choose(&state, &Limits::default(), &mut |_| {}).action;
                assert!(state.is_legal(fresh));
            }
        }
    }
    // Stopped at once, it still answers.
    let state = random_real_position(&mut rng, 3);
    if let Turn::Player(_) = state.turn() {
        let limits = Limits::default();
        limits.stop.stop();
        assert!(state.is_legal(agent.choose(&state, &limits, &mut |_| {}).action));
    }
}

#[test]
fn minimax_parameters_are_checked() {
    for bad in [
        "minimax:weights=1,2,3",
        "minimax:weights=1,2,3,-1",
        "minimax:depth=0",
        "minimax:attacks=0",
        "minimax:draft=spread",
    ] {
        assert!(Risk::build_agent(&AgentSpec::parse(bad).unwrap(), 0).is_err(), "{bad}");
    }
    for good in [
        "minimax",
        "minimax:weights=0,0,0,0",
        "minimax:weights=9.5,1,0.25,3,depth=3,attacks=1",
        "minimax:draft=front",
    ] {
        assert!(Risk::build_agent(&AgentSpec::parse(good).unwrap(), 0).is_ok(), "{good}");
    }
}

/// `draft=front` drafts as `greedy` does, the whole reserve at once; the document's NBSR draft
/// spreads it.
#[test]
fn the_front_draft_is_greedys() {
    let mut rng = ply_core::rng::rng_from_seed(3);
    let mut state = Risk::new_from_text_options("rules=document").unwrap();
    while state.phase() != ply_risk::Phase::Draft {
        let action = match state.turn() {
            Turn::Chance => state.sample_chance(&mut rng),
            _ => ply_risk::agents::Greedy::choose(&state, &state.actions()),
        };
        state.apply(action);
    }
    let limits = Limits::default();
    let front = minimax("minimax:draft=front").choose(&state, &limits, &mut |_| {}).action;
    assert_eq!(front, ply_risk::agents::Greedy::choose(&state, &state.actions()));
    let nbsr = minimax("minimax").choose(&state, &limits, &mut |_| {}).action;
    let ply_risk::RiskAction::Place { armies, .. } = nbsr else { panic!("{nbsr:?}") };
    assert!(armies < state.reserve(), "NBSR placed the whole reserve of {} at once", state.reserve());
}

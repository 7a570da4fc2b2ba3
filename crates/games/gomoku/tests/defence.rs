//! The defence suite (`tests/defence.txt`): positions where the opponent threatens a win by
//! continuous fours that most replies of the side to move cannot stop, and some replies do.
//! The engine's reply must be one after which the oracle (`oracle/mod.rs`, written from the
//! board's rules alone) finds no such win. A reply the oracle lets through may still lose to a
//! longer or slower attack; one it catches loses for certain.
//!
//! `cargo test -p ply-gomoku --release --test defence -- --nocapture` prints how many the
//! engine holds. The suite was made by `generate` (ignored; run it with `--ignored`), which plays
//! games of the engine against the pattern player and against itself at a smaller budget, from
//! random openings, and keeps the positions described above.

use ply_core::rng::rng_from_seed;
use ply_core::{Agent, AgentSpec, Budget, Game, GameDef, Limits};
use ply_gomoku::{Board, EMPTY, Gomoku, Point};

mod oracle;
use oracle::{five_points, near_stones, other, vcf_oracle};

const NODE_BUDGET: u64 = 200_000;
/// The attacker's moves the oracle looks ahead.
const ORACLE_DEPTH: u32 = 8;

/// Whether the side to move's reply `r` loses to a win by continuous fours.
fn reply_loses(b: &Board, r: Point) -> bool {
    if !b.is_legal(r) {
        return true;
    }
    let mut after = b.clone();
    after.place(r);
    after.winner().is_none() && vcf_oracle(&after, ORACLE_DEPTH)
}

/// The side to move's legal replies near the stones: those that lose, and those that hold.
fn replies(b: &Board) -> (Vec<Point>, Vec<Point>) {
    b.points()
        .filter(|&p| b.at(p) == EMPTY && near_stones(b, p) && b.is_legal(p))
        .partition(|&r| reply_loses(b, r))
}

fn suite() -> Vec<Board> {
    let base = Gomoku::new_from_text_options("").unwrap();
    include_str!("defence.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| base.parse_state(l.trim()).unwrap())
        .collect()
}

/// How many positions of the suite `spec` holds, printing the others.
fn held_by(spec: &str, positions: &[Board]) -> usize {
    let mut held = 0;
    for (i, board) in positions.iter().enumerate() {
        let mut agent = Gomoku::build_agent(&AgentSpec::parse(spec).unwrap(), i as u64).unwrap().agent;
        let decision = agent.choose(board, &Limits::new(Budget::iterations(NODE_BUDGET)), &mut |_| {});
        if reply_loses(board, decision.action) {
            println!("{spec} lost: {} (played {})", board.to_text(), board.action_to_text(decision.action));
        } else {
            held += 1;
        }
    }
    held
}

#[test]
fn every_position_is_a_defence_problem() {
    let positions = suite();
    assert!(positions.len() >= 20, "the suite has {} positions", positions.len());
    for board in &positions {
        let text = board.to_text();
        let (losing, holding) = replies(board);
        assert!(!holding.is_empty(), "{text}: no reply holds");
        assert!(losing.len() >= 2 * holding.len(), "{text}: {} lose, {} hold", losing.len(), holding.len());
        let me = board.to_move();
        assert!(five_points(board, other(me)).is_empty(), "{text}: a five to block is no problem");
        assert!(!vcf_oracle(board, ORACLE_DEPTH), "{text}: the side to move wins itself");
    }
}

#[test]
fn the_engine_holds_the_suite() {
    let positions = suite();
    let held = held_by("alphabeta", &positions);
    println!("defence: alphabeta holds {held}/{}, budget {NODE_BUDGET} nodes a position", positions.len());
    assert!(held * 10 >= positions.len() * 9, "alphabeta holds {held} of {}", positions.len());
}

/// For comparison, not a requirement: the document's player, and the engine without its root
/// threat search or narrowed.
#[test]
#[ignore]
fn others_on_the_suite() {
    let positions = suite();
    for spec in ["pattern", "alphabeta:vct=0", "alphabeta:width=3", "alphabeta:vct=0,width=3"] {
        println!("defence: {spec} holds {}/{}", held_by(spec, &positions), positions.len());
    }
}

/// Writes a new suite to stdout: `cargo test -p ply-gomoku --release --test defence -- --ignored
/// --nocapture generate > defence.txt` (then keep the position lines).
#[test]
#[ignore]
fn generate() {
    let base = Gomoku::new_from_text_options("").unwrap();
    let mut rng = rng_from_seed(2027);
    const SUITE_SIZE: usize = 40;
    let mut found = 0;
    let mut seen = std::collections::HashSet::new();
    for game in 0..400 {
        if found >= SUITE_SIZE {
            break;
        }
        let mut b = base.clone();
        for _ in 0..3 {
            let p = b.opening_action(&mut rng);
            b.place(p);
        }
        // Against the pattern player and against a weaker search: threats of both kinds.
        let specs = ["alphabeta:iters=20000", if game % 2 == 0 { "pattern" } else { "alphabeta:iters=3000" }];
        let mut agents: Vec<Box<dyn Agent<Board>>> = specs
            .iter()
            .map(|s| Gomoku::build_agent(&AgentSpec::parse(s).unwrap(), game).unwrap().agent)
            .collect();
        // A few positions a game, so that the suite spans many games.
        let mut from_this_game = 0;
        while !b.is_over() && found < SUITE_SIZE && from_this_game < 2 {
            let me = b.to_move();
            let trivial = !five_points(&b, me).is_empty() || !five_points(&b, other(me)).is_empty();
            if !trivial && seen.insert(b.to_text()) && !vcf_oracle(&b, ORACLE_DEPTH) {
                let (losing, holding) = replies(&b);
                if !holding.is_empty() && losing.len() >= 2 * holding.len() {
                    println!("# {} replies lose, {} hold", losing.len(), holding.len());
                    println!("{}", b.to_text());
                    found += 1;
                    from_this_game += 1;
                }
            }
            let seat = (b.moves().len() + game as usize) % 2;
            let d = agents[seat].choose(&b, &Limits::new(Budget::iterations(20_000)), &mut |_| {});
            b.place(d.action);
        }
    }
}

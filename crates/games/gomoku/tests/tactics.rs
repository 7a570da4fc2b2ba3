//! The tactics suite (`tests/tactics.txt`): positions where the side to move has a forced win by
//! continuous fours (`vcf`) or by one open three followed by continuous fours (`vct`). The engine
//! must find a winning move within a node budget; every answer is checked by an oracle written
//! here from the board's rules alone, independent of the engine's code.
//!
//! `cargo test -p ply-gomoku --release --test tactics -- --nocapture` prints how many it solves
//! and how fast. The suite was made by `generate` (ignored; run it with `--ignored`), which plays
//! engine-against-pattern games from random openings and keeps positions the oracle proves.

use std::time::Instant;

use ply_core::rng::rng_from_seed;
use ply_core::{Agent, AgentSpec, Budget, Game, GameDef, Limits};
use ply_gomoku::{Board, EMPTY, Gomoku, Point};

mod oracle;
use oracle::{five_points, move_wins, near_stones, other, vcf_oracle};

const NODE_BUDGET: u64 = 200_000;

fn suite() -> Vec<(String, Board)> {
    let base = Gomoku::new_from_text_options("").unwrap();
    include_str!("tactics.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (kind, moves) = l.split_once(':').expect("kind: moves");
            (kind.trim().to_string(), base.parse_state(moves.trim()).unwrap())
        })
        .collect()
}

#[test]
fn the_engine_solves_the_suite() {
    let positions = suite();
    assert!(positions.len() >= 20, "the suite has {} positions", positions.len());
    let mut solved = [0usize; 2];
    let mut total = [0usize; 2];
    let mut nodes = 0;
    let mut engine_time = std::time::Duration::ZERO;
    for (kind, board) in &positions {
        let i = usize::from(kind == "vct");
        total[i] += 1;
        let spec = AgentSpec::parse("alphabeta").unwrap();
        let mut agent = Gomoku::build_agent(&spec, 0).unwrap().agent;
        let started = Instant::now();
        let decision = agent.choose(board, &Limits::new(Budget::iterations(NODE_BUDGET)), &mut |_| {});
        engine_time += started.elapsed();
        nodes += decision.info.iterations;
        if move_wins(board, decision.action, kind) {
            solved[i] += 1;
        } else {
            println!("missed {kind}: {} (played {})", board.to_text(), board.action_to_text(decision.action));
        }
    }
    let seconds = engine_time.as_secs_f64();
    println!(
        "tactics: vcf {}/{}, vct {}/{}; the engine searched {nodes} nodes in {:.1} ms ({:.2} ms a position), budget {NODE_BUDGET} nodes a position",
        solved[0],
        total[0],
        solved[1],
        total[1],
        seconds * 1000.0,
        seconds * 1000.0 / positions.len() as f64
    );
    assert_eq!(solved[0], total[0], "every win by continuous fours is found");
    assert!(solved[1] * 10 >= total[1] * 8, "at least 80% of the wins by threes are found");
}

/// Lazy SMP: two threads sharing the table still prove the wins and play winning moves, and
/// their node count is the whole search's, within the budget. The root's threat searches are
/// off, so that the tree, where the threads share their work, must find each win itself.
#[test]
fn two_threads_find_the_wins_in_the_tree() {
    const BUDGET: u64 = 50_000;
    for (kind, board) in &suite() {
        let spec = AgentSpec::parse("alphabeta:threads=2,vcf=0,vct=0").unwrap();
        let mut agent = Gomoku::build_agent(&spec, 0).unwrap().agent;
        let decision = agent.choose(board, &Limits::new(Budget::iterations(BUDGET)), &mut |_| {});
        let text = board.to_text();
        assert!(board.is_legal(decision.action), "{text}");
        assert!(decision.info.proven.is_some_and(|plies| plies > 0), "{kind} {text}: {:?}", decision.info);
        // The tree may find a longer win than the suite's, which the oracle's bounded look-ahead
        // does not see: such a win is checked by the single-threaded engine (whose proofs
        // `soundness.rs` checks), which must prove the position after it lost.
        if !move_wins(board, decision.action, "vct") {
            let mut after = board.clone();
            after.place(decision.action);
            let mut check = Gomoku::build_agent(&AgentSpec::parse("alphabeta").unwrap(), 0).unwrap().agent;
            let reply = check.choose(&after, &Limits::new(Budget::iterations(NODE_BUDGET)), &mut |_| {});
            assert!(
                reply.info.proven.is_some_and(|plies| plies < 0),
                "{kind} {text}: {:?}, then {:?}",
                decision.info,
                reply.info
            );
        }
        // Each thread adds its nodes to the shared count every 1024 nodes.
        assert!(decision.info.iterations <= BUDGET + 2 * 1024, "{kind} {text}: {:?}", decision.info);
    }
}

#[test]
fn the_oracle_agrees_with_hand_made_cases() {
    let base = Gomoku::new_from_text_options("").unwrap();
    // An open three for the side to move is a win by fours: k8 or g8 makes an open four.
    let three = base.parse_state("h8 a1 i8 a3 j8 a5").unwrap();
    assert!(vcf_oracle(&three, 2));
    assert!(move_wins(&three, base.parse_action("k8").unwrap(), "vcf"));
    assert!(!move_wins(&three, base.parse_action("a2").unwrap(), "vct"));
    // Two open twos crossing at j8: no four anywhere, but j8 makes two open threes, and white can
    // stop only one of them.
    let fork = base.parse_state("h8 a1 i8 o1 j9 a15 j10 o15").unwrap();
    assert!(!vcf_oracle(&fork, 6));
    assert!(move_wins(&fork, base.parse_action("j8").unwrap(), "vct"));
    assert!(!move_wins(&fork, base.parse_action("k8").unwrap(), "vct"));
}

/// Writes a new suite to stdout: `cargo test -p ply-gomoku --release --test tactics -- --ignored
/// --nocapture generate > tactics.txt` (then keep the position lines).
#[test]
#[ignore]
fn generate() {
    let base = Gomoku::new_from_text_options("").unwrap();
    let mut rng = rng_from_seed(2026);
    let (mut vcf, mut vct) = (0, 0);
    let mut seen = std::collections::HashSet::new();
    for game in 0..400 {
        if vcf >= 30 && vct >= 15 {
            break;
        }
        let mut b = base.clone();
        for _ in 0..3 {
            let p = b.opening_action(&mut rng);
            b.place(p);
        }
        let specs = ["alphabeta:iters=20000", "pattern"];
        let mut agents: Vec<Box<dyn Agent<Board>>> = specs
            .iter()
            .map(|s| Gomoku::build_agent(&AgentSpec::parse(s).unwrap(), game).unwrap().agent)
            .collect();
        while !b.is_over() {
            let me = b.to_move();
            let trivial = !five_points(&b, me).is_empty() || !five_points(&b, other(me)).is_empty();
            if !trivial && seen.insert(b.to_text()) {
                if vcf < 30 && vcf_oracle(&b, 8) {
                    println!("vcf: {}", b.to_text());
                    vcf += 1;
                } else if vct < 15 {
                    let candidates: Vec<Point> =
                        b.points().filter(|&p| b.at(p) == EMPTY && near_stones(&b, p)).collect();
                    if candidates.iter().any(|&m| move_wins(&b, m, "vct")) {
                        println!("vct: {}", b.to_text());
                        vct += 1;
                    }
                }
            }
            let seat = (b.moves().len() + game as usize) % 2;
            let d = agents[seat].choose(&b, &Limits::new(Budget::iterations(20_000)), &mut |_| {});
            b.place(d.action);
        }
    }
}

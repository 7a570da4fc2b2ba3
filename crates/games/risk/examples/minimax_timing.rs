//! Times the document's agent: every real turn of `minimax` games on the classic map, with no
//! budget (the search goes to its full depth). `cargo run --release -p ply-risk --example
//! minimax_timing -- [players] [games] [spec]`.

use std::time::{Duration, Instant};

use ply_core::rng::{derive_seed, rng_from_seed};
use ply_core::{AgentSpec, Game, GameDef, Limits, Turn};
use ply_risk::Risk;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let players: usize = args.get(1).map_or(6, |a| a.parse().unwrap());
    let games: u64 = args.get(2).map_or(2, |a| a.parse().unwrap());
    let spec = AgentSpec::parse(args.get(3).map_or("minimax", |s| s.as_str())).unwrap();
    let options = args.get(4).cloned().unwrap_or_else(|| format!("players={players},max_rounds=30"));
    let mut turn_times: Vec<Duration> = Vec::new();
    let mut nodes: Vec<u64> = Vec::new();
    for game in 0..games {
        let mut state = Risk::new_from_text_options(&options).unwrap();
        let mut agents: Vec<_> = (0..players)
            .map(|p| Risk::build_agent(&spec, derive_seed(game, p as u64)).unwrap().agent)
            .collect();
        let mut rng = rng_from_seed(game);
        let mut current: Option<(u16, usize)> = None;
        let mut spent = Duration::ZERO;
        let mut turn_nodes = 0;
        while let Turn::Player(_) | Turn::Chance = state.turn() {
            let action = match state.turn() {
                Turn::Chance => state.sample_chance(&mut rng),
                Turn::Player(p) => {
                    let key = (state.round(), p);
                    if current != Some(key) {
                        if current.is_some() && state.round() > 0 {
                            turn_times.push(spent);
                            nodes.push(turn_nodes);
                        }
                        current = Some(key);
                        spent = Duration::ZERO;
                        turn_nodes = 0;
                    }
                    let started = Instant::now();
                    let d = agents[p].choose(&state, &Limits::default(), &mut |_| {});
                    spent += started.elapsed();
                    turn_nodes += d.info.iterations;
                    d.action
                }
                Turn::Over => unreachable!(),
            };
            state.apply(action);
        }
    }
    turn_times.sort();
    nodes.sort();
    let n = turn_times.len();
    let mean = turn_times.iter().sum::<Duration>() / n as u32;
    let pct = |q: f64| turn_times[((n - 1) as f64 * q) as usize];
    println!(
        "{spec} {options}: {n} turns, mean {:.1} ms, median {:.1}, p90 {:.1}, p99 {:.1}, max {:.1} ms; nodes mean {}, max {}",
        mean.as_secs_f64() * 1e3,
        pct(0.5).as_secs_f64() * 1e3,
        pct(0.9).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        pct(1.0).as_secs_f64() * 1e3,
        nodes.iter().sum::<u64>() / n as u64,
        nodes[n - 1]
    );
}

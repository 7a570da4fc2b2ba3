//! `ply bench`: fixed searches from fixed positions with iteration budgets. The total iteration
//! count and a checksum of every search's outcome (move, value, line) are a signature of search
//! behaviour: they change only when the search does. The speed is iterations per second on this
//! machine.

use std::time::{Duration, Instant};

use ply_core::random_playout;
use ply_core::rng::{derive_seed, rng_from_seed};
use ply_core::{AgentSpec, Budget, Error, GameDef, Limits};
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
pub struct BenchLine {
    pub position: String,
    pub agent: String,
    pub iterations: u64,
    pub elapsed: Duration,
    pub best: String,
    /// Hash of the outcome: iterations, depth, move, value and principal variation.
    pub checksum: u64,
}

/// Uniformly random games from the start, chance sampled: the speed of the rules themselves.
#[derive(Clone, Debug, Serialize)]
pub struct RandomGames {
    pub games: u64,
    pub actions: u64,
    pub elapsed: Duration,
}

#[derive(Clone, Debug, Serialize)]
pub struct BenchReport {
    pub game: String,
    pub lines: Vec<BenchLine>,
    pub random_games: Option<RandomGames>,
}

impl BenchReport {
    /// Search iterations, plus the actions of the random games.
    pub fn total_iterations(&self) -> u64 {
        self.lines.iter().map(|l| l.iterations).sum::<u64>()
            + self.random_games.as_ref().map_or(0, |r| r.actions)
    }

    /// All lines' checksums folded into one.
    pub fn checksum(&self) -> u64 {
        self.lines.iter().fold(0, |acc, l| derive_seed(acc, l.checksum))
    }

    pub fn total_elapsed(&self) -> Duration {
        self.lines.iter().map(|l| l.elapsed).sum::<Duration>()
            + self.random_games.as_ref().map_or(Duration::ZERO, |r| r.elapsed)
    }

    /// Iterations per second for the lines whose agent name starts with `agent`.
    pub fn speed_of(&self, agent: &str) -> Option<f64> {
        let lines: Vec<&BenchLine> =
            self.lines.iter().filter(|l| l.agent.split(':').next() == Some(agent)).collect();
        let iterations: u64 = lines.iter().map(|l| l.iterations).sum();
        let seconds: f64 = lines.iter().map(|l| l.elapsed.as_secs_f64()).sum();
        (seconds > 0.0).then(|| iterations as f64 / seconds)
    }
}

pub fn run_bench<G: GameDef>() -> Result<BenchReport, Error> {
    let start = G::new_game(&G::parse_options("")?)?;
    let mut lines = Vec::new();
    for case in G::bench_cases() {
        let state =
            if case.position.is_empty() { start.clone() } else { start.parse_state(case.position)? };
        if state.current_player().is_none() {
            return Err(Error::spec(format!(
                "bench position '{}' of {} has no player to move",
                case.position,
                G::NAME
            )));
        }
        let spec = AgentSpec::parse(case.agent)?;
        let mut built = G::build_agent(&spec, 0)?;
        let limits = Limits::new(Budget::iterations(case.iterations));
        let started = Instant::now();
        let decision = built.agent.choose(&state, &limits, &mut |_| {});
        let mut checksum = derive_seed(decision.info.iterations, decision.info.depth as u64);
        checksum = derive_seed(checksum, decision.info.value.map_or(0, f64::to_bits));
        for text in
            std::iter::once(&decision.action).chain(&decision.info.pv).map(|a| state.action_to_text(*a))
        {
            checksum = text.bytes().fold(checksum, |c, b| derive_seed(c, b as u64));
        }
        lines.push(BenchLine {
            position: if case.position.is_empty() { "start".into() } else { case.position.into() },
            agent: case.agent.into(),
            iterations: decision.info.iterations,
            elapsed: started.elapsed(),
            best: state.action_to_text(decision.action),
            checksum,
        });
    }
    let random_games = match G::bench_random_games() {
        0 => None,
        games => {
            let mut rng = rng_from_seed(0xBE7C);
            let started = Instant::now();
            let mut actions = 0;
            for _ in 0..games {
                let mut state = start.clone();
                actions += random_playout(&mut state, &mut rng, usize::MAX) as u64;
            }
            Some(RandomGames { games, actions, elapsed: started.elapsed() })
        }
    };
    Ok(BenchReport { game: G::NAME.to_string(), lines, random_games })
}

//! Judges the decisions of recorded EinStein games ([`ply_einstein_tools::analysis`]): per agent, the
//! winning chance it gave away per game, the score that predicts, and what best play in its
//! place would have scored against the same opponent. Records come from `ply match --out`, the
//! OpenSpiel bridge's `--out` or the web UI's download, all in one format (docs/formats.md).

use std::fs::File;
use std::io::BufReader;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;
use ply_arena::Score;
use ply_arena::record::{self, GameRecord};
use ply_core::{Game, GameDef};
use ply_einstein::value::{self, net::ValueNet};
use ply_einstein::{Einstein, Phase, SIDE_NAMES};
use ply_einstein_tools::analysis::{GameJudgement, Judge, judge_game};

#[derive(Parser)]
#[command(about = "Judge the decisions in recorded EinStein games: winning chance given away per agent")]
struct Args {
    /// Game records (`ply match --out`, `bridge.py match --out`, a game downloaded from the web UI).
    #[arg(required = true)]
    records: Vec<String>,
    /// Values are exact with at most this many cubes on the board (0 to 5; 5 takes seconds a
    /// game, 4 a hundredth of that).
    #[arg(long, default_value_t = 4)]
    exact: u32,
    /// Otherwise look this many rolls ahead before asking the value network (0 to 3).
    #[arg(long, default_value_t = 2)]
    depth: u32,
    /// Value network: 'shipped' or a file written by einstein-train.
    #[arg(long, default_value = "shipped")]
    net: String,
    /// Also list, game by game, every decision that gave away at least this winning chance
    /// (0 to 1; 0.05 shows the clear mistakes), with the position to look at it again.
    #[arg(long, value_name = "CHANCE")]
    moves: Option<f64>,
    /// Records judged at once (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

/// A record checked and turned into the game's own actions.
struct Recorded {
    seats: [String; 2],
    returns: [f64; 2],
    start: Einstein,
    actions: Vec<ply_einstein::Action>,
}

/// Reads game records (docs/formats.md): the arena's or the bridge's JSON lines, or games
/// downloaded from the web UI.
fn read_games(path: &str) -> Result<Vec<Recorded>, String> {
    let file = File::open(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
    let records = record::read(BufReader::new(file)).map_err(|e| format!("{path}: {e}"))?;
    let mut games = Vec::with_capacity(records.len());
    for (i, record) in records.iter().enumerate() {
        games.push(checked(record).map_err(|e| format!("{path}, record {}: {e}", i + 1))?);
    }
    Ok(games)
}

/// A finished single game of EinStein between two seats, each named by its side's display name
/// (games from the web UI) or else its seat; a resigned game is judged up to the resignation.
fn checked(record: &GameRecord) -> Result<Recorded, String> {
    if record.game != Einstein::NAME {
        return Err(format!("a record of '{}', not of einstein", record.game));
    }
    if record.returns.is_empty() {
        return Err("the game has no result (it is still playing, or was aborted)".into());
    }
    let names: Vec<String> = (0..record.seats.len())
        .map(|seat| {
            let name = record.sides.get(seat).and_then(|side| side.name.clone());
            name.unwrap_or_else(|| record.seats[seat].clone())
        })
        .collect();
    let (Ok(seats), Ok(returns)) = (names.try_into(), record.returns.clone().try_into()) else {
        return Err("a record needs two seats and two returns".into());
    };
    let start = Einstein::new_from_text_options(&record.options).map_err(|e| e.to_string())?;
    if start.is_match() {
        return Err("a match (match=N above 1): only single games are judged".into());
    }
    let mut state = start.clone();
    let mut actions = Vec::with_capacity(record.actions.len());
    for (i, text) in record.actions.iter().enumerate() {
        actions.push(state.play_text(text).map_err(|e| format!("action {} '{text}': {e}", i + 1))?);
    }
    if !state.is_over() && record.resigned.is_none() {
        return Err("the game is not finished".into());
    }
    Ok(Recorded { seats, returns, start, actions })
}

/// Everything said about one agent, over all its seats.
#[derive(Default)]
struct AgentSummary {
    score: Score,
    predicted: Score,
    best_play: Score,
    decisions: u64,
    mistakes: u64,
    exact_regret: f64,
    estimated_regret: f64,
}

/// A mean score and its 95% interval, in percent.
fn percent(score: &Score) -> String {
    let (low, high) = score.interval();
    format!("{:.1}% [{:.1}, {:.1}]", 100.0 * score.mean(), 100.0 * low, 100.0 * high)
}

/// The decisions of one game that gave away at least `min`.
fn list_mistakes(number: usize, game: &Recorded, judgement: &GameJudgement, min: f64) {
    let winner =
        (0..2).find(|&s| game.returns[s] > game.returns[1 - s]).map_or("no winner", |s| SIDE_NAMES[s]);
    println!("game {number}: red {}, blue {}; {winner} won", game.seats[0], game.seats[1]);
    for d in judgement.decisions.iter().filter(|d| d.regret() >= min) {
        let Phase::Move(die) = d.position.phase() else { continue };
        let side = SIDE_NAMES[d.position.side() as usize];
        let spell = |action| d.position.action_to_text(action);
        println!(
            "  action {} ({side}, die {die}): {} leaves {:.1}%, {} {:.1}%: {:.1} points given away{} at {}",
            d.index + 1,
            spell(d.played.0),
            100.0 * d.played.1,
            spell(d.best.0),
            100.0 * d.best.1,
            100.0 * d.regret(),
            if d.exact { " (exact)" } else { "" },
            d.position.to_text()
        );
    }
}

/// Each agent's figures over all its games and seats, in order of first appearance.
fn summarise(games: &[Recorded], judged: &[GameJudgement]) -> Vec<(String, AgentSummary)> {
    let mut agents: Vec<(String, AgentSummary)> = Vec::new();
    for (game, judgement) in games.iter().zip(judged) {
        for side in 0..2 {
            let index = match agents.iter().position(|(name, _)| *name == game.seats[side]) {
                Some(i) => i,
                None => {
                    agents.push((game.seats[side].clone(), AgentSummary::default()));
                    agents.len() - 1
                }
            };
            let summary = &mut agents[index].1;
            let mine = judgement.sides[side];
            summary.score.add(game.returns[side], game.returns[1 - side]);
            let predicted = judgement.predicted_score(side);
            summary.predicted.add(predicted, 1.0 - predicted);
            let best = judgement.best_play_score(side);
            summary.best_play.add(best, 1.0 - best);
            summary.decisions += mine.decisions as u64;
            summary.mistakes += mine.mistakes as u64;
            summary.exact_regret += mine.exact_regret;
            summary.estimated_regret += mine.estimated_regret;
        }
    }
    agents
}

fn run(args: Args) -> Result<(), String> {
    if args.exact > 5 {
        return Err(format!("--exact must be 0 to 5, got {}", args.exact));
    }
    if args.depth > 3 {
        return Err(format!("--depth must be 0 to 3, got {}", args.depth));
    }
    if let Some(min) = args.moves
        && !(0.0..=1.0).contains(&min)
    {
        return Err(format!("--moves must be a winning chance from 0 to 1, got {min}"));
    }
    let net: Arc<ValueNet> = match args.net.as_str() {
        "shipped" => value::shipped(),
        path => Arc::new(value::load(path).map_err(|e| e.to_string())?),
    };
    let mut games = Vec::new();
    for path in &args.records {
        games.extend(read_games(path)?);
    }
    if games.is_empty() {
        return Err("no records to judge".into());
    }
    let threads =
        args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let mut judged = vec![GameJudgement::default(); games.len()];
    std::thread::scope(|scope| {
        let chunk = games.len().div_ceil(threads);
        for (games, out) in games.chunks(chunk).zip(judged.chunks_mut(chunk)) {
            let net = net.clone();
            scope.spawn(move || {
                let mut judge = Judge::new(net, args.exact, args.depth);
                for (game, out) in games.iter().zip(out) {
                    judge.forget();
                    *out = judge_game(&mut judge, &game.start, &game.actions);
                }
            });
        }
    });

    if let Some(min) = args.moves {
        for (i, (game, judgement)) in games.iter().zip(&judged).enumerate() {
            list_mistakes(i + 1, game, judgement, min);
        }
    }
    let agents = summarise(&games, &judged);
    println!(
        "{} games; values exact with at most {} cubes, otherwise the network {} rolls ahead",
        games.len(),
        args.exact,
        args.depth
    );
    for (name, s) in &agents {
        let n = s.score.games() as f64;
        println!("{name}");
        println!("  score {} in {} games", percent(&s.score), s.score.games());
        println!(
            "  gave away {:.4} per game ({:.4} exact, {:.4} estimated); {} of {} decisions not the best ({:.1}%)",
            (s.exact_regret + s.estimated_regret) / n,
            s.exact_regret / n,
            s.estimated_regret / n,
            s.mistakes,
            s.decisions,
            100.0 * s.mistakes as f64 / s.decisions.max(1) as f64
        );
        println!(
            "  predicted score {}; best play in its place {}",
            percent(&s.predicted),
            percent(&s.best_play)
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("einstein-analyse: {e}");
            ExitCode::FAILURE
        }
    }
}

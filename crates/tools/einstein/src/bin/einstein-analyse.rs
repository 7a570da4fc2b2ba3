//! Judges the decisions of recorded EinStein games ([`ply_einstein_tools::analysis`]): per agent, the
//! winning chance it gave away per game, the score that predicts, and what best play in its
//! place would have scored against the same opponent. Records come from `ply match --out` or
//! from the OpenSpiel bridge's `--out` (docs/formats.md).

use std::fs::File;
use std::io::{BufReader, Read};
use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;
use ply_arena::{GameRecord, Score};
use ply_core::{Game, GameDef};
use ply_einstein::value::{self, net::ValueNet};
use ply_einstein::{Einstein, Phase, SIDE_NAMES};
use ply_einstein_tools::analysis::{GameJudgement, Judge, judge_game};
use serde_json::Value;

#[derive(Parser)]
#[command(about = "Judge the decisions in recorded EinStein games: winning chance given away per agent")]
struct Args {
    /// Game records, JSON lines (`ply match --out`, `bridge.py match --out`).
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
    /// Whether the actions end the game (a game from the web UI may end by resignation).
    finished: bool,
}

/// Reads a file of arena records (JSON lines) or one game downloaded from the web UI
/// (`GET /api/games/{id}/record`, one JSON object with `sides`).
fn read_games(path: &str) -> Result<Vec<Recorded>, String> {
    let file = File::open(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
    let mut text = String::new();
    BufReader::new(file).read_to_string(&mut text).map_err(|e| format!("cannot read '{path}': {e}"))?;
    if let Ok(web) = serde_json::from_str::<Value>(&text)
        && web.get("sides").is_some()
    {
        return Ok(vec![from_web(&web).map_err(|e| format!("{path}: {e}"))?]);
    }
    let records = ply_arena::record::read_jsonl(text.as_bytes()).map_err(|e| format!("{path}: {e}"))?;
    let mut games = Vec::with_capacity(records.len());
    for (i, record) in records.iter().enumerate() {
        games.push(from_arena(record).map_err(|e| format!("{path}, record {}: {e}", i + 1))?);
    }
    Ok(games)
}

fn from_arena(record: &GameRecord) -> Result<Recorded, String> {
    let (Ok(seats), Ok(returns)) = (record.seats.clone().try_into(), record.returns.clone().try_into())
    else {
        return Err("a record needs two seats and two returns".into());
    };
    let game = replay(&record.game, &record.options, seats, returns, &record.actions)?;
    if !game.finished {
        return Err("the game is not finished".into());
    }
    Ok(game)
}

/// A game from the web UI's record: its sides named by their `name`, else the agent, else
/// "human"; a resigned game is judged up to the resignation.
fn from_web(web: &Value) -> Result<Recorded, String> {
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
    let game = text(web, "game").ok_or("no 'game'")?;
    let options = text(web, "options").unwrap_or_default();
    let sides = web.get("sides").and_then(Value::as_array).ok_or("'sides' is not a list")?;
    let names: Vec<String> = sides
        .iter()
        .map(|side| text(side, "name").or_else(|| text(side, "agent")).unwrap_or_else(|| "human".into()))
        .collect();
    let seats = names.try_into().map_err(|_| "a record needs two seats and two returns".to_string())?;
    let returns: Vec<f64> = web
        .pointer("/result/returns")
        .and_then(Value::as_array)
        .ok_or("the game has no result (it is still playing, or was aborted)")?
        .iter()
        .map(|r| r.as_f64().ok_or("a return is not a number"))
        .collect::<Result<_, _>>()?;
    let returns = returns.try_into().map_err(|_| "a record needs two seats and two returns".to_string())?;
    let actions: Vec<String> = web
        .get("actions")
        .and_then(Value::as_array)
        .ok_or("'actions' is not a list")?
        .iter()
        .map(|a| text(a, "action").ok_or("an action without its 'action' text"))
        .collect::<Result<_, _>>()?;
    replay(&game, &options, seats, returns, &actions)
}

fn replay(
    game: &str,
    options: &str,
    seats: [String; 2],
    returns: [f64; 2],
    texts: &[String],
) -> Result<Recorded, String> {
    if game != Einstein::NAME {
        return Err(format!("a record of '{game}', not of einstein"));
    }
    let start = Einstein::new_from_text_options(options).map_err(|e| e.to_string())?;
    if start.is_match() {
        return Err("a match (match=N above 1): only single games are judged".into());
    }
    let mut state = start.clone();
    let mut actions = Vec::with_capacity(texts.len());
    for (i, text) in texts.iter().enumerate() {
        actions.push(state.play_text(text).map_err(|e| format!("action {} '{text}': {e}", i + 1))?);
    }
    Ok(Recorded { seats, returns, start, actions, finished: state.is_over() })
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

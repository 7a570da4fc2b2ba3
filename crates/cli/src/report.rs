//! Human-readable tables for match, tournament, SPRT and bench results.

use std::fmt::Write;

use ply_arena::bench::BenchReport;
use ply_arena::stats::format_elo;
use ply_arena::{FfaReport, MatchReport, Score, SprtReport, TournamentReport};

fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn score_line(name: &str, score: &Score, width: usize) -> String {
    let (low, high) = score.interval();
    format!(
        "{name:<width$}  +{:<5} ={:<5} -{:<5} score {:>6} [{}, {}]  Elo {}",
        score.wins,
        score.draws,
        score.losses,
        percent(score.mean()),
        percent(low),
        percent(high),
        format_elo(&score.elo())
    )
}

fn speed(games: usize, seconds: f64, threads: usize) -> String {
    format!(
        "{games} games in {seconds:.2} s ({:.1} games/s, {threads} threads)",
        games as f64 / seconds.max(1e-9)
    )
}

pub fn match_table(report: &MatchReport, threads: usize) -> String {
    let r = &report.result;
    let width = r.first.len().max(r.second.len());
    let mut out = String::new();
    writeln!(out, "{}: {} vs {}", report.game, r.first, r.second).unwrap();
    writeln!(out, "{}", score_line(&r.first, &r.score, width)).unwrap();
    writeln!(out, "{}", speed(report.records.len(), report.elapsed.as_secs_f64(), threads)).unwrap();
    out
}

pub fn ffa_table(report: &FfaReport, threads: usize) -> String {
    let width = report.standings.iter().map(|s| s.agent.len()).max().unwrap_or(0).max(5);
    let mut out = String::new();
    let seating = if report.all_orders { "every order" } else { "every rotation" };
    writeln!(
        out,
        "{} free-for-all: {} players, {} rounds of {} ({seating}), fair share {}",
        report.game,
        report.players,
        report.rounds,
        report.games / report.rounds.max(1),
        percent(report.fair_share)
    )
    .unwrap();
    let mut order: Vec<usize> = (0..report.standings.len()).collect();
    order.sort_by(|&a, &b| report.standings[b].score.total_cmp(&report.standings[a].score));
    for (rank, &i) in order.iter().enumerate() {
        let s = &report.standings[i];
        writeln!(
            out,
            "{:>2}. {:<width$}  score {:>6} [{}, {}]  won {} of {}",
            rank + 1,
            s.agent,
            percent(s.score),
            percent(s.low),
            percent(s.high),
            s.wins,
            s.games
        )
        .unwrap();
    }
    writeln!(out, "{}", speed(report.records.len(), report.elapsed.as_secs_f64(), threads)).unwrap();
    out
}

pub fn tournament_table(report: &TournamentReport, threads: usize) -> String {
    let width = report.agents.iter().map(|a| a.len()).max().unwrap_or(0).max(5);
    let mut out = String::new();
    writeln!(out, "{} round robin: {} agents (results against the field)", report.game, report.agents.len())
        .unwrap();
    let mut order: Vec<usize> = (0..report.agents.len()).collect();
    order.sort_by(|&a, &b| report.totals[b].mean().total_cmp(&report.totals[a].mean()));
    for (rank, &i) in order.iter().enumerate() {
        writeln!(out, "{:>2}. {}", rank + 1, score_line(&report.agents[i], &report.totals[i], width))
            .unwrap();
    }
    writeln!(out, "pairings:").unwrap();
    let pair_width = report.pairs.iter().map(|p| p.first.len() + p.second.len() + 4).max().unwrap_or(0);
    for pair in &report.pairs {
        let name = format!("{} vs {}", pair.first, pair.second);
        writeln!(out, "    {}", score_line(&name, &pair.score, pair_width)).unwrap();
    }
    writeln!(out, "{}", speed(report.records.len(), report.elapsed.as_secs_f64(), threads)).unwrap();
    out
}

pub fn sprt_table(report: &SprtReport, threads: usize) -> String {
    let r = &report.result;
    let mut out = String::new();
    writeln!(
        out,
        "{}: SPRT {} vs {}, H0 Elo {} H1 Elo {}, alpha {} beta {}",
        report.game,
        r.first,
        r.second,
        report.sprt.elo0,
        report.sprt.elo1,
        report.sprt.alpha,
        report.sprt.beta
    )
    .unwrap();
    writeln!(out, "{}", score_line(&r.first, &r.score, r.first.len())).unwrap();
    let verdict = match report.verdict {
        ply_arena::SprtVerdict::H1 => "H1 accepted: the first agent is stronger",
        ply_arena::SprtVerdict::H0 => "H0 accepted: no gain of elo1 or more",
        ply_arena::SprtVerdict::Continue => "inconclusive: the game limit was reached first",
    };
    writeln!(out, "LLR {:.3} (bounds {:.3}, {:.3}): {verdict}", report.llr, report.bounds.0, report.bounds.1)
        .unwrap();
    writeln!(out, "{}", speed(report.records.len(), report.elapsed.as_secs_f64(), threads)).unwrap();
    out
}

/// The bench's signature: the total iteration count and every game's checksum folded into one,
/// in the order given. Both change exactly when search behaviour does (crates/cli/tests/bench.rs
/// pins them for every game).
pub fn bench_signature(reports: &[BenchReport]) -> (u64, u64) {
    let total = reports.iter().map(|r| r.total_iterations()).sum();
    let checksum = reports.iter().fold(0, |acc, r| ply_core::rng::derive_seed(acc, r.checksum()));
    (total, checksum)
}

pub fn bench_table(reports: &[BenchReport]) -> String {
    let mut out = String::new();
    let mut seconds = 0.0;
    for report in reports {
        for line in &report.lines {
            let secs = line.elapsed.as_secs_f64();
            writeln!(
                out,
                "{:<9} {:<24} {:>10} iterations {:>8.3} s {:>12.0}/s  best {:<5} {}",
                report.game,
                line.agent,
                line.iterations,
                secs,
                line.iterations as f64 / secs.max(1e-9),
                line.best,
                line.position
            )
            .unwrap();
        }
        if let Some(r) = &report.random_games {
            let secs = r.elapsed.as_secs_f64();
            writeln!(
                out,
                "{:<9} {:<24} {:>10} games      {:>8.3} s {:>12.0}/s  ({} actions)",
                report.game,
                "random games",
                r.games,
                secs,
                r.games as f64 / secs.max(1e-9),
                r.actions
            )
            .unwrap();
        }
        seconds += report.total_elapsed().as_secs_f64();
    }
    let (total, checksum) = bench_signature(reports);
    writeln!(out, "signature: {total} iterations, checksum {checksum:016x}").unwrap();
    writeln!(out, "speed:     {:.0} iterations/s over {seconds:.2} s", total as f64 / seconds.max(1e-9))
        .unwrap();
    out
}

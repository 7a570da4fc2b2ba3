use ply_arena::record::{read, write_jsonl};
use ply_arena::{RunOptions, Sprt, SprtVerdict, entry, replay};
use ply_connect4::Connect4;
use ply_core::{AgentSpec, Budget, Game};
use ply_pig::Pig;

fn options(games: u64, seed: u64, threads: usize, game_options: &str) -> RunOptions {
    RunOptions {
        options: game_options.into(),
        games,
        seed,
        budget: Budget::iterations(500),
        threads,
        progress: false,
        openings: None,
        stop: Default::default(),
    }
}

fn spec(s: &str) -> AgentSpec {
    AgentSpec::parse(s).unwrap()
}

#[test]
fn same_seed_same_games_whatever_the_thread_count() {
    let game = entry::<Connect4>();
    let (a, b) = (spec("mcts"), spec("alphabeta"));
    let one = game.run_match([&a, &b], &options(12, 4, 1, "")).unwrap();
    let two = game.run_match([&a, &b], &options(12, 4, 2, "")).unwrap();
    let three = game.run_match([&a, &b], &options(12, 4, 3, "")).unwrap();
    assert_eq!(one.records, two.records);
    assert_eq!(one.records, three.records);
    assert_eq!(one.result.score, two.result.score);
    let other_seed = game.run_match([&a, &b], &options(12, 5, 2, "")).unwrap();
    assert_ne!(one.records, other_seed.records);
}

#[test]
fn pairs_share_the_opening_and_swap_seats() {
    let game = entry::<Connect4>();
    let (a, b) = (spec("alphabeta"), spec("random"));
    let report = game.run_match([&a, &b], &options(10, 9, 2, "")).unwrap();
    for pair in report.records.chunks(2) {
        assert_eq!(pair[0].seed, pair[1].seed);
        assert_eq!(pair[0].actions[..2], pair[1].actions[..2], "the random opening is shared");
        assert_eq!(pair[0].seats, vec!["alphabeta", "random"]);
        assert_eq!(pair[1].seats, vec!["random", "alphabeta"]);
    }
    let seeds: std::collections::HashSet<Option<u64>> = report.records.iter().map(|r| r.seed).collect();
    assert_eq!(seeds.len(), 5);
}

#[test]
fn alphabeta_never_loses_to_random_and_records_replay() {
    let game = entry::<Connect4>();
    let (a, b) = (spec("alphabeta"), spec("random"));
    let report = game.run_match([&a, &b], &options(40, 1, 2, "")).unwrap();
    assert_eq!(report.result.score.losses, 0);
    assert!(report.result.score.wins >= 38);
    let mut buffer = Vec::new();
    write_jsonl(&mut buffer, &report.records).unwrap();
    let read = read(buffer.as_slice()).unwrap();
    assert_eq!(read, report.records);
    for record in &read {
        let end = replay::<Connect4>(record).unwrap();
        assert!(end.is_over());
        assert_eq!(end.returns().as_slice(), record.returns.as_slice());
        assert_eq!(end.to_text(), record.final_state);
    }
    let err = ply_arena::record::read("{\"game\": 1}\n".as_bytes()).unwrap_err();
    assert!(err.starts_with("record 1 (line 1): invalid type: integer `1`, expected a string"), "{err}");
}

#[test]
fn multi_player_games_with_chance_and_a_tournament() {
    let game = entry::<Pig>();
    let specs = [spec("expectimax:depth=3"), spec("mcts"), spec("random")];
    let run = |threads| game.run_tournament(&specs, &options(8, 2, threads, "players=3,target=20")).unwrap();
    let report = run(2);
    assert_eq!(report.records.len(), 3 * 8);
    assert_eq!(report.totals.iter().map(|t| t.games()).sum::<u64>(), 2 * 24);
    assert_eq!(report.records, run(1).records);
    for record in &report.records {
        assert_eq!(record.seats.len(), 3);
        let end = replay::<Pig>(record).unwrap();
        assert!(end.is_over());
        assert!(record.actions.iter().any(|a| a.parse::<u8>().is_ok()), "dice were rolled");
    }
}

#[test]
fn sprt_stops_when_the_difference_is_clear_and_replays() {
    let game = entry::<Connect4>();
    let (a, b) = (spec("alphabeta"), spec("random"));
    let sprt = Sprt { elo0: 0.0, elo1: 100.0, alpha: 0.05, beta: 0.05 };
    let one = game.run_sprt([&a, &b], sprt, &options(400, 3, 1, "")).unwrap();
    assert_eq!(one.verdict, SprtVerdict::H1);
    assert!(one.records.len() < 400 && one.records.len() % 2 == 0);
    let two = game.run_sprt([&a, &b], sprt, &options(400, 3, 2, "")).unwrap();
    assert_eq!(one.records, two.records, "the stopping point does not depend on threads");
}

#[test]
fn bad_specs_and_options_are_explained() {
    let game = entry::<Connect4>();
    let err = |a: &str, o: &str| {
        game.run_match([&spec(a), &spec("random")], &options(2, 1, 1, o)).unwrap_err().to_string()
    };
    assert!(err("minimax", "").contains("no agent 'minimax'; valid: alphabeta, mcts, random"));
    assert!(err("mcts:cc=1", "").contains("valid: c, expand"));
    assert!(err("mcts:c=x", "").contains("got 'x'"));
    assert!(err("random", "rows=5").contains("no parameter 'rows'"));
    let pig = entry::<Pig>();
    let e = pig.run_match([&spec("random"), &spec("random")], &options(2, 1, 1, "players=9")).unwrap_err();
    assert!(e.to_string().contains("between 2 and 6"));
}

#[test]
fn bench_signature_is_stable() {
    let a = entry::<Pig>().bench().unwrap();
    let b = entry::<Pig>().bench().unwrap();
    assert_eq!(a.total_iterations(), b.total_iterations());
    assert!(a.total_iterations() > 0);
}

#[test]
fn opening_moves_can_be_set_per_run() {
    let game = entry::<Connect4>();
    let (a, b) = (spec("random"), spec("random"));
    let mut run = options(4, 3, 1, "");
    run.openings = Some(5);
    let report = game.run_match([&a, &b], &run).unwrap();
    for record in &report.records {
        assert_eq!(record.opening_plies, 5);
    }
    // Both games of a pair open with the same random moves.
    assert_eq!(report.records[0].actions[..5], report.records[1].actions[..5]);
    assert_ne!(report.records[0].actions[..5], report.records[2].actions[..5]);
}

#[test]
fn a_tuning_game_that_fails_is_an_error() {
    use ply_search::genetic::GeneticConfig;
    let config = GeneticConfig {
        population: 4,
        weights: 1,
        min_weight: 0.0,
        max_weight: 200.0,
        tournaments: 1,
        tournament_size: 4,
        selected_per_tournament: 1,
        children: 1,
        mutants: 1,
        generations: 1,
        seed: 1,
    };
    // mcts takes c up to 100: the probe at c=0 passes, games with a larger c cannot be set up.
    let err = entry::<Connect4>()
        .tune(&spec("mcts"), "c", &config, &options(1, 1, 2, ""), None, &mut |_| {})
        .unwrap_err()
        .to_string();
    assert!(err.contains("tuning game failed") && err.contains("between 0 and 100"), "{err}");
}

#[test]
fn a_free_for_all_rotates_seats_over_shared_dice_and_replays_at_any_thread_count() {
    let game = entry::<Pig>();
    let specs = [spec("expectimax:depth=2"), spec("mcts"), spec("random")];
    let one = game.run_ffa(&specs, false, &options(7, 3, 1, "players=3")).unwrap();
    let two = game.run_ffa(&specs, false, &options(7, 3, 2, "players=3")).unwrap();
    assert_eq!(one.records, two.records);
    assert_eq!((one.rounds, one.games), (3, 9), "7 games round up to whole rounds of 3");
    for (round, games) in one.records.chunks(3).enumerate() {
        // The same dice for every seating of a round: each game's seed is the round's.
        assert!(games.iter().all(|g| g.seed == games[0].seed), "round {round}");
        for (shift, record) in games.iter().enumerate() {
            assert_eq!(
                record.seats,
                (0..3).map(|seat| specs[(seat + shift) % 3].to_string()).collect::<Vec<_>>()
            );
        }
    }
    assert_ne!(one.records[0].seed, one.records[3].seed, "each round its own dice");
    let total: f64 = one.standings.iter().map(|s| s.score).sum();
    assert!((total - 1.0).abs() < 1e-9, "the shares of every game sum to 1: {total}");
    for s in &one.standings {
        assert!(s.low <= s.score && s.score <= s.high, "{s:?}");
    }

    let all = game.run_ffa(&specs, true, &options(1, 3, 2, "players=3")).unwrap();
    assert_eq!(all.games, 6, "every order of three agents");
    let err = game.run_ffa(&specs[..2], false, &options(3, 3, 1, "players=3")).unwrap_err().to_string();
    assert!(err.contains("seats 3 players, but 2 agents"), "{err}");
}

#[test]
fn board_data_is_null_unless_a_game_has_a_map() {
    // A game whose position says it all has no board data; the erased state passes it on.
    let state = entry::<Connect4>().new_state("").unwrap();
    assert_eq!(state.board_json(), serde_json::Value::Null);
    assert_eq!(Connect4::default().board_json(), serde_json::Value::Null);
}

#[test]
fn a_stopped_run_ends_with_an_error_not_a_partial_report() {
    let game = entry::<Connect4>();
    let (a, b) = (spec("mcts"), spec("random"));
    let run = options(4, 1, 2, "");
    run.stop.stop();
    let err = game.run_match([&a, &b], &run).expect_err("a stopped match fails");
    assert_eq!(err.to_string(), "the run was stopped");
    let err = game.run_tournament(&[a, b, spec("alphabeta")], &run).expect_err("a stopped tournament fails");
    assert_eq!(err.to_string(), "the run was stopped");
}

#[test]
fn run_options_are_checked_with_the_command_line_messages() {
    let err = |r: Result<RunOptions, ply_core::Error>| r.err().unwrap().to_string();
    assert_eq!(err(RunOptions::new("", 0, 1, None, None, None, None)), "--games must be at least 1");
    assert_eq!(err(RunOptions::new("", 1, 1, Some(0), None, None, None)), "--time must be at least 1 ms");
    assert_eq!(err(RunOptions::new("", 1, 1, None, Some(0), None, None)), "--iters must be at least 1");
    assert_eq!(err(RunOptions::new("", 1, 1, None, None, Some(0), None)), "--threads must be at least 1");
    let run = RunOptions::new("players=3", 5, 7, None, None, Some(2), Some(0)).unwrap();
    assert_eq!((run.games, run.seed, run.threads, run.openings), (5, 7, 2, Some(0)));
    assert_eq!(run.budget, Budget::iterations(ply_arena::runner::DEFAULT_ITERATIONS));
}

#[test]
fn a_run_split_into_batches_is_the_same_run() {
    use ply_arena::runner::{match_report, tournament_pairings, tournament_report};
    use std::time::Duration;
    let game = entry::<Pig>();
    let run = options(7, 9, 2, "target=30");
    let (a, b) = (spec("expectimax:depth=1"), spec("random"));
    let whole = game.run_match([&a, &b], &run).unwrap();
    let mut records = Vec::new();
    for (start, end) in [(0, 3), (3, 4), (4, 7)] {
        records.extend(game.play_batch([&a, &b], 0, start..end, &run).unwrap());
    }
    let split = match_report("pig", [&a, &b], records, Duration::ZERO);
    assert_eq!(split.records, whole.records);
    assert_eq!(serde_json::to_value(&split.result).unwrap(), serde_json::to_value(&whole.result).unwrap());

    let specs = [a, b, spec("mcts:iters=50")];
    let whole = game.run_tournament(&specs, &run).unwrap();
    let per_pairing = tournament_pairings(3)
        .iter()
        .enumerate()
        .map(|(k, &(i, j))| {
            let mut games = game.play_batch([&specs[i], &specs[j]], k as u64, 0..2, &run).unwrap();
            games.extend(game.play_batch([&specs[i], &specs[j]], k as u64, 2..7, &run).unwrap());
            games
        })
        .collect();
    let split = tournament_report("pig", &specs, per_pairing, Duration::ZERO);
    assert_eq!(split.records, whole.records);
    let json = |r: &ply_arena::TournamentReport| {
        let mut v = serde_json::to_value(r).unwrap();
        v.as_object_mut().unwrap().remove("elapsed");
        v
    };
    assert_eq!(json(&split), json(&whole));
}

#[test]
fn a_free_for_all_in_batches_is_the_whole_run() {
    let game = entry::<Pig>();
    let specs = [spec("expectimax:depth=1"), spec("mcts:iters=100"), spec("random")];
    let run = options(7, 4, 1, "players=3,target=30");
    let whole = game.run_ffa(&specs, true, &run).unwrap();
    let plan = game.ffa_plan(&specs, true, &run).unwrap();
    assert_eq!((plan.rounds, plan.games), (2, 12), "7 games round up to 2 rounds of 3! orders");
    // Uneven batches, played last first: the records and the report are the run's.
    let mut records = Vec::new();
    for range in [8..12, 5..8, 0..5].into_iter().rev() {
        records.extend(game.play_ffa_batch(&specs, true, range, &run).unwrap());
    }
    assert_eq!(records, whole.records);
    let report = ply_arena::ffa::ffa_report("pig", &specs, true, records, whole.elapsed);
    assert_eq!(serde_json::to_value(&report).unwrap(), serde_json::to_value(&whole).unwrap());
    let err = game.ffa_plan(&specs[..2], false, &run).unwrap_err().to_string();
    assert!(err.contains("seats 3 players, but 2 agents"), "{err}");
}

#[test]
fn a_tuner_fed_from_outside_is_the_whole_run() {
    use ply_arena::tune::{Checkpoint, GeneticConfig, Tuner};
    let config = GeneticConfig {
        population: 8,
        weights: 2,
        min_weight: 0.0,
        max_weight: 10.0,
        tournaments: 2,
        tournament_size: 4,
        selected_per_tournament: 2,
        children: 3,
        mutants: 1,
        generations: 2,
        seed: 5,
    };
    let (game, agent, run) = (entry::<Connect4>(), spec("alphabeta:depth=1"), options(1, 1, 2, ""));
    let whole = game.tune(&agent, "weights", &config, &run, None, &mut |_| {}).unwrap();
    let path = std::env::temp_dir().join(format!("ply-arena-tuner-{}.json", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let checkpoint = Checkpoint { path: path.clone(), resume: false };
    let mut tuner: Tuner = game.tuner(&agent, "weights", &config, &run, Some(&checkpoint)).unwrap();
    assert_eq!(tuner.games_left(), 24);
    while let Some(games) = tuner.next_games() {
        let games = games.to_vec();
        let results = games.iter().map(|g| game.play_tune_game(&agent, "weights", &run, g)).collect();
        tuner.finish(results).unwrap();
    }
    assert_eq!(tuner.result(), whole);
    // The checkpoint it kept resumes as a finished run of `ply tune`'s.
    let resumed = Checkpoint { resume: true, ..checkpoint };
    let again = game.tune(&agent, "weights", &config, &run, Some(&resumed), &mut |_| {}).unwrap();
    assert_eq!(again, whole);
    std::fs::remove_file(&path).unwrap();
}

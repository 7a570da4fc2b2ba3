use ply_search::genetic::{GeneticConfig, TuneState, tune, tune_from};

/// A "game" between two weight vectors: the one closer to a hidden target wins.
fn closer_wins(a: &[f64], b: &[f64], _seed: u64) -> Result<f64, String> {
    let target = [7.0, 2.0, 5.0, 9.0];
    let distance = |w: &[f64]| w.iter().zip(target).map(|(x, t)| (x - t).powi(2)).sum::<f64>();
    Ok(match distance(a).total_cmp(&distance(b)) {
        std::cmp::Ordering::Less => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Greater => 0.0,
    })
}

#[test]
fn the_document_schedule_improves_on_random_genes() {
    let config = GeneticConfig::risk_document(4, 42);
    let mut generations = 0;
    let result = tune(&config, closer_wins, |_| generations += 1).unwrap();
    assert_eq!(generations, 4);
    assert_eq!(result.generations.iter().map(|g| g.games).sum::<usize>(), 4 * 10 * 45);
    let distance =
        |w: &[f64]| w.iter().zip([7.0, 2.0, 5.0, 9.0]).map(|(x, t)| (x - t).powi(2)).sum::<f64>().sqrt();
    // A uniformly random gene in [0, 10]^4 lies about 6 from the target on average.
    let mean_start: f64 = 6.0;
    assert!(distance(&result.best) < mean_start / 2.0, "best {:?}", result.best);
    assert!(result.best.iter().all(|w| (0.0..=10.0).contains(w)));
    assert_eq!(result.population.len(), 100);
}

#[test]
fn reproducible_and_validated() {
    let config = GeneticConfig { generations: 2, ..GeneticConfig::risk_document(3, 7) };
    let a = tune(&config, closer_wins, |_| {}).unwrap();
    let b = tune(&config, closer_wins, |_| {}).unwrap();
    assert_eq!(a, b);
    let bad = GeneticConfig { tournament_size: 1, ..config.clone() };
    assert!(tune(&bad, closer_wins, |_| {}).unwrap_err().contains("at least 2"));
    let bad = GeneticConfig { children: 90, mutants: 20, ..config };
    assert!(tune(&bad, closer_wins, |_| {}).is_err());
}

#[test]
fn a_failed_game_is_an_error_not_a_panic() {
    let config = GeneticConfig { generations: 2, ..GeneticConfig::risk_document(2, 3) };
    let fails_on_big_weights = |a: &[f64], b: &[f64], _seed: u64| {
        if a.iter().chain(b).any(|&w| w > 9.0) { Err(format!("weights {a:?} {b:?}")) } else { Ok(0.5) }
    };
    let mut reports = 0;
    let err = tune(&config, fails_on_big_weights, |_| reports += 1).unwrap_err();
    assert!(err.contains("weights"), "{err}");
    assert_eq!(reports, 0, "the first tournament already fails");
}

#[test]
fn weight_bounds_must_be_finite() {
    let config = GeneticConfig { generations: 1, ..GeneticConfig::risk_document(2, 3) };
    for (min, max) in [(0.0, f64::INFINITY), (f64::NEG_INFINITY, 0.0), (-1e308, 1e308), (f64::NAN, 1.0)] {
        let bad = GeneticConfig { min_weight: min, max_weight: max, ..config.clone() };
        let err = tune(&bad, |_: &[f64], _: &[f64], _| Ok(0.5), |_| {}).unwrap_err();
        assert!(err.contains("finite") || err.contains("below"), "{min} {max}: {err}");
    }
}

#[test]
fn a_run_stopped_after_any_generation_goes_on_to_the_same_result() {
    let config = GeneticConfig { generations: 4, ..GeneticConfig::risk_document(4, 9) };
    let mut saved: Vec<TuneState> = Vec::new();
    let whole = tune_from(&config, TuneState::start(&config), closer_wins, |_, state| {
        saved.push(state.clone());
        Ok(())
    })
    .unwrap();
    assert_eq!(whole, tune(&config, closer_wins, |_| {}).unwrap());
    assert_eq!(saved.len(), 4);
    for (done, state) in saved.iter().enumerate() {
        assert_eq!(state.generations_done, done + 1);
        assert_eq!(state.reports, whole.generations[..=done]);
        let mut heard = Vec::new();
        let resumed = tune_from(&config, state.clone(), closer_wins, |report, _| {
            heard.push(report.generation);
            Ok(())
        })
        .unwrap();
        assert_eq!(resumed, whole, "resumed after generation {}", done + 1);
        // Bit for bit: the weights themselves, not just within a rounding.
        let bits = |w: &[f64]| w.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&resumed.best), bits(&whole.best));
        assert_eq!(heard, (done + 2..=4).collect::<Vec<_>>(), "only the generations left are played");
    }
    // A shorter run, extended, is the longer run: its last offspring were kept waiting.
    let short = GeneticConfig { generations: 2, ..config.clone() };
    let mut after_two = None;
    tune_from(&short, TuneState::start(&short), closer_wins, |_, state| {
        after_two = Some(state.clone());
        Ok(())
    })
    .unwrap();
    assert_eq!(tune_from(&config, after_two.unwrap(), closer_wins, |_, _| Ok(())).unwrap(), whole);
}

#[test]
fn a_saved_state_must_fit_the_run() {
    let config = GeneticConfig { generations: 2, ..GeneticConfig::risk_document(3, 4) };
    let mut last = None;
    tune_from(&config, TuneState::start(&config), closer_wins, |_, state| {
        last = Some(state.clone());
        Ok(())
    })
    .unwrap();
    let last = last.unwrap();
    let fewer = GeneticConfig { generations: 1, ..config.clone() };
    let err = tune_from(&fewer, last.clone(), closer_wins, |_, _| Ok(())).unwrap_err();
    assert!(err.contains("no more generations done than asked"), "{err}");
    let wider = GeneticConfig { weights: 4, ..config.clone() };
    assert!(tune_from(&wider, last.clone(), closer_wins, |_, _| Ok(())).is_err());
    let mut cut = last.clone();
    cut.population.pop();
    assert!(tune_from(&config, cut, closer_wins, |_, _| Ok(())).is_err());
    // A run that has done all its generations only reports.
    let done =
        tune_from(&config, last.clone(), |_: &[f64], _: &[f64], _| Err("no game".to_string()), |_, _| Ok(()));
    assert_eq!(done.unwrap().generations, last.reports);
    // An error from the saving callback stops the run.
    let err = tune_from(&config, TuneState::start(&config), closer_wins, |_, _| Err("disk full".into()));
    assert_eq!(err.unwrap_err(), "disk full");
}

#[test]
fn generations_played_elsewhere_in_any_order_end_as_tune_does() {
    let mut config = GeneticConfig::risk_document(4, 9);
    config.population = 20;
    config.generations = 3;
    let mut state = TuneState::start(&config);
    while let Some(generation) = state.next_generation(&config) {
        assert_eq!(generation.games.len(), 10 * 45);
        // Played last to first, as a cluster might finish them, and put back in order.
        let mut results: Vec<_> =
            generation.games.iter().rev().map(|g| closer_wins(&g.a, &g.b, g.seed)).collect();
        results.reverse();
        state.finish_generation(&config, &generation, results).unwrap();
    }
    assert_eq!(state.result(), tune(&config, closer_wins, |_| {}).unwrap());
}

#[test]
fn a_failed_game_leaves_its_generation_open() {
    let mut config = GeneticConfig::risk_document(4, 3);
    config.population = 12;
    config.generations = 2;
    let mut state = TuneState::start(&config);
    let first = state.next_generation(&config).unwrap();
    let scores = |g: &ply_search::genetic::Generation| -> Vec<Result<f64, String>> {
        g.games.iter().map(|g| closer_wins(&g.a, &g.b, g.seed)).collect()
    };
    state.finish_generation(&config, &first, scores(&first)).unwrap();
    let before = state.clone();
    let second = state.next_generation(&config).unwrap();
    let mut failed = scores(&second);
    failed[7] = Err("seventh".into());
    failed[3] = Err("third".into());
    assert_eq!(state.finish_generation(&config, &second, failed).unwrap_err(), "third", "the first in order");
    assert_eq!(state.generations_done, 1);
    assert!(
        state.finish_generation(&config, &second, scores(&second)[1..].to_vec()).is_err(),
        "a result short"
    );
    state.finish_generation(&config, &second, scores(&second)).unwrap();
    let mut whole = before;
    let again = whole.next_generation(&config).unwrap();
    assert_eq!(again.games, second.games);
    whole.finish_generation(&config, &again, scores(&again)).unwrap();
    assert_eq!(whole, state);
    assert!(state.next_generation(&config).is_none(), "the run is done");
}

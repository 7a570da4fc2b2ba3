use ply_search::genetic::{GeneticConfig, tune};

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

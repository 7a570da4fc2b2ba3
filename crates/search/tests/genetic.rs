use ply_search::genetic::{GeneticConfig, tune};

/// A "game" between two weight vectors: the one closer to a hidden target wins.
fn closer_wins(a: &[f64], b: &[f64], _seed: u64) -> f64 {
    let target = [7.0, 2.0, 5.0, 9.0];
    let distance = |w: &[f64]| w.iter().zip(target).map(|(x, t)| (x - t).powi(2)).sum::<f64>();
    match distance(a).total_cmp(&distance(b)) {
        std::cmp::Ordering::Less => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Greater => 0.0,
    }
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

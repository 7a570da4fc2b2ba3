//! A genetic algorithm that tunes a weight vector through tournaments, as the Risk document
//! describes (SEEDS.md §1), with every number of that description an option. It knows nothing of
//! games: the caller supplies a function that plays one game between two weight vectors.
//!
//! One generation: `tournaments` times, draw `tournament_size` distinct genes and play every pair
//! once (fitness = score / games, a draw counting half); keep each tournament's best
//! `selected_per_tournament`; make `children` by averaging random pairs of the kept genes and
//! `mutants` by copying a kept gene and redrawing one weight; the new genes replace as many of
//! the worst genes of the population (by the fitness of their latest tournament; genes not yet
//! measured count as worst). After the last generation the gene with the best latest fitness wins.
//!
//! A run can stop after any generation and go on later to the same result ([`TuneState`],
//! [`tune_from`]): each generation draws from a generator of its own, seeded from the run's
//! seed and its number.

use ply_core::rng::{derive_seed, rng_from_seed};
use rand::RngExt;
use rand::seq::SliceRandom;
use rayon::prelude::*;

#[derive(Clone, Debug, PartialEq)]
pub struct GeneticConfig {
    pub population: usize,
    pub weights: usize,
    pub min_weight: f64,
    pub max_weight: f64,
    pub tournaments: usize,
    pub tournament_size: usize,
    pub selected_per_tournament: usize,
    pub children: usize,
    pub mutants: usize,
    pub generations: usize,
    pub seed: u64,
}

impl GeneticConfig {
    /// The document's numbers, for a vector of `weights` weights.
    pub fn risk_document(weights: usize, seed: u64) -> Self {
        GeneticConfig {
            population: 100,
            weights,
            min_weight: 0.0,
            max_weight: 10.0,
            tournaments: 10,
            tournament_size: 10,
            selected_per_tournament: 3,
            children: 12,
            mutants: 3,
            generations: 4,
            seed,
        }
    }

    pub fn validate(&self) -> Result<(), String> {
        let checks = [
            (self.weights > 0, "at least one weight"),
            (self.min_weight < self.max_weight, "min_weight below max_weight"),
            // Weights are drawn uniformly between the two: the span must be a finite number.
            (
                (self.max_weight - self.min_weight).is_finite(),
                "finite min_weight and max_weight, a finite span apart",
            ),
            (self.tournament_size >= 2, "tournaments of at least 2 genes"),
            (self.tournament_size <= self.population, "tournament_size at most the population"),
            (self.selected_per_tournament >= 1, "at least one gene selected per tournament"),
            (
                self.selected_per_tournament <= self.tournament_size,
                "selected_per_tournament at most tournament_size",
            ),
            (self.children + self.mutants <= self.population, "children + mutants at most the population"),
            (self.tournaments >= 1 && self.generations >= 1, "at least one tournament and one generation"),
        ];
        match checks.iter().find(|(ok, _)| !ok) {
            Some((_, need)) => Err(format!("genetic tuner needs {need}")),
            None => Ok(()),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Gene {
    pub weights: Vec<f64>,
    /// Score per game in its latest tournament.
    pub fitness: Option<f64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct GenerationReport {
    pub generation: usize,
    pub best: Vec<f64>,
    pub best_fitness: f64,
    pub mean_fitness: f64,
    pub games: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TuneResult {
    pub best: Vec<f64>,
    pub best_fitness: f64,
    pub generations: Vec<GenerationReport>,
    pub population: Vec<Gene>,
}

/// Where a run stands between two generations: enough to go on exactly as if it had never
/// stopped. Each generation draws from its own generator, seeded from the run's seed and the
/// generation's number, so nothing else of the past is needed.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneState {
    pub generations_done: usize,
    pub population: Vec<Gene>,
    /// The children and mutants of the last generation done, waiting to replace the worst genes
    /// when the next generation starts (after the run's last generation they never do).
    pub offspring: Vec<Vec<f64>>,
    pub reports: Vec<GenerationReport>,
}

impl TuneState {
    /// Generation 0: a random population.
    pub fn start(config: &GeneticConfig) -> TuneState {
        let mut rng = rng_from_seed(config.seed);
        let population = (0..config.population)
            .map(|_| Gene {
                weights: (0..config.weights)
                    .map(|_| rng.random_range(config.min_weight..=config.max_weight))
                    .collect(),
                fitness: None,
            })
            .collect();
        TuneState { generations_done: 0, population, offspring: Vec::new(), reports: Vec::new() }
    }

    /// Whether this state can be a point of a run with `config`.
    pub fn check(&self, config: &GeneticConfig) -> Result<(), String> {
        let checks = [
            (self.population.len() == config.population, "as many genes as the population"),
            (
                self.population
                    .iter()
                    .map(|g| &g.weights)
                    .chain(&self.offspring)
                    .all(|w| w.len() == config.weights),
                "genes of as many weights as the run",
            ),
            (self.reports.len() == self.generations_done, "a report per generation done"),
            (self.generations_done <= config.generations, "no more generations done than asked"),
            (
                self.offspring.len()
                    == if self.generations_done == 0 { 0 } else { config.children + config.mutants },
                "the last generation's children and mutants",
            ),
        ];
        match checks.iter().find(|(ok, _)| !ok) {
            Some((_, need)) => Err(format!("the saved run does not fit: it needs {need}")),
            None => Ok(()),
        }
    }

    /// The best gene so far, with the whole story.
    pub fn result(&self) -> TuneResult {
        let (best_index, best_fitness) = best_gene(&self.population);
        TuneResult {
            best: self.population[best_index].weights.clone(),
            best_fitness,
            generations: self.reports.clone(),
            population: self.population.clone(),
        }
    }
}

/// The generator of generation `generation` (counted from 0).
fn generation_rng(config: &GeneticConfig, generation: usize) -> ply_core::rng::Rng {
    const GENERATIONS: u64 = 0x6765_6e65_7261_7465;
    rng_from_seed(derive_seed(derive_seed(config.seed, GENERATIONS), generation as u64))
}

/// Runs the tuner. `play(a, b, seed)` plays one game and returns `a`'s score (1 win, 0.5 draw,
/// 0 loss), or why the game could not be played, which ends the run with that error; games of a
/// generation run in parallel, each with its own seed, so a run is reproducible whatever the
/// thread count. `progress` hears about each finished generation.
pub fn tune(
    config: &GeneticConfig,
    play: impl Fn(&[f64], &[f64], u64) -> Result<f64, String> + Sync,
    mut progress: impl FnMut(&GenerationReport),
) -> Result<TuneResult, String> {
    config.validate()?;
    tune_from(config, TuneState::start(config), play, |report, _| {
        progress(report);
        Ok(())
    })
}

/// Runs the tuner on from `state` (a fresh [`TuneState::start`] or one saved after a
/// generation) to `config.generations`: the same games and the same result as a run never
/// stopped. `after_generation` hears each finished generation with the state to save; an error
/// from it ends the run.
pub fn tune_from(
    config: &GeneticConfig,
    mut state: TuneState,
    play: impl Fn(&[f64], &[f64], u64) -> Result<f64, String> + Sync,
    mut after_generation: impl FnMut(&GenerationReport, &TuneState) -> Result<(), String>,
) -> Result<TuneResult, String> {
    config.validate()?;
    state.check(config)?;
    while let Some(generation) = state.next_generation(config) {
        let results: Vec<Result<f64, String>> =
            generation.games.par_iter().map(|g| play(&g.a, &g.b, g.seed)).collect();
        let report = state.finish_generation(config, &generation, results)?;
        after_generation(&report, &state)?;
    }
    Ok(state.result())
}

/// One game of a generation: `a` against `b` with this seed; its score is `a`'s.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneGame {
    pub a: Vec<f64>,
    pub b: Vec<f64>,
    pub seed: u64,
}

/// A generation whose games are drawn but not yet played ([`TuneState::next_generation`]).
/// Its games depend only on the weights and their seeds, never on each other's results (a
/// tournament's entrants are drawn before any game), so they may be played anywhere in any
/// order; [`TuneState::finish_generation`] takes their scores in the order listed.
#[derive(Clone, Debug)]
pub struct Generation {
    /// Counted from 0.
    pub number: usize,
    pub games: Vec<TuneGame>,
    /// Each tournament's entrants (indices into the population); its games are every pair of
    /// them, in [`pairs`] order, one tournament after the other in `games`.
    entrants: Vec<Vec<usize>>,
    /// The generation's generator, after the draws of the entrants: it goes on to make the
    /// offspring.
    rng: ply_core::rng::Rng,
}

/// Every pair of `n` entrants, in the order their games are seeded.
fn pairs(n: usize) -> Vec<(usize, usize)> {
    (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).collect()
}

impl TuneState {
    /// Starts the next generation: the last one's offspring replace the worst genes and every
    /// tournament's entrants are drawn; returns its games, or `None` once `config.generations`
    /// are done. The state is not a point to save again until the generation is finished.
    pub fn next_generation(&mut self, config: &GeneticConfig) -> Option<Generation> {
        let number = self.generations_done;
        if number >= config.generations {
            return None;
        }
        replace_worst(&mut self.population, std::mem::take(&mut self.offspring));
        let mut rng = generation_rng(config, number);
        let mut entrants = Vec::with_capacity(config.tournaments);
        let mut games = Vec::new();
        for tournament in 0..config.tournaments {
            let mut drawn: Vec<usize> = (0..config.population).collect();
            drawn.shuffle(&mut rng);
            drawn.truncate(config.tournament_size);
            let round_seed =
                derive_seed(config.seed, ((number * config.tournaments + tournament) as u64) << 20);
            for (k, (i, j)) in pairs(drawn.len()).into_iter().enumerate() {
                games.push(TuneGame {
                    a: self.population[drawn[i]].weights.clone(),
                    b: self.population[drawn[j]].weights.clone(),
                    seed: derive_seed(round_seed, k as u64),
                });
            }
            entrants.push(drawn);
        }
        Some(Generation { number, games, entrants, rng })
    }

    /// Ends `generation` with its games' results in the order they were listed: fitness,
    /// selection and the offspring waiting for the next generation. The first failed game in
    /// that order is the error, whichever failed first in time, so a run gives the same error
    /// however its games were spread; the state is then as it was, the generation still open.
    pub fn finish_generation(
        &mut self,
        config: &GeneticConfig,
        generation: &Generation,
        results: Vec<Result<f64, String>>,
    ) -> Result<GenerationReport, String> {
        if generation.number != self.generations_done || results.len() != generation.games.len() {
            return Err(format!(
                "generation {} has {} games; {} results for generation {} came",
                self.generations_done + 1,
                generation.games.len(),
                results.len(),
                generation.number + 1
            ));
        }
        let scores: Vec<f64> = results.into_iter().collect::<Result<_, _>>()?;
        let (number, mut rng) = (generation.number, generation.rng.clone());
        let population = &mut self.population;
        let mut selected: Vec<usize> = Vec::new();
        let mut games = 0;
        for drawn in &generation.entrants {
            let pairs = pairs(drawn.len());
            let scores = &scores[games..games + pairs.len()];
            games += pairs.len();
            let mut totals = vec![0.0; drawn.len()];
            for (&(i, j), &score) in pairs.iter().zip(scores) {
                totals[i] += score;
                totals[j] += 1.0 - score;
            }
            let per_gene_games = (drawn.len() - 1) as f64;
            for (slot, &gene) in drawn.iter().enumerate() {
                population[gene].fitness = Some(totals[slot] / per_gene_games);
            }
            let mut ranked: Vec<usize> = (0..drawn.len()).collect();
            ranked.sort_by(|&a, &b| totals[b].total_cmp(&totals[a]));
            selected.extend(ranked.iter().take(config.selected_per_tournament).map(|&slot| drawn[slot]));
        }

        let mut offspring: Vec<Vec<f64>> = Vec::new();
        for _ in 0..config.children {
            let i = rng.random_range(0..selected.len());
            // A distinct partner where there is one: averaging a gene with itself changes nothing.
            let j = if selected.len() > 1 {
                (i + rng.random_range(1..selected.len())) % selected.len()
            } else {
                i
            };
            let a = &population[selected[i]].weights;
            let b = &population[selected[j]].weights;
            offspring.push(a.iter().zip(b).map(|(x, y)| (x + y) / 2.0).collect());
        }
        for _ in 0..config.mutants {
            let mut w = population[selected[rng.random_range(0..selected.len())]].weights.clone();
            let k = rng.random_range(0..w.len());
            w[k] = rng.random_range(config.min_weight..=config.max_weight);
            offspring.push(w);
        }

        let measured: Vec<f64> = population.iter().filter_map(|g| g.fitness).collect();
        let (best_index, best_fitness) = best_gene(population);
        let report = GenerationReport {
            generation: number + 1,
            best: population[best_index].weights.clone(),
            best_fitness,
            mean_fitness: measured.iter().sum::<f64>() / measured.len().max(1) as f64,
            games,
        };
        self.offspring = offspring;
        self.reports.push(report.clone());
        self.generations_done = number + 1;
        Ok(report)
    }
}

/// The new genes take the places of the worst (genes not yet measured count as worst).
fn replace_worst(population: &mut [Gene], offspring: Vec<Vec<f64>>) {
    let mut order: Vec<usize> = (0..population.len()).collect();
    order.sort_by(|&a, &b| {
        let fa = population[a].fitness.unwrap_or(f64::NEG_INFINITY);
        let fb = population[b].fitness.unwrap_or(f64::NEG_INFINITY);
        fa.total_cmp(&fb)
    });
    for (slot, weights) in order.into_iter().zip(offspring) {
        population[slot] = Gene { weights, fitness: None };
    }
}

fn best_gene(population: &[Gene]) -> (usize, f64) {
    population
        .iter()
        .enumerate()
        .filter_map(|(i, g)| g.fitness.map(|f| (i, f)))
        .fold((0, f64::NEG_INFINITY), |best, (i, f)| if f > best.1 { (i, f) } else { best })
}

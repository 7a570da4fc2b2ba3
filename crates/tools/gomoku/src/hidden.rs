//! Fitting the evaluation's hidden layer (the engine's `engine/hidden.rs`) together with its
//! tables: the same logistic target as the tables' fit, by Adam over shuffled batches (a
//! full-batch step a pass, as the tables take, would need thousands of passes for a layer
//! whose units start at random). In logistic units while fitting; the tables are written in
//! score units and the layer in its fixed point, and the losses reported are the written
//! weights' own.

use ply_core::rng::rng_from_seed;
use rand::RngExt;

use ply_gomoku::{EvalWeights, FEATURES, HIDDEN, HIDDEN_ONE, HiddenLayer};

use crate::train::{Sample, colour_sign, flatten, sigmoid, sign, tables_from};

/// Samples a step of Adam averages over.
const BATCH: usize = 256;

/// How the layer is fitted.
#[derive(Clone, Debug)]
pub struct HiddenOptions {
    /// Passes over the samples.
    pub epochs: usize,
    /// Adam's step size, in logistic units.
    pub learning_rate: f64,
    /// The starting units and the order of the samples.
    pub seed: u64,
}

/// The weights being fitted, all in logistic units: the tables' values (the opponent's
/// negated), the tempo and black's edge, then the layer.
struct Model {
    linear: Vec<f64>,
    tempo: f64,
    colour: f64,
    rows: Vec<f64>,
    bias: Vec<f64>,
    out: Vec<f64>,
    out_bias: f64,
}

/// Where each part sits in the flat gradient and Adam's moments.
const TEMPO: usize = FEATURES;
const COLOUR: usize = TEMPO + 1;
const ROWS: usize = COLOUR + 1;
const BIAS: usize = ROWS + FEATURES * HIDDEN;
const OUT: usize = BIAS + HIDDEN;
const OUT_BIAS: usize = OUT + HIDDEN;
const PARAMETERS: usize = OUT_BIAS + 1;

impl Model {
    /// From `start`'s tables, and its layer if it has one; else the layer's units start at
    /// random, small, each half open (so that every one gets a gradient).
    fn new(start: &EvalWeights, scale: f64, seed: u64) -> Model {
        let tables = flatten(start);
        let linear = (0..FEATURES).map(|f| sign(f) * tables[f] / scale).collect();
        let one = f64::from(HIDDEN_ONE);
        let (rows, bias, out, out_bias) = match &start.hidden {
            Some(layer) => (
                layer.with_every_row().rows.iter().flatten().map(|&v| f64::from(v) / one).collect(),
                layer.bias.iter().map(|&v| f64::from(v) / one).collect(),
                layer.out.iter().map(|&v| f64::from(v) / scale).collect(),
                f64::from(layer.out_bias) / scale,
            ),
            None => {
                let mut rng = rng_from_seed(seed);
                let mut normal = |sd: f64| {
                    // Box–Muller: two uniform draws make a normal one.
                    let (u, v): (f64, f64) = (rng.random(), rng.random());
                    sd * (-2.0 * (1.0 - u).ln()).sqrt() * (std::f64::consts::TAU * v).cos()
                };
                let rows = (0..FEATURES * HIDDEN).map(|_| normal(0.05)).collect();
                let out = (0..HIDDEN).map(|_| normal(0.1)).collect();
                (rows, vec![0.5; HIDDEN], out, 0.0)
            }
        };
        Model { linear, tempo: f64::from(start.tempo) / scale, colour: 0.0, rows, bias, out, out_bias }
    }

    /// The value in logistic units, and the layer's sums into `sums`.
    fn forward(&self, sample: &Sample, sums: &mut [f64; HIDDEN]) -> f64 {
        let mut value = self.tempo + colour_sign(sample) * self.colour + self.out_bias;
        sums.copy_from_slice(&self.bias);
        for &f in &sample.features {
            value += self.linear[f as usize];
            let row = &self.rows[f as usize * HIDDEN..][..HIDDEN];
            sums.iter_mut().zip(row).for_each(|(s, r)| *s += r);
        }
        value + sums.iter().zip(&self.out).map(|(s, w)| s.clamp(0.0, 1.0) * w).sum::<f64>()
    }

    /// Adds `error`'s gradient (d loss / d value) for `sample`, whose sums `forward` gave.
    fn backward(&self, sample: &Sample, sums: &[f64; HIDDEN], error: f64, grad: &mut [f64]) {
        grad[TEMPO] += error;
        grad[COLOUR] += error * colour_sign(sample);
        grad[OUT_BIAS] += error;
        for &f in &sample.features {
            grad[f as usize] += error;
        }
        for k in 0..HIDDEN {
            grad[OUT + k] += error * sums[k].clamp(0.0, 1.0);
            // A clipped unit passes no gradient back.
            if sums[k] > 0.0 && sums[k] < 1.0 {
                let back = error * self.out[k];
                grad[BIAS + k] += back;
                for &f in &sample.features {
                    grad[ROWS + f as usize * HIDDEN + k] += back;
                }
            }
        }
    }

    fn parameters(&mut self) -> impl Iterator<Item = &mut f64> {
        self.linear
            .iter_mut()
            .chain([&mut self.tempo, &mut self.colour])
            .chain(&mut self.rows)
            .chain(&mut self.bias)
            .chain(&mut self.out)
            .chain([&mut self.out_bias])
    }

    /// The weights as the engine reads them.
    fn weights(&self, scale: f64) -> EvalWeights {
        let score = |x: f64| (x * scale).round() as i32;
        let fixed = |x: f64| (x * f64::from(HIDDEN_ONE)).round().clamp(-32767.0, 32767.0) as i16;
        let row = |values: &[f64]| -> [i16; HIDDEN] { std::array::from_fn(|k| fixed(values[k])) };
        let layer = HiddenLayer {
            rows: self.rows.chunks(HIDDEN).map(row).collect(),
            bias: row(&self.bias),
            out: std::array::from_fn(|k| score(self.out[k])),
            out_bias: score(self.out_bias),
        };
        let tables: Vec<f64> = (0..FEATURES)
            .map(|f| sign(f) * self.linear[f] * scale)
            .chain([self.tempo * scale, 0.0])
            .collect();
        tables_from(&tables, Some(layer))
    }
}

/// Fits the tables and a hidden layer to `targets` (one a sample, as odds at `scale`) from
/// `start`; the fitted weights and black's edge in score units (fitted beside them, not part
/// of them).
pub fn fit_hidden(
    samples: &[Sample],
    targets: &[f64],
    start: &EvalWeights,
    scale: f64,
    options: &HiddenOptions,
) -> (EvalWeights, f64) {
    let mut model = Model::new(start, scale, options.seed);
    let (mut first, mut second) = (vec![0.0; PARAMETERS], vec![0.0; PARAMETERS]);
    let (beta1, beta2) = (0.9f64, 0.999f64);
    let mut order: Vec<usize> = (0..samples.len()).collect();
    let mut rng = rng_from_seed(options.seed ^ 0x5eed);
    let mut grad = vec![0.0; PARAMETERS];
    let mut sums = [0.0; HIDDEN];
    let mut steps = 0;
    for _ in 0..options.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        for batch in order.chunks(BATCH) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            for &i in batch {
                let value = model.forward(&samples[i], &mut sums);
                let error = (sigmoid(value) - targets[i]) / batch.len() as f64;
                model.backward(&samples[i], &sums, error, &mut grad);
            }
            steps += 1;
            let (c1, c2) = (1.0 - beta1.powi(steps), 1.0 - beta2.powi(steps));
            for (j, p) in model.parameters().enumerate() {
                // Features a batch never saw keep their moments as they were.
                if grad[j] == 0.0 && first[j] == 0.0 {
                    continue;
                }
                first[j] = beta1 * first[j] + (1.0 - beta1) * grad[j];
                second[j] = beta2 * second[j] + (1.0 - beta2) * grad[j] * grad[j];
                *p -= options.learning_rate * (first[j] / c1) / ((second[j] / c2).sqrt() + 1e-8);
            }
        }
    }
    (model.weights(scale), model.colour * scale)
}

#[cfg(test)]
mod tests {
    use ply_gomoku::{COMBOS, THREAT_MASKS};

    use super::*;
    use crate::train::{FitOptions, fit};

    /// Samples where a point kind (the side to move's combination 5) is worth much only when
    /// it occurs exactly once: two of them are worth less than one. No sum of per-point values
    /// can say that; two clipped units can. The other features are noise worth nothing.
    fn once_only_samples() -> Vec<Sample> {
        let mut rng = rng_from_seed(9);
        (0..3000)
            .map(|_| {
                let copies = rng.random_range(0..4);
                let mut features: Vec<u16> = vec![5; copies];
                features.extend((0..6).map(|_| rng.random_range(10..COMBOS as u16)));
                let result = Some(if copies == 1 { 0.9 } else { 0.1 });
                Sample { features, result, searched: None, black_to_move: rng.random() }
            })
            .collect()
    }

    /// Tables worth nothing, to start from.
    fn zero() -> EvalWeights {
        let threats = vec![0; THREAT_MASKS];
        EvalWeights { mine: vec![0; COMBOS], theirs: vec![0; COMBOS], threats, tempo: 0, hidden: None }
    }

    fn fit_with(hidden: Option<HiddenOptions>) -> (EvalWeights, crate::train::FitReport) {
        let options = FitOptions {
            epochs: 400,
            learning_rate: 2.0,
            l2: 0.0,
            result_weight: 1.0,
            scale: Some(100.0),
            hidden,
        };
        fit(&once_only_samples(), &zero(), &options)
    }

    #[test]
    fn a_hidden_layer_learns_what_the_tables_cannot() {
        // The targets' own entropy, the least a fit can reach: 0.325.
        let entropy = -(0.9f64 * 0.9f64.ln() + 0.1 * 0.1f64.ln());
        let (_, tables) = fit_with(None);
        let hidden = HiddenOptions { epochs: 60, learning_rate: 0.01, seed: 3 };
        let (weights, layer) = fit_with(Some(hidden));
        assert!(tables.loss_after > entropy + 0.1, "tables alone: {tables:?}");
        assert!(layer.loss_after < entropy + 0.03, "with a layer: {layer:?}");
        let layer_weights = weights.hidden.as_ref().expect("a layer was fitted");
        assert!(layer_weights.out.iter().any(|&w| w != 0));
    }

    #[test]
    fn the_hidden_fit_replays_from_its_seed() {
        let samples = &once_only_samples()[..500];
        let start = zero();
        let targets: Vec<f64> = samples.iter().map(|s| f64::from(s.result.unwrap())).collect();
        let run = |seed| {
            fit_hidden(
                samples,
                &targets,
                &start,
                100.0,
                &HiddenOptions { epochs: 3, learning_rate: 0.01, seed },
            )
        };
        assert_eq!(run(4), run(4));
        assert_ne!(run(4).0, run(5).0);
    }
}

//! A small value network: sparse indicator inputs ([`super::features`]) and the race log-odds feed
//! one hidden layer of rectified units; one output, the log-odds that the side to roll wins. The
//! race log-odds also reach the output directly, so that a network whose other weights are zero
//! is the race evaluation itself and training learns what the race misses.
//!
//! File format (little-endian): the 8 bytes `PLYEWNV1`, the number of sparse inputs and of hidden
//! units as u32, then f32 arrays: input weights (a row of `hidden` per input), race-to-hidden
//! weights, hidden biases, hidden-to-output weights, the race-to-output weight, the output bias.

use ply_core::Error;
use ply_core::rng::Rng;
use rand::RngExt;

use super::features::{Features, INPUTS};

/// The hidden units of a new network, unless told otherwise.
pub const HIDDEN: usize = 64;
/// Most hidden units a network may have (the hidden layer is summed on the stack).
pub const MAX_HIDDEN: usize = 256;
const MAGIC: &[u8; 8] = b"PLYEWNV1";

#[derive(Clone, PartialEq)]
pub struct ValueNet {
    hidden: usize,
    /// A row of `hidden` weights per input.
    input: Vec<f32>,
    race_in: Vec<f32>,
    bias: Vec<f32>,
    output: Vec<f32>,
    race_out: f32,
    output_bias: f32,
}

impl std::fmt::Debug for ValueNet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ValueNet {{ inputs: {INPUTS}, hidden: {} }}", self.hidden)
    }
}

/// The hidden layer's sums before rectification (the first `hidden` of them), kept for training.
pub struct Activation {
    sums: [f32; MAX_HIDDEN],
    pub logit: f32,
}

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl ValueNet {
    /// The race evaluation plus small random weights, so that hidden units differ.
    pub fn new(hidden: usize, rng: &mut Rng) -> Self {
        assert!((1..=MAX_HIDDEN).contains(&hidden), "hidden units out of range: {hidden}");
        let mut small = |n: usize| (0..n).map(|_| rng.random_range(-0.05f32..0.05)).collect::<Vec<f32>>();
        let input = small(INPUTS * hidden);
        let race_in = small(hidden);
        let output = small(hidden);
        ValueNet { hidden, input, race_in, bias: vec![0.0; hidden], output, race_out: 1.0, output_bias: 0.0 }
    }

    pub fn hidden(&self) -> usize {
        self.hidden
    }

    fn row(&self, input: u16) -> &[f32] {
        let at = input as usize * self.hidden;
        &self.input[at..at + self.hidden]
    }

    /// Fills `sums` (one per hidden unit) with the hidden layer before rectification and returns
    /// the output's log-odds.
    fn run(&self, features: &Features, sums: &mut [f32]) -> f32 {
        for ((s, b), w) in sums.iter_mut().zip(&self.bias).zip(&self.race_in) {
            *s = b + w * features.race;
        }
        for &i in features.active() {
            for (s, w) in sums.iter_mut().zip(self.row(i)) {
                *s += w;
            }
        }
        let mut logit = self.output_bias + self.race_out * features.race;
        for (s, w) in sums.iter().zip(&self.output) {
            logit += s.max(0.0) * w;
        }
        logit
    }

    pub fn forward(&self, features: &Features) -> Activation {
        let mut sums = [0f32; MAX_HIDDEN];
        let logit = self.run(features, &mut sums[..self.hidden]);
        Activation { sums, logit }
    }

    /// The probability that the side to roll wins.
    pub fn value(&self, features: &Features) -> f32 {
        let mut sums = [0f32; MAX_HIDDEN];
        sigmoid(self.run(features, &mut sums[..self.hidden]))
    }

    /// One gradient step on the cross-entropy between the prediction and `target` (a winning
    /// probability); returns the prediction before the step.
    pub fn learn(&mut self, features: &Features, target: f32, rate: f32) -> f32 {
        let act = self.forward(features);
        let p = sigmoid(act.logit);
        let d_logit = (p - target) * rate;
        let hidden = self.hidden;
        let mut all = [0f32; MAX_HIDDEN];
        let d_sums = &mut all[..hidden];
        for ((d, w), &sum) in d_sums.iter_mut().zip(&mut self.output).zip(&act.sums[..hidden]) {
            if sum > 0.0 {
                *d = d_logit * *w;
                *w -= d_logit * sum;
            }
        }
        self.race_out -= d_logit * features.race;
        self.output_bias -= d_logit;
        for ((b, r), d) in self.bias.iter_mut().zip(&mut self.race_in).zip(d_sums.iter()) {
            *b -= d;
            *r -= d * features.race;
        }
        for &i in features.active() {
            let at = i as usize * hidden;
            for (w, d) in self.input[at..at + hidden].iter_mut().zip(d_sums.iter()) {
                *w -= d;
            }
        }
        p
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(16 + 4 * (INPUTS + 3) * self.hidden + 8);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        let floats = self.input.iter().chain(&self.race_in).chain(&self.bias).chain(&self.output);
        for x in floats.chain([&self.race_out, &self.output_bias]) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let bad = |why: String| Error::notation(format!("not an EinStein value network: {why}"));
        if bytes.len() < 16 || &bytes[..8] != MAGIC {
            return Err(bad("it does not start with PLYEWNV1".into()));
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes")) as usize;
        let (inputs, hidden) = (word(8), word(12));
        if inputs != INPUTS {
            return Err(bad(format!("it has {inputs} inputs; this build reads {INPUTS}")));
        }
        if !(1..=MAX_HIDDEN).contains(&hidden) {
            return Err(bad(format!("{hidden} hidden units, not 1 to {MAX_HIDDEN}")));
        }
        let expected = 16 + 4 * ((INPUTS + 3) * hidden + 2);
        if bytes.len() != expected {
            return Err(bad(format!("{} bytes, expected {expected}", bytes.len())));
        }
        let floats: Vec<f32> = bytes[16..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("four bytes")))
            .collect();
        if floats.iter().any(|x| !x.is_finite()) {
            return Err(bad("it holds a weight that is not a finite number".into()));
        }
        let (input, rest) = floats.split_at(INPUTS * hidden);
        let (race_in, rest) = rest.split_at(hidden);
        let (bias, rest) = rest.split_at(hidden);
        let (output, tail) = rest.split_at(hidden);
        Ok(ValueNet {
            hidden,
            input: input.to_vec(),
            race_in: race_in.to_vec(),
            bias: bias.to_vec(),
            output: output.to_vec(),
            race_out: tail[0],
            output_bias: tail[1],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::rng::rng_from_seed;

    fn sample_features() -> Features {
        Features::from_parts(&[3, 170, 460, 700, 1000, 1080], 0.7)
    }

    #[test]
    fn a_new_network_starts_near_the_race() {
        let net = ValueNet::new(HIDDEN, &mut rng_from_seed(1));
        let f = sample_features();
        assert!((net.forward(&f).logit - f.race).abs() < 0.2);
    }

    #[test]
    fn learning_steps_along_the_gradient() {
        // The change one small step makes to a weight, over the rate, must be minus the loss's
        // derivative by that weight, estimated here by central differences.
        let f = sample_features();
        let target = 0.9f64;
        let loss = |n: &ValueNet| {
            let p = sigmoid(n.forward(&f).logit) as f64;
            -(target * p.ln() + (1.0 - target) * (1.0 - p).ln())
        };
        let mut net = ValueNet::new(HIDDEN, &mut rng_from_seed(2));
        // Make every hidden unit active so that every weight matters.
        net.bias = vec![0.5; HIDDEN];
        let rate = 1e-3f32;
        let mut stepped = net.clone();
        stepped.learn(&f, target as f32, rate);
        type Weight = fn(&mut ValueNet) -> &mut f32;
        let weights: [(&str, Weight); 6] = [
            ("output", |n| &mut n.output[5]),
            ("input", |n| &mut n.input[170 * HIDDEN + 9]),
            ("race_in", |n| &mut n.race_in[3]),
            ("bias", |n| &mut n.bias[7]),
            ("race_out", |n| &mut n.race_out),
            ("output_bias", |n| &mut n.output_bias),
        ];
        for (name, weight) in weights {
            let h = 1e-2f32;
            let (mut up, mut down) = (net.clone(), net.clone());
            *weight(&mut up) += h;
            *weight(&mut down) -= h;
            let numeric = (loss(&up) - loss(&down)) / (2.0 * h as f64);
            let analytic = (*weight(&mut net.clone()) - *weight(&mut stepped)) as f64 / rate as f64;
            assert!(
                (numeric - analytic).abs() < 2e-3 + 0.02 * numeric.abs(),
                "{name}: {numeric} vs {analytic}"
            );
        }
        // And learning moves the prediction towards the target.
        for _ in 0..50 {
            net.learn(&f, 0.9, 0.05);
        }
        assert!((net.value(&f) - 0.9).abs() < 0.05);
    }

    #[test]
    fn files_round_trip_and_bad_files_are_refused() {
        let net = ValueNet::new(HIDDEN, &mut rng_from_seed(3));
        let bytes = net.to_bytes();
        assert_eq!(ValueNet::from_bytes(&bytes).unwrap(), net);
        assert!(ValueNet::from_bytes(b"nonsense").is_err());
        assert!(ValueNet::from_bytes(&bytes[..bytes.len() - 4]).unwrap_err().to_string().contains("bytes"));
        let mut other = bytes.clone();
        other[12] = 32;
        assert!(ValueNet::from_bytes(&other).unwrap_err().to_string().contains("bytes"));
        other[12..16].copy_from_slice(&0u32.to_le_bytes());
        assert!(ValueNet::from_bytes(&other).unwrap_err().to_string().contains("hidden"));
        let small = ValueNet::new(8, &mut rng_from_seed(4));
        assert_eq!(ValueNet::from_bytes(&small.to_bytes()).unwrap(), small);
        let mut nan = bytes;
        let at = nan.len() - 4;
        nan[at..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(ValueNet::from_bytes(&nan).unwrap_err().to_string().contains("finite"));
    }
}

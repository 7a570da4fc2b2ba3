//! The evaluation's hidden layer: the features the tables read (each candidate point's
//! combination for either side, and the threat mask) also add a row of [`HIDDEN`] numbers to
//! an accumulator; each sum is clipped to 0..1 and the clipped sums are weighed into the
//! value. The tables add up what each point is worth on its own; the layer sees how points
//! combine (two points that each make an open three are worth more than twice one), which a
//! sum of per-point values cannot. Small integers throughout, as NNUE engines keep them: a
//! point costs two vector additions, and the value is the same on every machine.

use std::collections::HashSet;

use super::eval::{COMBOS, THREAT_MASKS, combo_named, combo_shapes, mask_named, mask_names, shapes_text};

/// Units of the hidden layer.
pub const HIDDEN: usize = 16;

/// One in the hidden units' fixed point: an accumulator at `HIDDEN_ONE` is a unit at its clip.
pub const HIDDEN_ONE: i16 = 512;

/// The features' count: the side to move's combinations, the opponent's, the threat masks.
pub const FEATURES: usize = 2 * COMBOS + THREAT_MASKS;

/// What [`HiddenLayer::parse_line`] keeps as read: a feature's row by its number, and these.
const BIAS_LINE: usize = FEATURES;
pub(super) const OUT_LINE: usize = FEATURES + 1;

/// A row of the hidden layer: one number a unit.
pub type Row = [i16; HIDDEN];

/// The layer's weights (see the module's comment).
#[derive(Clone, Debug, PartialEq)]
pub struct HiddenLayer {
    /// A feature's row, in the order of `quiet_features`: the side to move's combination at a
    /// candidate point, the opponent's at [`COMBOS`] on, a threat mask at twice that on (the
    /// empty mask adds nothing).
    pub rows: Vec<Row>,
    /// Where each unit's accumulator starts.
    pub bias: Row,
    /// A unit's worth at its clip, in score units.
    pub out: [i32; HIDDEN],
    /// The layer's own constant, in score units.
    pub out_bias: i32,
}

impl HiddenLayer {
    /// A layer that adds nothing (every weight 0).
    pub fn zero() -> Self {
        HiddenLayer { rows: vec![[0; HIDDEN]; FEATURES], bias: [0; HIDDEN], out: [0; HIDDEN], out_bias: 0 }
    }

    /// The same layer with a row for every feature (missing ones zero, extra ones dropped).
    pub fn with_every_row(&self) -> Self {
        let mut layer = self.clone();
        layer.rows.resize(FEATURES, [0; HIDDEN]);
        layer
    }

    /// The layer's value of a position given by its features (as `quiet_features` lists them);
    /// a feature without a row adds nothing.
    pub fn value(&self, features: &[u16]) -> i32 {
        let mut sums = self.bias;
        for &f in features {
            if let Some(row) = self.rows.get(f as usize) {
                add_row(&mut sums, row);
            }
        }
        self.output(&sums)
    }

    /// A weights file's `hidden` line, its fields after the word: `bias` and a row, `out`, the
    /// constant and a row, `mine SHAPES` or `theirs SHAPES` and a combination's row, or
    /// `threats MINE THEIRS` and a mask's row. `seen` keeps what was read, so that nothing is
    /// given twice.
    pub(super) fn parse_line(&mut self, fields: &[&str], seen: &mut HashSet<usize>) -> Result<(), String> {
        let key = match fields {
            ["bias", values @ ..] => {
                self.bias = parse_row(values)?;
                BIAS_LINE
            }
            ["out", constant, values @ ..] => {
                self.out_bias = constant.parse().map_err(|_| format!("'{constant}' is not a number"))?;
                self.out = parse_row(values)?;
                OUT_LINE
            }
            [side @ ("mine" | "theirs"), shapes, values @ ..] => {
                let c = combo_named(shapes)?;
                let feature = if *side == "mine" { c } else { COMBOS + c };
                self.rows[feature] = parse_row(values)?;
                feature
            }
            ["threats", mine, theirs, values @ ..] => {
                let feature = 2 * COMBOS + mask_named(mine, theirs)?;
                self.rows[feature] = parse_row(values)?;
                feature
            }
            _ => {
                return Err(format!(
                    "expected 'hidden bias', 'hidden out N', 'hidden mine|theirs SHAPES' or 'hidden threats MINE THEIRS', then {HIDDEN} numbers"
                ));
            }
        };
        if !seen.insert(key) {
            return Err("a hidden row given twice".to_string());
        }
        Ok(())
    }

    /// The layer's lines of a weights file (see [`Self::parse_line`]); rows of zeros
    /// (combinations no fit has seen) are left out.
    pub(super) fn to_text(&self) -> String {
        let mut out = format!("hidden bias {}\n", row_text(&self.bias));
        out.push_str(&format!("hidden out {} {}\n", self.out_bias, row_text(&self.out)));
        for (f, row) in self.rows.iter().enumerate().filter(|(_, r)| r.iter().any(|&v| v != 0)) {
            let name = if f < 2 * COMBOS {
                let side = if f < COMBOS { "mine" } else { "theirs" };
                format!("{side} {}", shapes_text(combo_shapes(f % COMBOS)))
            } else {
                let (mine, theirs) = mask_names(f - 2 * COMBOS);
                format!("threats {mine} {theirs}")
            };
            out.push_str(&format!("hidden {name} {}\n", row_text(row)));
        }
        out
    }

    /// The value of the accumulated sums.
    #[inline]
    pub(super) fn output(&self, sums: &Row) -> i32 {
        // In 64 bits: a file may hold any 32-bit weights, and their sum must not wrap.
        let weighed: i64 =
            (0..HIDDEN).map(|k| i64::from(self.out[k]) * i64::from(sums[k].clamp(0, HIDDEN_ONE))).sum();
        let value = i64::from(self.out_bias) + weighed / i64::from(HIDDEN_ONE);
        value.clamp(i64::from(i16::MIN), i64::from(i16::MAX)) as i32
    }
}

/// Adds a row to the sums. Saturating, so that no set of weights can wrap a sum around (and
/// a compiler turns it into one vector instruction).
#[inline]
pub(super) fn add_row(sums: &mut Row, row: &Row) {
    for k in 0..HIDDEN {
        sums[k] = sums[k].saturating_add(row[k]);
    }
}

/// Takes a row away from the sums (a forbidden point's, under renju).
#[inline]
pub(super) fn remove_row(sums: &mut Row, row: &Row) {
    for k in 0..HIDDEN {
        sums[k] = sums[k].saturating_sub(row[k]);
    }
}

/// Reads `HIDDEN` numbers of a weights file's line.
fn parse_row<T: std::str::FromStr + Copy + Default>(fields: &[&str]) -> Result<[T; HIDDEN], String> {
    if fields.len() != HIDDEN {
        return Err(format!("{HIDDEN} numbers expected, {} given", fields.len()));
    }
    let mut row = [T::default(); HIDDEN];
    for (slot, field) in row.iter_mut().zip(fields) {
        *slot = field.parse().map_err(|_| format!("'{field}' is not a number in range"))?;
    }
    Ok(row)
}

/// A row as a weights file's numbers.
fn row_text<T: std::fmt::Display>(row: &[T]) -> String {
    row.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
pub(super) mod tests {
    use ply_core::rng::rng_from_seed;
    use rand::RngExt;

    use super::super::EvalWeights;
    use super::*;

    /// A layer of random weights, large enough that units are clipped at both ends.
    pub(in super::super) fn random_layer(seed: u64) -> HiddenLayer {
        let mut rng = rng_from_seed(seed);
        let mut layer = HiddenLayer::zero();
        for row in &mut layer.rows {
            *row = std::array::from_fn(|_| rng.random_range(-150..150));
        }
        layer.bias = std::array::from_fn(|_| rng.random_range(0..HIDDEN_ONE));
        layer.out = std::array::from_fn(|_| rng.random_range(-200..200));
        layer.out_bias = -17;
        layer
    }

    #[test]
    fn a_layer_round_trips_through_the_weights_file() {
        let mut weights = EvalWeights::learned().clone();
        weights.hidden = Some(random_layer(1));
        let text = weights.to_text("with a layer");
        assert_eq!(EvalWeights::parse(&text).unwrap(), weights);
        // Rows of zeros are left out of the file and read back as zeros.
        weights.hidden.as_mut().unwrap().rows[7] = [0; HIDDEN];
        let shorter = weights.to_text("with a layer");
        assert_eq!(shorter.lines().count(), text.lines().count() - 1);
        assert_eq!(EvalWeights::parse(&shorter).unwrap(), weights);
    }

    #[test]
    fn bad_hidden_lines_say_what_is_wrong() {
        let good = EvalWeights::hand(130).to_text("");
        let row = |n: usize| vec!["1"; n].join(" ");
        let out = format!("hidden out 0 {}\n", row(HIDDEN));
        let cases = [
            (format!("{good}hidden bias {}\n", row(HIDDEN)), "without its 'hidden out' line"),
            (format!("{good}{out}hidden bias {}\n", row(HIDDEN - 1)), "16 numbers expected, 15 given"),
            (format!("{good}{out}hidden mine none,none,none,none {}\n", row(HIDDEN + 1)), "17 given"),
            (
                format!("{good}{out}hidden bias 40000 {}\n", row(HIDDEN - 1)),
                "'40000' is not a number in range",
            ),
            (
                format!("{good}{out}hidden theirs none,none,nine,none {}\n", row(HIDDEN)),
                "unknown shape 'nine'",
            ),
            (format!("{good}{out}hidden threats five none {}\n", row(HIDDEN)), "unknown threat 'five'"),
            (format!("{good}{out}{out}"), "a hidden row given twice"),
            (format!("{good}{out}hidden weights {}\n", row(HIDDEN)), "expected 'hidden bias'"),
        ];
        for (text, expected) in cases {
            let err = EvalWeights::parse(&text).unwrap_err();
            assert!(err.contains(expected), "{err} should say {expected}");
        }
    }

    #[test]
    fn a_unit_counts_between_nothing_and_its_clip() {
        let mut layer = HiddenLayer::zero();
        layer.out[0] = 100;
        layer.rows[3][0] = HIDDEN_ONE / 2;
        layer.rows[7][0] = -HIDDEN_ONE;
        assert_eq!(layer.value(&[]), 0);
        assert_eq!(layer.value(&[3]), 50);
        assert_eq!(layer.value(&[3, 3, 3]), 100, "clipped at one");
        assert_eq!(layer.value(&[3, 7]), 0, "clipped at nothing");
        layer.out_bias = -7;
        assert_eq!(layer.value(&[3]), 43);
    }

    #[test]
    fn a_layer_built_with_too_few_rows_reads_the_missing_ones_as_zeros() {
        let mut weights = EvalWeights::learned().clone();
        let full = weights.hidden.clone().expect("the shipped tables have a layer");
        let mut short = full.clone();
        short.rows.truncate(COMBOS);
        let features = [3, 7, COMBOS as u16 + 2, 2 * COMBOS as u16 + 9];
        let mut zeroed = full.clone();
        zeroed.rows[COMBOS..].iter_mut().for_each(|row| *row = [0; HIDDEN]);
        assert_eq!(short.value(&features), zeroed.value(&features));
        assert_eq!(short.with_every_row(), zeroed);
        // The engine searches with it, as with the zeroed layer.
        weights.hidden = Some(short);
        let board = crate::notation::parse_board(
            &crate::board::Board::new(15, crate::board::Rule::Freestyle),
            "h8 i9 g9",
        )
        .unwrap();
        let config = super::super::EngineConfig { tt_bits: 12, max_depth: 4, ..Default::default() };
        let limits = ply_core::Limits::new(ply_core::Budget::iterations(20_000));
        let short_move =
            super::super::Engine::with_weights(config.clone(), &weights).think(&board, &limits, &mut |_| {});
        weights.hidden = Some(zeroed);
        let zeroed_move =
            super::super::Engine::with_weights(config, &weights).think(&board, &limits, &mut |_| {});
        assert_eq!(short_move.action, zeroed_move.action);
        assert_eq!(short_move.info.iterations, zeroed_move.info.iterations);
    }

    #[test]
    fn sums_saturate_rather_than_wrap() {
        let mut layer = HiddenLayer::zero();
        layer.out[0] = 100;
        layer.rows[1][0] = i16::MAX;
        assert_eq!(layer.value(&[1, 1, 1]), 100);
        // The value is kept within 16 bits, as the tables' values are, whatever the weights.
        layer.out = [i32::MAX; HIDDEN];
        layer.out_bias = i32::MAX;
        assert_eq!(layer.value(&[1]), i32::from(i16::MAX));
        layer.out = [i32::MIN; HIDDEN];
        layer.out_bias = i32::MIN;
        assert_eq!(layer.value(&[1]), i32::from(i16::MIN));
    }
}

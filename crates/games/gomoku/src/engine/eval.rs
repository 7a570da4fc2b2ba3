//! The pattern-indexed evaluation: every empty candidate point is worth a table value for the
//! combination of the four line shapes a stone there would make — one table for the side to
//! move's points, one for the opponent's — and the position is worth their difference plus a
//! bonus for having the move, plus a value for which threats either side could make somewhere
//! (the threat mask, after Rapfi's classical evaluation: what no single point's value sees,
//! such as a four for one side beside an open three for the other). The tables are fitted by
//! `gomoku-train` (crate `ply-gomoku-tools`, docs/gomoku.md) to self-play results and then to
//! a stronger engine's judgement of positions from self-play, and shipped in `weights.txt`
//! with a hidden layer over the same features (`hidden.rs`); `hand` rebuilds the hand-set point
//! scores the engine used before as tables of the same form.

use std::sync::OnceLock;

use super::hidden::{HiddenLayer, Row};
use super::position::PackedThreat;
use crate::lines::Shape;

/// Line shapes a stone can make in one direction (see [`Shape`]).
const SHAPES: usize = 9;

/// Combinations of four shapes, order ignored: multisets of 4 out of 9, C(12, 4).
pub const COMBOS: usize = 495;

/// Threat masks: seven bits, see [`ThreatSummary::mask`].
pub const THREAT_MASKS: usize = 128;

/// The threats stones on a set of points would make, for the side to move and for the
/// opponent, as ORed threat words (see [`PackedThreat::or`]): a few instructions a point, as a
/// node's evaluation must be.
#[derive(Clone, Copy, Default)]
pub(super) struct ThreatSummary {
    mine: PackedThreat,
    my_doubles: PackedThreat,
    theirs: PackedThreat,
    their_doubles: PackedThreat,
}

impl ThreatSummary {
    #[inline]
    pub fn add(&mut self, mine: PackedThreat, theirs: PackedThreat) {
        self.mine = self.mine.or(mine);
        self.my_doubles = self.my_doubles.or(mine.double_threes_only());
        self.theirs = self.theirs.or(theirs);
        self.their_doubles = self.their_doubles.or(theirs.double_threes_only());
    }

    /// The threat mask: bits 0–2 the side to move's four, double open three and open three
    /// somewhere (its winning threats are left out: the search never evaluates a position that
    /// has one without a four to answer first), bits 3–6 the opponent's winning threat, four,
    /// double open three and open three.
    pub fn mask(&self) -> usize {
        let side = |any: PackedThreat, doubles: PackedThreat| {
            usize::from(any.winning())
                | usize::from(any.has_four()) << 1
                | usize::from(doubles.open_threes() != 0) << 2
                | usize::from(any.open_threes() != 0) << 3
        };
        side(self.mine, self.my_doubles) >> 1 | side(self.theirs, self.their_doubles) << 3
    }
}

/// The four shapes of an ordered index `s0 + 9 s1 + 81 s2 + 729 s3`, ascending, as the index
/// `s3 + 9 s2 + 81 s1 + 729 s0` they read as when sorted (so that sorted quadruples in ascending
/// index are in lexicographic order).
const fn sorted_index(index: usize) -> usize {
    let mut s = [
        index % SHAPES,
        index / SHAPES % SHAPES,
        index / (SHAPES * SHAPES) % SHAPES,
        index / (SHAPES * SHAPES * SHAPES),
    ];
    let mut i = 1;
    while i < 4 {
        let mut j = i;
        while j > 0 && s[j - 1] > s[j] {
            let t = s[j];
            s[j] = s[j - 1];
            s[j - 1] = t;
            j -= 1;
        }
        i += 1;
    }
    s[3] + SHAPES * s[2] + SHAPES * SHAPES * s[1] + SHAPES * SHAPES * SHAPES * s[0]
}

/// Per ordered index, its combination: the rank of its sorted shapes among all sorted
/// quadruples in lexicographic order. And per combination, its sorted shapes' index.
static COMBO_OF: [u16; SHAPES * SHAPES * SHAPES * SHAPES] = {
    let mut rank_of_sorted = [0u16; SHAPES * SHAPES * SHAPES * SHAPES];
    let mut next = 0;
    let mut i = 0;
    while i < rank_of_sorted.len() {
        if sorted_index(i) == i {
            rank_of_sorted[i] = next;
            next += 1;
        }
        i += 1;
    }
    let mut combo = [0u16; SHAPES * SHAPES * SHAPES * SHAPES];
    let mut i = 0;
    while i < combo.len() {
        combo[i] = rank_of_sorted[sorted_index(i)];
        i += 1;
    }
    combo
};

/// Where a direction's shape sits in a point's ordered index `s0 + 9 s1 + 81 s2 + 729 s3`: a
/// changed shape moves the index by the difference times this, so the engine keeps the index
/// up to date without re-reading the other three lines.
pub(super) const DIRECTION_WEIGHT: [i32; 4] = [1, 9, 81, 729];

/// The ordered index of a side's four shapes, from a point's four pair bytes (black's shape in
/// the low four bits, white's in the high four).
#[inline]
pub(super) fn ordered(shapes: [u8; 4], side: usize) -> u16 {
    let s = shapes.map(|pair| ((pair >> (4 * side)) & 15) as usize);
    (s[0] + SHAPES * s[1] + SHAPES * SHAPES * s[2] + SHAPES * SHAPES * SHAPES * s[3]) as u16
}

/// The combination of a side's four shapes, from a point's four pair bytes.
#[inline]
pub(super) fn combo(shapes: [u8; 4], side: usize) -> u16 {
    COMBO_OF[ordered(shapes, side) as usize]
}

/// The tables as the engine reads them: by ordered index rather than by combination (an
/// index is kept per point at the cost of an add; a combination would need a lookup), two
/// bytes a value so that both fit in the first-level cache.
#[derive(Clone)]
pub(super) struct ExpandedTables {
    pub mine: Box<[i16]>,
    pub theirs: Box<[i16]>,
    pub threats: Box<[i32]>,
    pub tempo: i32,
    /// Shared by the threads of a search, as the layer's rows are read-only.
    pub hidden: Option<std::sync::Arc<HiddenLayer>>,
}

impl ExpandedTables {
    pub fn new(weights: &EvalWeights) -> Self {
        let expand = |table: &[i32]| {
            COMBO_OF
                .iter()
                .map(|&c| table[c as usize].clamp(i16::MIN.into(), i16::MAX.into()) as i16)
                .collect()
        };
        ExpandedTables {
            mine: expand(&weights.mine),
            theirs: expand(&weights.theirs),
            // Every mask has a value, however the weights were made.
            threats: (0..THREAT_MASKS).map(|k| weights.threats.get(k).copied().unwrap_or(0)).collect(),
            tempo: weights.tempo,
            // A layer built in code rather than read may have fewer rows: the rest add nothing.
            hidden: weights.hidden.as_ref().map(|layer| std::sync::Arc::new(layer.with_every_row())),
        }
    }
}

/// The row of side `side`'s combination at a point, from the point's ordered index.
#[inline]
pub(super) fn hidden_row(layer: &HiddenLayer, ordered: u16, opponent: bool) -> &Row {
    &layer.rows[COMBO_OF[ordered as usize] as usize + if opponent { COMBOS } else { 0 }]
}

/// The shapes of a combination, in ascending order.
pub(super) fn combo_shapes(c: usize) -> [Shape; 4] {
    let index = COMBO_OF.iter().position(|&r| r as usize == c).expect("a combination below COMBOS");
    let mut shapes = [0, 1, 2, 3].map(|k| index / SHAPES.pow(k) % SHAPES);
    shapes.sort_unstable();
    shapes.map(|s| crate::lines::SHAPES[s])
}

/// The evaluation's tables, in the engine's score units.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalWeights {
    /// A candidate point's worth to the side to move, by combination.
    pub mine: Vec<i32>,
    /// A candidate point's worth to the opponent (subtracted), by combination.
    pub theirs: Vec<i32>,
    /// The position's worth by its threat mask (see [`ThreatSummary::mask`]); fits leave the
    /// empty mask's at 0, the tempo standing for it.
    pub threats: Vec<i32>,
    /// Having the move.
    pub tempo: i32,
    /// A layer over the same features that sees how points combine (`hidden.rs`), if any.
    pub hidden: Option<HiddenLayer>,
}

impl EvalWeights {
    /// The hand-set evaluation as tables: a point's score at `attack` percent for the side to
    /// move and 100% for the opponent, a quarter of it in score units, 20 for the move.
    pub fn hand(attack: i32) -> Self {
        let score = |c| f64::from(super::position::hand_point_score(combo_shapes(c)));
        EvalWeights {
            mine: (0..COMBOS).map(|c| (score(c) * f64::from(attack) / 400.0).round() as i32).collect(),
            theirs: (0..COMBOS).map(|c| (score(c) / 4.0).round() as i32).collect(),
            threats: vec![0; THREAT_MASKS],
            tempo: 20,
            hidden: None,
        }
    }

    /// The shipped, learned tables.
    pub fn learned() -> &'static EvalWeights {
        static LEARNED: OnceLock<EvalWeights> = OnceLock::new();
        LEARNED.get_or_init(|| {
            EvalWeights::parse(include_str!("weights.txt"))
                .expect("the shipped weights.txt parses (a unit test checks it)")
        })
    }

    /// Tables from a file in the text form (what `gomoku-train fit --out` writes), or what is
    /// wrong with it.
    pub fn load(path: &str) -> Result<Self, ply_core::Error> {
        // The shipped tables and layer take about 120 KB; anything far larger is not a tables file.
        const MAX_FILE: u64 = 1 << 20;
        let bytes = ply_core::resource::read_file_capped(path, "tables", MAX_FILE)?;
        let text =
            String::from_utf8(bytes).map_err(|e| ply_core::Error::spec(format!("tables '{path}': {e}")))?;
        Self::parse(&text).map_err(|e| ply_core::Error::spec(format!("tables '{path}': {e}")))
    }

    /// Reads the text form [`Self::to_text`] writes. Threat masks not listed are worth 0 (tables
    /// from before the threat mask read as they were).
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut weights = EvalWeights {
            mine: vec![0; COMBOS],
            theirs: vec![0; COMBOS],
            threats: vec![0; THREAT_MASKS],
            tempo: 0,
            hidden: None,
        };
        let mut seen = vec![false; COMBOS];
        let mut seen_masks = [false; THREAT_MASKS];
        let mut tempo = None;
        let mut seen_hidden = std::collections::HashSet::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |what: &str| format!("line {}: {what}: '{line}'", n + 1);
            let fields: Vec<&str> = line.split_whitespace().collect();
            match fields.as_slice() {
                ["tempo", value] => {
                    tempo = Some(value.parse().map_err(|_| at("a tempo that is not a number"))?)
                }
                ["threats", mine, theirs, value] => {
                    let mask = mask_named(mine, theirs).map_err(|e| at(&e))?;
                    if std::mem::replace(&mut seen_masks[mask], true) {
                        return Err(at("a threat mask given twice"));
                    }
                    weights.threats[mask] = value.parse().map_err(|_| at("a value that is not a number"))?;
                }
                [shapes, mine, theirs] => {
                    let c = combo_named(shapes).map_err(|e| at(&e))?;
                    if std::mem::replace(&mut seen[c], true) {
                        return Err(at("a combination given twice"));
                    }
                    weights.mine[c] = mine.parse().map_err(|_| at("a value that is not a number"))?;
                    weights.theirs[c] = theirs.parse().map_err(|_| at("a value that is not a number"))?;
                }
                ["hidden", rest @ ..] => {
                    let layer = weights.hidden.get_or_insert_with(HiddenLayer::zero);
                    layer.parse_line(rest, &mut seen_hidden).map_err(|e| at(&e))?
                }
                _ => {
                    return Err(at(
                        "expected 'tempo N', 'SHAPES MINE THEIRS', 'threats MINE THEIRS N' or 'hidden ...'",
                    ));
                }
            }
        }
        if let Some(missing) = seen.iter().position(|&s| !s) {
            return Err(format!("no values for the combination {}", shapes_text(combo_shapes(missing))));
        }
        weights.tempo = tempo.ok_or("no 'tempo' line")?;
        if weights.hidden.is_some() && !seen_hidden.contains(&super::hidden::OUT_LINE) {
            return Err("a hidden layer without its 'hidden out' line".to_string());
        }
        Ok(weights)
    }

    /// One line a combination, `shapes mine theirs`, then one a threat mask of nonzero worth,
    /// `threats mine theirs value`, under a header of `#` lines.
    pub fn to_text(&self, header: &str) -> String {
        let mut out: String = header.lines().map(|l| format!("# {l}\n")).collect();
        out.push_str(&format!("tempo {}\n", self.tempo));
        for c in 0..COMBOS {
            out.push_str(&format!("{} {} {}\n", shapes_text(combo_shapes(c)), self.mine[c], self.theirs[c]));
        }
        for (mask, &value) in self.threats.iter().enumerate().filter(|(_, v)| **v != 0) {
            let (mine, theirs) = mask_names(mask);
            out.push_str(&format!("threats {mine} {theirs} {value}\n"));
        }
        if let Some(layer) = &self.hidden {
            out.push_str(&layer.to_text());
        }
        out
    }
}

const SHAPE_NAMES: [&str; 9] =
    ["none", "two", "open2", "three", "open3", "four", "open4", "five", "overline"];

/// The combination of a comma list of four shape names, as a weights file writes it.
pub(super) fn combo_named(shapes: &str) -> Result<usize, String> {
    let named: Vec<Shape> = shapes
        .split(',')
        .map(|s| shape_named(s).ok_or_else(|| format!("unknown shape '{s}'")))
        .collect::<Result<_, _>>()?;
    let [a, b, c, d] = named[..] else { return Err("not four shapes".to_string()) };
    Ok(usize::from(combo([a as u8, b as u8, c as u8, d as u8], 0)))
}

fn shape_named(name: &str) -> Option<Shape> {
    SHAPE_NAMES.iter().position(|&n| n == name).map(|i| crate::lines::SHAPES[i])
}

/// The threats a threat mask's bits name, for the side to move and for the opponent.
const MINE_THREATS: [&str; 3] = ["four", "double3", "open3"];
const THEIR_THREATS: [&str; 4] = ["winning", "four", "double3", "open3"];

/// A threat mask as text: the side to move's threats and the opponent's, each a comma list or
/// `none`.
pub(super) fn mask_names(mask: usize) -> (String, String) {
    let names = |bits: usize, all: &[&str]| {
        let set: Vec<&str> =
            all.iter().enumerate().filter(|(i, _)| bits >> i & 1 == 1).map(|(_, n)| *n).collect();
        if set.is_empty() { "none".to_string() } else { set.join(",") }
    };
    (names(mask & 7, &MINE_THREATS), names(mask >> 3, &THEIR_THREATS))
}

pub(super) fn mask_named(mine: &str, theirs: &str) -> Result<usize, String> {
    let bits = |list: &str, all: &[&str], whose: &str| -> Result<usize, String> {
        if list == "none" {
            return Ok(0);
        }
        list.split(',').try_fold(0, |bits, name| match all.iter().position(|n| *n == name) {
            Some(i) => Ok(bits | 1 << i),
            None => Err(format!("unknown threat '{name}' for {whose} (one of {}, or none)", all.join(", "))),
        })
    };
    Ok(bits(mine, &MINE_THREATS, "the side to move")? | bits(theirs, &THEIR_THREATS, "the opponent")? << 3)
}

pub(super) fn shapes_text(shapes: [Shape; 4]) -> String {
    shapes.map(|s| SHAPE_NAMES[s as usize]).join(",")
}

impl super::Engine {
    /// The threat mask of `candidates` (see [`ThreatSummary::mask`]) with side `m` (0 black, 1
    /// white) to move and `t` the opponent. Under renju black's double threats may be
    /// forbidden points: black's threats at such a point are left out rather than checked.
    pub(super) fn threat_mask(&self, candidates: super::PointSet, m: usize, t: usize) -> usize {
        let renju = self.rule == crate::board::Rule::Renju;
        let mut summary = ThreatSummary::default();
        candidates.for_each(|p| {
            let threats = self.lines[p].threats;
            let (mut mine, mut theirs) = (threats[m], threats[t]);
            if renju && threats[0].risky() {
                let black = if m == 0 { &mut mine } else { &mut theirs };
                *black = PackedThreat::default();
            }
            summary.add(mine, theirs);
        });
        summary.mask()
    }

    /// For fitting the tables: the features [`Self::evaluate`] would read in `board` — the side
    /// to move's combination at each candidate point, then the opponent's offset by
    /// [`COMBOS`], then the threat mask offset by twice that when it is not empty — or `None`
    /// when the search would not evaluate it statically (a five to make or to stop, or a
    /// winning threat for the side to move).
    pub fn quiet_features(&mut self, board: &crate::board::Board) -> Option<Vec<u16>> {
        self.load(board);
        let me = self.to_move();
        let (m, t) = (me as usize - 1, 2 - me as usize);
        let candidates = self.candidate_set();
        if !(self.fives[m] & candidates).is_empty() || !(self.fives[t] & candidates).is_empty() {
            return None;
        }
        if self.any_threat(self.winning[m] & candidates, me, |t| t.winning) {
            return None;
        }
        let mut features = Vec::with_capacity(2 * candidates.len() + 1);
        for p in candidates {
            let shapes = self.lines[p as usize].shapes;
            features.push(combo(shapes, m));
            features.push(COMBOS as u16 + combo(shapes, t));
        }
        let mask = self.threat_mask(candidates, m, t);
        if mask != 0 {
            features.push((2 * COMBOS + mask) as u16);
        }
        Some(features)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ordering_of_four_shapes_has_one_combination() {
        let mut seen = vec![0; COMBOS];
        for i in 0..SHAPES.pow(4) {
            let s = [0, 1, 2, 3].map(|k| (i / SHAPES.pow(k) % SHAPES) as u8);
            let c = combo(s, 0) as usize;
            seen[c] += 1;
            let mut sorted = s;
            sorted.sort_unstable();
            assert_eq!(combo_shapes(c).map(|s| s as u8), sorted);
            // White's nibble reads the same.
            assert_eq!(combo(s.map(|x| x << 4), 1) as usize, c);
        }
        assert!(seen.iter().all(|&n| n > 0), "every combination occurs");
    }

    /// Tables with every threat mask worth something, so that the mask's term shows.
    fn with_threat_values() -> EvalWeights {
        let mut weights = EvalWeights::learned().clone();
        weights.threats = (0..THREAT_MASKS as i32).map(|k| if k == 0 { 0 } else { 3 * k - 190 }).collect();
        weights
    }

    #[test]
    fn the_evaluation_is_the_tables_over_the_quiet_features() {
        evaluation_reads_the_quiet_features(with_threat_values());
    }

    #[test]
    fn the_evaluation_adds_the_hidden_layer_over_the_quiet_features() {
        let mut weights = with_threat_values();
        weights.hidden = Some(super::super::hidden::tests::random_layer(5));
        evaluation_reads_the_quiet_features(weights);
    }

    /// The engine's evaluation of random quiet positions is the weights' value of their
    /// features, as the fit computes it.
    fn evaluation_reads_the_quiet_features(weights: EvalWeights) {
        use crate::board::{Board, Rule};
        use ply_core::rng::rng_from_seed;
        use rand::RngExt;
        let mut rng = rng_from_seed(4);
        let mut engine = super::super::Engine::with_weights(
            super::super::EngineConfig { tt_bits: 10, ..Default::default() },
            &weights,
        );
        let (mut checked, mut masks) = (0, std::collections::BTreeSet::new());
        for _ in 0..200 {
            let mut board = Board::new(15, Rule::Freestyle);
            for _ in 0..rng.random_range(4..30) {
                let empty: Vec<_> = board.points().filter(|&p| board.at(p) == crate::board::EMPTY).collect();
                board.place(empty[rng.random_range(0..empty.len())]);
                if board.winner().is_some() {
                    break;
                }
            }
            if board.winner().is_some() {
                continue;
            }
            let Some(features) = engine.quiet_features(&board) else { continue };
            let expected: i32 = weights.tempo
                + features
                    .iter()
                    .map(|&f| {
                        let f = f as usize;
                        if f < COMBOS {
                            weights.mine[f]
                        } else if f < 2 * COMBOS {
                            -weights.theirs[f - COMBOS]
                        } else {
                            masks.insert(f - 2 * COMBOS);
                            weights.threats[f - 2 * COMBOS]
                        }
                    })
                    .sum::<i32>()
                + weights.hidden.as_ref().map_or(0, |layer| layer.value(&features));
            let me = engine.to_move();
            assert_eq!(engine.evaluate(engine.candidate_set(), me), expected);
            checked += 1;
        }
        assert!(checked > 100, "{checked} quiet positions");
        assert!(masks.len() > 5, "threat masks seen: {masks:?}");
    }

    #[test]
    fn the_threat_mask_sees_an_open_three_for_the_opponent() {
        use crate::board::{Board, Rule};
        // Black's open three h8-j8, white's two lone stones, white to move: black could make
        // a four (f8, g8, k8, l8), and an open four, a winning threat (g8, k8); white nothing.
        let board =
            crate::notation::parse_board(&Board::new(15, Rule::Freestyle), "h8 a15 i8 o1 j8").unwrap();
        let mut engine =
            super::super::Engine::new(super::super::EngineConfig { tt_bits: 10, ..Default::default() });
        let features = engine.quiet_features(&board).unwrap();
        let mask = mask_named("none", "winning,four").unwrap();
        assert_eq!(features.last().map(|&f| f as usize), Some(2 * COMBOS + mask));
        assert_eq!(mask_names(mask), ("none".to_string(), "winning,four".to_string()));
        // Black to move after a white stone far away: black's own open four to make is a
        // winning threat, which the search answers before it evaluates, so there is no mask.
        let board = crate::notation::parse_board(&board, "h8 a15 i8 o1 j8 o15").unwrap();
        let features = engine.quiet_features(&board);
        assert_eq!(features, None, "black's open four is a winning threat: not quiet");
    }

    #[test]
    fn shipped_weights_parse_and_round_trip() {
        let w = EvalWeights::learned();
        assert_eq!(EvalWeights::parse(&w.to_text("header")).unwrap(), *w);
        let in_range = |v: &i32| i16::try_from(*v).is_ok();
        assert!(
            w.mine.iter().all(in_range) && w.theirs.iter().all(in_range),
            "the engine keeps values in 16 bits"
        );
        let hand = EvalWeights::hand(130);
        assert_eq!(EvalWeights::parse(&hand.to_text("")).unwrap(), hand);
        let threats = with_threat_values();
        assert_eq!(EvalWeights::parse(&threats.to_text("")).unwrap(), threats);
    }

    #[test]
    fn bad_weight_files_say_what_is_wrong() {
        let good = EvalWeights::hand(130).to_text("");
        let cases = [
            (good.replace("tempo 20", ""), "no 'tempo' line"),
            (good.replace("none,none,none,none 0 0", "none,none,none,nine 0 0"), "unknown shape 'nine'"),
            (
                good.replace("none,none,none,none 0 0\n", ""),
                "no values for the combination none,none,none,none",
            ),
            (good.replace("none,none,none,none 0 0", "none,none,none,none x 0"), "not a number"),
            (good.replace("none,none,none,none 0 0", "none,none,none 0 0"), "not four shapes"),
            (format!("{good}none,none,none,none 1 1\n"), "given twice"),
            (format!("{good}threats four none 5\nthreats four none 6\n"), "threat mask given twice"),
            (format!("{good}threats five none 5\n"), "unknown threat 'five' for the side to move"),
            (format!("{good}threats none open4 5\n"), "unknown threat 'open4' for the opponent"),
            (format!("{good}threats none none x\n"), "not a number"),
        ];
        for (text, expected) in cases {
            let err = EvalWeights::parse(&text).unwrap_err();
            assert!(err.contains(expected), "{err} should say {expected}");
        }
    }
}

//! The engine's own board, kept up to date stone by stone: cells, the line key of every point and
//! direction, the shapes and threats they give, and the candidate points near the stones.

use super::eval::{DIRECTION_WEIGHT, ordered};
use super::*;
use crate::lines::pair_shape;

/// The hand-set score of a line shape, by [`Shape`].
const SHAPE_SCORE: [i32; 9] = [0, 2, 8, 8, 30, 36, 300, 5000, 0];

/// The hand-set score of a point whose four lines make `shapes`, as the threats give it (the
/// shapes' scores and the bonus for a double threat).
pub(super) fn hand_point_score(shapes: [Shape; 4]) -> i32 {
    threat_from_count(shapes.iter().map(|&s| ENCODED[s as usize]).sum()).score()
}

/// A shape's contribution to a point's summed count: its score in bits 0-15, then four bits
/// each for fours (an open four counts two), open threes, fives and overlines. No field can
/// overflow into the next with four lines, so sums and differences stay exact. Sixteen entries,
/// one per value of a four-bit shape, so that indexing by one needs no bounds check.
const ENCODED: [u32; 16] = {
    let mut e = [0u32; 16];
    let mut s = 0;
    while s < 9 {
        e[s] = SHAPE_SCORE[s] as u32;
        s += 1;
    }
    e[Shape::OpenThree as usize] |= 1 << 20;
    e[Shape::Four as usize] |= 1 << 16;
    e[Shape::OpenFour as usize] |= 2 << 16;
    e[Shape::Five as usize] |= 1 << 24;
    e[Shape::Overline as usize] |= 1 << 28;
    e
};

/// What a stone would make on a point, from the summed count of its four shapes.
fn threat_from_count(count: u32) -> PackedThreat {
    let fours = (count >> 16) & 15;
    let open_threes = (count >> 20) & 15;
    // The counts of fours and open threes sit where a packed threat keeps them.
    let counts = count & 0xFF << 16;
    if (count >> 24) & 15 != 0 {
        return PackedThreat((count & 0xFFFF) | counts | PackedThreat::FIVE);
    }
    let winning = fours >= 2 || (fours >= 1 && open_threes >= 1);
    let bonus = if winning {
        400
    } else if open_threes >= 2 {
        150
    } else {
        0
    };
    let risky = fours >= 2 || open_threes >= 2 || count >> 28 != 0;
    PackedThreat(
        ((count & 0xFFFF) + bonus)
            | counts
            | if winning { PackedThreat::WINNING } else { 0 }
            | if risky { PackedThreat::RISKY } else { 0 }
            | if open_threes >= 2 { PackedThreat::DOUBLE_THREE } else { 0 },
    )
}

/// A [`PointThreat`] in one word, as the engine keeps it per point: the score in bits 0-15,
/// fours and open threes in four bits each from bit 16, then flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct PackedThreat(u32);

impl PackedThreat {
    const FIVE: u32 = 1 << 24;
    const WINNING: u32 = 1 << 25;
    const RISKY: u32 = 1 << 26;
    const DOUBLE_THREE: u32 = 1 << 27;
    /// The bits the threat sets depend on (any change among the fours counts as one).
    const MARKED: u32 = Self::FIVE | Self::WINNING | Self::DOUBLE_THREE | 15 << 16;

    pub fn score(self) -> i32 {
        (self.0 & 0xFFFF) as i32
    }

    pub fn five(self) -> bool {
        self.0 & Self::FIVE != 0
    }

    pub fn winning(self) -> bool {
        self.0 & Self::WINNING != 0
    }

    pub fn risky(self) -> bool {
        self.0 & Self::RISKY != 0
    }

    pub fn double_three(self) -> bool {
        self.0 & Self::DOUBLE_THREE != 0
    }

    pub fn open_threes(self) -> u8 {
        ((self.0 >> 20) & 15) as u8
    }

    pub fn fours(self) -> u8 {
        ((self.0 >> 16) & 15) as u8
    }

    pub fn has_four(self) -> bool {
        self.fours() != 0
    }

    /// Two threats' words ORed: a flag is set, or a count nonzero, when either's is (the
    /// counts themselves mean nothing after it).
    #[inline]
    pub fn or(self, other: PackedThreat) -> PackedThreat {
        PackedThreat(self.0 | other.0)
    }

    /// The threat cut to the bits of its open-three count that are set only from two up, so
    /// that ORed over points its count is nonzero when some point makes two open threes.
    #[inline]
    pub fn double_threes_only(self) -> PackedThreat {
        PackedThreat(self.0 & 14 << 20)
    }

    pub fn unpack(self) -> PointThreat {
        PointThreat {
            five: self.five(),
            winning: self.winning(),
            fours: self.fours(),
            open_threes: self.open_threes(),
            score: self.score(),
            forbidden: false,
            risky: self.risky(),
        }
    }
}

/// The points on the lines through a point, four steps either way: their offsets from it.
const LINE_OFFSETS: [isize; 32] = {
    let mut offsets = [0; 32];
    let mut i = 0;
    while i < 32 {
        let (d, k) = (DIRECTIONS[i / 8], (i % 8 / 2 + 1) as isize);
        offsets[i] = if i % 2 == 0 { k * d } else { -k * d };
        i += 1;
    }
    offsets
};

fn line_neighbours(p: Point) -> impl Iterator<Item = usize> {
    LINE_OFFSETS.into_iter().map(move |offset| (p as isize + offset) as usize)
}

impl Engine {
    /// Loads a position. The transposition table survives: positions recur from move to move.
    pub fn load(&mut self, board: &Board) {
        self.size = board.size();
        self.rule = board.rule();
        self.cells = *board.cells();
        self.stack = board.moves().to_vec();
        self.undo_len = 0;
        self.hash = 0;
        self.near = [0; CELLS];
        self.candidates = PointSet::default();
        for i in 0..self.stack.len() {
            let p = self.stack[i];
            self.hash ^= ZOBRIST[p as usize][self.cells[p as usize] as usize - 1];
            self.add_near(p);
        }
        for p in board.points() {
            for (dir, &d) in DIRECTIONS.iter().enumerate() {
                let mut key = 0u16;
                for k in (-4..=4).filter(|&k| k != 0) {
                    let c = self.cells[(p as isize + k * d) as usize] as u16;
                    key |= c << key_shift(k);
                }
                self.lines[p as usize].keys[dir] = key;
            }
        }
        self.pairs = PairTable::get(self.exact(BLACK), self.exact(WHITE));
        // Occupied points too: `set` relies on a point's shapes being right when it is emptied.
        for p in board.points() {
            self.refresh_all(p as usize);
        }
    }

    /// Counts the stone on `p` near the points around it, which become candidates if empty
    /// (and `p` stops being one).
    fn add_near(&mut self, p: Point) {
        for dy in -2isize..=2 {
            for dx in -2isize..=2 {
                let q = (p as isize + dy * STRIDE as isize + dx) as usize;
                self.near[q] += 1;
                self.candidates.add_if(q, self.cells[q] == EMPTY);
            }
        }
        self.candidates.assign(p as usize, false);
    }

    pub(crate) fn rule(&self) -> Rule {
        self.rule
    }

    pub(crate) fn to_move(&self) -> u8 {
        if self.stack.len().is_multiple_of(2) { BLACK } else { WHITE }
    }

    pub(super) fn exact(&self, color: u8) -> bool {
        match self.rule {
            Rule::Freestyle => false,
            Rule::Standard => true,
            Rule::Renju => color == BLACK,
        }
    }

    /// Places a stone of the side to move, saving what it changes for [`Self::unplace`].
    pub(crate) fn place(&mut self, p: Point) {
        let color = self.to_move();
        if self.undo.len() == self.undo_len {
            self.undo.push(Undo::default());
        }
        let undo = &mut self.undo[self.undo_len];
        undo.fives = self.fives;
        undo.fours = self.fours;
        undo.winning = self.winning;
        undo.double_threes = self.double_threes;
        undo.candidates = self.candidates;
        for (slot, q) in undo.lines.iter_mut().zip(line_neighbours(p)) {
            *slot = self.lines[q];
        }
        self.undo_len += 1;
        self.put(p, color);
        self.stack.push(p);
    }

    /// Takes back the last stone [`Self::place`] placed. Putting back the saved records costs
    /// a few copies where working the change out again would cost as much as placing it.
    pub(crate) fn unplace(&mut self) {
        let p = self.stack.pop().expect("a stone to take back");
        let color = self.cells[p as usize];
        self.undo_len = self.undo_len.checked_sub(1).expect("only stones `place` put down are taken back");
        let undo = &self.undo[self.undo_len];
        self.fives = undo.fives;
        self.fours = undo.fours;
        self.winning = undo.winning;
        self.double_threes = undo.double_threes;
        self.candidates = undo.candidates;
        for (saved, q) in undo.lines.iter().zip(line_neighbours(p)) {
            self.lines[q] = *saved;
        }
        self.cells[p as usize] = EMPTY;
        self.hash ^= ZOBRIST[p as usize][color as usize - 1];
        for dy in -2isize..=2 {
            for dx in -2isize..=2 {
                self.near[(p as isize + dy * STRIDE as isize + dx) as usize] -= 1;
            }
        }
    }

    /// Puts `color` on the empty point `p`, bringing the neighbours' keys, shapes and threats
    /// up to date. `p`'s own are left alone: its keys do not depend on its own cell, so they are
    /// right again when it is emptied.
    fn put(&mut self, p: Point, color: u8) {
        self.cells[p as usize] = color;
        self.hash ^= ZOBRIST[p as usize][color as usize - 1];
        for (i, q) in line_neighbours(p).enumerate() {
            let dir = i / 8;
            // `p` is at -offset from `q`.
            let k = i % 8 / 2 + 1;
            let shift = if i % 2 == 0 { key_shift(-(k as isize)) } else { key_shift(k as isize) };
            self.lines[q].keys[dir] ^= (color as u16) << shift;
            // Only empty points are candidates, so only theirs need to be current.
            if self.cells[q] == EMPTY {
                self.refresh_line(q, dir);
            }
        }
        self.add_near(p);
    }

    pub(crate) fn shape_at(&self, p: Point, dir: usize, color: u8) -> Shape {
        pair_shape(self.lines[p as usize].shapes[dir], color)
    }

    /// Re-reads the shapes of `p` along `dir` and, where one changed, its threat.
    #[inline]
    fn refresh_line(&mut self, p: usize, dir: usize) {
        let pair = self.pairs.pair(self.lines[p].keys[dir]);
        let old = std::mem::replace(&mut self.lines[p].shapes[dir], pair);
        // A stone four points away often leaves a line's shape as it was.
        if pair == old {
            return;
        }
        for side in 0..2 {
            let (new_shape, old_shape) = ((pair >> (4 * side)) & 15, (old >> (4 * side)) & 15);
            if new_shape != old_shape {
                let index = &mut self.lines[p].shape_index[side];
                *index = (i32::from(*index) + (new_shape as i32 - old_shape as i32) * DIRECTION_WEIGHT[dir])
                    as u16;
                let (new, old) = (ENCODED[new_shape as usize], ENCODED[old_shape as usize]);
                let count = &mut self.lines[p].counts[side];
                *count = count.wrapping_add(new).wrapping_sub(old);
                if (new | old) >> 16 == 0 {
                    // Twos and threes only: the score moves, and nothing else does.
                    let threat = &mut self.lines[p].threats[side];
                    threat.0 = threat.0.wrapping_add(new).wrapping_sub(old);
                } else {
                    let threat = threat_from_count(*count);
                    let old = std::mem::replace(&mut self.lines[p].threats[side], threat);
                    if (old.0 ^ threat.0) & PackedThreat::MARKED != 0 {
                        self.mark(p, side, threat);
                    }
                }
            }
        }
    }

    /// Files the point under the threat sets of one side.
    #[inline]
    fn mark(&mut self, p: usize, side: usize, threat: PackedThreat) {
        self.fives[side].assign(p, threat.five());
        self.fours[side].assign(p, threat.has_four());
        self.winning[side].assign(p, threat.winning());
        self.double_threes[side].assign(p, threat.double_three());
    }

    /// The empty points on the lines through `winning` (the opponent's winning points) where a
    /// stone of `me` leaves one of them no longer winning. Against a four-three made of a closed
    /// three and an open two, the two's line has such points where the opponent makes no four,
    /// so that answers on its strong points and fours alone miss them.
    pub(super) fn defusing_points(&self, winning: PointSet, me: u8) -> PointSet {
        let them = other(me);
        let mut out = PointSet::default();
        for w in winning {
            let line = &self.lines[w as usize];
            for (dir, &d) in DIRECTIONS.iter().enumerate() {
                let old = pair_shape(line.shapes[dir], them) as usize;
                if ENCODED[old] == 0 {
                    continue;
                }
                for k in (-4isize..=4).filter(|&k| k != 0) {
                    let q = (w as isize + k * d) as usize;
                    if self.cells[q] != EMPTY {
                        continue;
                    }
                    let key = line.keys[dir] | u16::from(me) << key_shift(k);
                    let new = pair_shape(self.pairs.pair(key), them) as usize;
                    if new == old {
                        continue;
                    }
                    let count =
                        line.counts[them as usize - 1].wrapping_sub(ENCODED[old]).wrapping_add(ENCODED[new]);
                    if !threat_from_count(count).winning() {
                        out.insert(q);
                    }
                }
            }
        }
        out
    }

    /// Reads every line of `p` afresh.
    fn refresh_all(&mut self, p: usize) {
        self.lines[p].shapes = self.lines[p].keys.map(|key| self.pairs.pair(key));
        for side in 0..2 {
            let count =
                self.lines[p].shapes.iter().map(|&pair| ENCODED[((pair >> (4 * side)) & 15) as usize]).sum();
            self.lines[p].counts[side] = count;
            self.lines[p].shape_index[side] = ordered(self.lines[p].shapes, side);
            self.lines[p].threats[side] = threat_from_count(count);
            self.mark(p, side, self.lines[p].threats[side]);
        }
    }

    /// What a stone of `color` on the empty point `p` would make (kept up to date as stones
    /// come and go). Black's double threats and overlines under renju are checked against the
    /// full forbidden-point rules here, as that depends on more than the lines through `p`.
    pub(crate) fn threat(&mut self, p: Point, color: u8) -> PointThreat {
        let t = self.lines[p as usize].threats[color as usize - 1].unpack();
        if t.risky
            && self.rule == Rule::Renju
            && color == BLACK
            && crate::renju::is_forbidden_cells(&mut self.cells, p)
        {
            return PointThreat { forbidden: true, ..PointThreat::default() };
        }
        t
    }

    /// Empty points with a stone within two points; on an empty board, the centre.
    pub(crate) fn candidate_set(&self) -> PointSet {
        let mut set = self.candidates;
        if self.stack.is_empty() && set.is_empty() {
            let c = self.size / 2;
            set.insert((c + crate::board::PAD) * STRIDE + c + crate::board::PAD);
        }
        set
    }

    /// The points where a stone of `color` makes five (candidates or not).
    pub(crate) fn fives_of(&self, color: u8) -> PointSet {
        self.fives[color as usize - 1]
    }

    /// The points where a stone of `color` makes a four, renju's forbidden points included.
    pub(crate) fn fours_of(&self, color: u8) -> PointSet {
        self.fours[color as usize - 1]
    }

    /// Whether a stone of `color` on some point of `set` makes a threat that passes `test`.
    /// `set` holds the points where it does before renju's forbidden points are taken out (only
    /// black's double threats can be forbidden, so other sets need no look at the points).
    pub(crate) fn any_threat(
        &mut self,
        set: PointSet,
        color: u8,
        test: impl Fn(&PointThreat) -> bool,
    ) -> bool {
        if self.rule != Rule::Renju || color != BLACK {
            return !set.is_empty();
        }
        set.into_iter().any(|p| test(&self.threat(p, color)))
    }

    /// Whether `color` makes a four on one of `candidates` (renju's forbidden points left out).
    pub(super) fn has_four_to_make(&mut self, candidates: PointSet, color: u8) -> bool {
        self.any_threat(self.fours[color as usize - 1] & candidates, color, |t| t.fours > 0)
    }

    /// Whether `color` makes two fives to be at once (an open four, or fours on two lines) on
    /// one of `points`: the opponent, with no five of its own to make, blocks one and loses to
    /// the other, whatever fours it plays first (each is answered by the five).
    pub(super) fn has_double_four(&mut self, points: PointSet, color: u8) -> bool {
        let side = color as usize - 1;
        let checked = self.rule == Rule::Renju && color == BLACK;
        points.into_iter().any(|p| {
            self.lines[p as usize].threats[side].fours() >= 2
                && !(checked && self.threat(p as Point, color).forbidden)
        })
    }

    /// Whether `color` makes two open threes at once on one of `points`. Against an opponent
    /// with no four to make, that wins: its one stone stops one three at most (two lines meet
    /// only at the point itself), the other becomes an open four, and nothing it can play
    /// then makes five. Not for renju's black, whose double three is forbidden.
    pub(super) fn has_double_three(&self, points: PointSet, color: u8) -> bool {
        !(self.double_threes[color as usize - 1] & points).is_empty()
    }

    /// Whether `color` has a four-three on one of `points` (its winning points) whose one
    /// block gives the opponent no four (nor a five: it has no four on the board, the node's
    /// five check saw to that): the block is forced, the three then becomes
    /// an open four, and the opponent's fours elsewhere, made one at a time, are each answered
    /// by our five. Rapfi's quick win check probes the same way. Not for renju's black, whose
    /// open four to come may be forbidden.
    pub(super) fn has_unanswerable_four_three(&mut self, points: PointSet, color: u8) -> bool {
        let (side, their_side) = (color as usize - 1, 2 - color as usize);
        for p in points {
            let threat = self.lines[p as usize].threats[side];
            if threat.fours() != 1 || threat.open_threes() == 0 {
                continue;
            }
            self.place(p);
            // The sets keep stale bits on occupied points: only the empty ones count.
            let block = (self.fives[side] & self.candidates).into_iter().next();
            let answered = block.is_none_or(|b| self.lines[b as usize].threats[their_side].has_four());
            self.unplace();
            if !answered {
                return true;
            }
        }
        false
    }

    /// Whether the last stone placed made five.
    pub(super) fn last_made_five(&self) -> bool {
        let Some(&p) = self.stack.last() else { return false };
        let color = self.cells[p as usize];
        DIRECTIONS.iter().any(|&d| {
            let mut n = 1;
            for sign in [1isize, -1] {
                let mut q = p as isize + sign * d;
                while self.cells[q as usize] == color {
                    n += 1;
                    q += sign * d;
                }
            }
            if self.exact(color) { n == 5 } else { n >= 5 }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::rng::rng_from_seed;
    use rand::RngExt;

    /// What a stone would make, from the board's cells alone.
    fn fresh_threat(engine: &Engine, p: Point, color: u8) -> PointThreat {
        let table = crate::lines::ShapeTable::get();
        let column = crate::lines::column(color, engine.exact(color));
        let mut t = PointThreat::default();
        let mut overline = false;
        for &d in &DIRECTIONS {
            let mut key = 0u16;
            for k in (-4..=4).filter(|&k| k != 0) {
                key |= (engine.cells[(p as isize + k * d) as usize] as u16) << key_shift(k);
            }
            let s = table.shape(key, column);
            match s {
                Shape::Five => t.five = true,
                Shape::OpenFour => t.fours += 2,
                Shape::Four => t.fours += 1,
                Shape::OpenThree => t.open_threes += 1,
                Shape::Overline => overline = true,
                _ => {}
            }
            t.score += SHAPE_SCORE[s as usize];
        }
        if t.five {
            return t;
        }
        t.risky = t.fours >= 2 || t.open_threes >= 2 || overline;
        t.winning = t.fours >= 2 || (t.fours >= 1 && t.open_threes >= 1);
        if t.winning {
            t.score += 400;
        } else if t.open_threes >= 2 {
            t.score += 150;
        }
        t
    }

    #[test]
    fn cached_threats_match_a_fresh_computation() {
        let mut rng = rng_from_seed(9);
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            let mut engine = Engine::new(EngineConfig { tt_bits: 10, ..EngineConfig::default() });
            engine.load(&Board::new(15, rule));
            for step in 0..300 {
                let empties: Vec<Point> =
                    Board::new(15, rule).points().filter(|&p| engine.cells[p as usize] == EMPTY).collect();
                if engine.stack.len() > 40 || (step % 3 == 2 && !engine.stack.is_empty()) {
                    engine.unplace();
                } else {
                    engine.place(empties[rng.random_range(0..empties.len())]);
                }
                for p in Board::new(15, rule).points().filter(|&p| engine.cells[p as usize] == EMPTY) {
                    for color in [BLACK, WHITE] {
                        let fresh = fresh_threat(&engine, p, color);
                        let cached = engine.lines[p as usize].threats[color as usize - 1].unpack();
                        assert_eq!(format!("{fresh:?}"), format!("{cached:?}"), "rule {rule:?} step {step}");
                        let side = color as usize - 1;
                        let fresh_shapes = DIRECTIONS.map(|d| {
                            let mut key = 0u16;
                            for k in (-4..=4).filter(|&k| k != 0) {
                                key |= (engine.cells[(p as isize + k * d) as usize] as u16) << key_shift(k);
                            }
                            engine.pairs.pair(key)
                        });
                        assert_eq!(engine.lines[p as usize].shape_index[side], ordered(fresh_shapes, side));
                        assert_eq!(engine.fives[side].contains(p as usize), fresh.five);
                        assert_eq!(engine.fours[side].contains(p as usize), fresh.fours > 0);
                        assert_eq!(engine.winning[side].contains(p as usize), fresh.winning);
                        assert_eq!(
                            engine.double_threes[side].contains(p as usize),
                            !fresh.five && fresh.open_threes >= 2
                        );
                    }
                }
            }
        }
    }
}

//! Sets of points as bits by point index. Iteration goes in increasing point order, the order
//! the candidate list always had, so that move ordering ties break the same way.

use crate::board::{CELLS, Point};

const WORDS: usize = CELLS / 64;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PointSet([u64; WORDS]);

impl PointSet {
    #[inline]
    pub fn contains(&self, p: usize) -> bool {
        self.0[p / 64] >> (p % 64) & 1 != 0
    }

    #[inline]
    pub fn insert(&mut self, p: usize) {
        self.0[p / 64] |= 1 << (p % 64);
    }

    #[inline]
    pub fn add_if(&mut self, p: usize, member: bool) {
        self.0[p / 64] |= (member as u64) << (p % 64);
    }

    #[inline]
    pub fn assign(&mut self, p: usize, member: bool) {
        let word = &mut self.0[p / 64];
        *word = (*word & !(1 << (p % 64))) | (member as u64) << (p % 64);
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn first(&self) -> Option<Point> {
        self.iter().next()
    }

    /// Calls `f` with every point, in increasing order: quicker than the iterator where `f` can
    /// borrow what it needs.
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(usize)) {
        for (i, &word) in self.0.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                f(i * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
    }

    pub fn iter(&self) -> Points {
        Points { words: self.0, word: 0 }
    }
}

impl std::ops::BitAnd for PointSet {
    type Output = PointSet;

    #[inline]
    fn bitand(self, other: PointSet) -> PointSet {
        PointSet(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }
}

impl std::ops::BitOr for PointSet {
    type Output = PointSet;

    #[inline]
    fn bitor(self, other: PointSet) -> PointSet {
        PointSet(std::array::from_fn(|i| self.0[i] | other.0[i]))
    }
}

impl IntoIterator for PointSet {
    type Item = Point;
    type IntoIter = Points;

    fn into_iter(self) -> Points {
        self.iter()
    }
}

/// The points of a set, by a copy of its bits: the engine may change while they are visited.
pub(crate) struct Points {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for Points {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        while self.word < WORDS {
            let bits = self.words[self.word];
            if bits != 0 {
                self.words[self.word] = bits & (bits - 1);
                return Some((self.word * 64 + bits.trailing_zeros() as usize) as Point);
            }
            self.word += 1;
        }
        None
    }
}

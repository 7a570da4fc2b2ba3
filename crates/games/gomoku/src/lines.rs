//! Line shapes for the search engine. For every empty point and direction, the four cells on each
//! side (2 bits each: empty, black, white, wall) make a 16-bit key; a table computed once tells,
//! for a stone of either colour placed on the point, the best shape it makes on that line:
//! five, an open four (two points complete five), a four (one point does), an open three (one
//! more stone makes an open four), a three, an open two, a two. Keys are kept up to date as
//! stones come and go (`Engine` in `engine.rs`), so reading a shape is one table lookup.

use std::sync::OnceLock;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Shape {
    None = 0,
    Two,
    OpenTwo,
    Three,
    OpenThree,
    Four,
    OpenFour,
    Five,
    /// Six or more where only exactly five wins: no win, and for black under renju forbidden.
    Overline,
}

pub(crate) const SHAPES: [Shape; 9] = [
    Shape::None,
    Shape::Two,
    Shape::OpenTwo,
    Shape::Three,
    Shape::OpenThree,
    Shape::Four,
    Shape::OpenFour,
    Shape::Five,
    Shape::Overline,
];

const EMPTY: u8 = 0;
const WALL: u8 = 3;

/// Cell `i` (0..9, 4 = the point itself) of a key.
fn decode(key: u16) -> [u8; 9] {
    let mut line = [EMPTY; 9];
    for (slot, i) in [0usize, 1, 2, 3, 5, 6, 7, 8].iter().enumerate() {
        line[*i] = ((key >> (2 * slot)) & 3) as u8;
    }
    line
}

/// The bit offset of the neighbour `k` steps away (k in -4..=4, not 0) within a key.
pub const fn key_shift(k: isize) -> u32 {
    if k < 0 { (2 * (k + 4)) as u32 } else { (2 * (k + 3)) as u32 }
}

fn run_through(line: &[u8; 9], i: usize, color: u8) -> (usize, usize) {
    let mut lo = i;
    while lo > 0 && line[lo - 1] == color {
        lo -= 1;
    }
    let mut hi = i;
    while hi < 8 && line[hi + 1] == color {
        hi += 1;
    }
    (lo, hi)
}

fn is_five(line: &[u8; 9], color: u8, exact: bool) -> bool {
    let (lo, hi) = run_through(line, 4, color);
    let n = hi - lo + 1;
    if exact { n == 5 } else { n >= 5 }
}

/// Points that complete a five through the centre.
fn win_points(line: &mut [u8; 9], color: u8, exact: bool) -> usize {
    let mut n = 0;
    for e in 0..9 {
        if line[e] == EMPTY {
            line[e] = color;
            if is_five(line, color, exact) {
                n += 1;
            }
            line[e] = EMPTY;
        }
    }
    n
}

/// `TABLE[key]` packs four shapes: for black and white, each where five or more wins and where
/// exactly five wins. `pairs` holds the same per rule, both colours in one byte, so that the
/// engine's update after each stone reads one byte from a table a quarter the size.
struct Table {
    /// Kept for the tests, which check the engine's pair bytes against it.
    #[cfg(test)]
    columns: Vec<[u8; 4]>,
    pairs: [Box<[u8; 1 << 16]>; 4],
}

fn downgrade(next: Shape) -> Shape {
    match next {
        Shape::OpenFour => Shape::OpenThree,
        Shape::Four => Shape::Three,
        Shape::OpenThree => Shape::OpenTwo,
        Shape::Three => Shape::Two,
        _ => Shape::None,
    }
}

/// Fills one of the four columns. A key's shape depends on the shapes of the keys with one more
/// stone of the colour, so keys are visited from the most stones to the fewest and each entry
/// costs one scan of its line plus eight lookups.
fn fill(entries: &mut [[u8; 4]], column: usize, color: u8, exact: bool) {
    let mut keys: Vec<u16> = (0..=u16::MAX).filter(|&k| walls_are_outside(&decode(k))).collect();
    let stones = |k: u16| decode(k).iter().filter(|&&c| c == color).count();
    keys.sort_by_key(|&k| std::cmp::Reverse(stones(k)));
    for key in keys {
        let mut line = decode(key);
        line[4] = color;
        let (lo, hi) = run_through(&line, 4, color);
        let n = hi - lo + 1;
        let shape = if n >= 5 {
            if exact && n > 5 { Shape::Overline } else { Shape::Five }
        } else {
            match win_points(&mut line, color, exact) {
                0 => (0..9)
                    .filter(|&e| e != 4 && line[e] == EMPTY)
                    .map(|e| {
                        let offset = e as isize - 4;
                        let next = key | (color as u16) << key_shift(offset);
                        downgrade(SHAPES[entries[next as usize][column] as usize])
                    })
                    .max()
                    .unwrap_or(Shape::None),
                1 => Shape::Four,
                _ => Shape::OpenFour,
            }
        };
        entries[key as usize][column] = shape as u8;
    }
}

fn build() -> Table {
    let mut entries = vec![[0u8; 4]; 1 << 16];
    for (column, (color, exact)) in [(1u8, false), (2, false), (1, true), (2, true)].into_iter().enumerate() {
        fill(&mut entries, column, color, exact);
    }
    let pairs = std::array::from_fn(|rule| {
        let (black_exact, white_exact) = (rule & 1 != 0, rule & 2 != 0);
        let mut pair = Box::new([0u8; 1 << 16]);
        for (key, e) in entries.iter().enumerate() {
            pair[key] = e[column(1, black_exact)] | e[column(2, white_exact)] << 4;
        }
        pair
    });
    Table {
        #[cfg(test)]
        columns: entries,
        pairs,
    }
}

fn walls_are_outside(line: &[u8; 9]) -> bool {
    let left_ok = (0..4).all(|i| line[i] != WALL || (0..=i).all(|j| line[j] == WALL));
    let right_ok = (5..9).all(|i| line[i] != WALL || (i..9).all(|j| line[j] == WALL));
    left_ok && right_ok
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(build)
}

/// Forces the table to be built now (it takes a few milliseconds) rather than during a search.
pub fn warm_up() {
    table();
}

/// The shape a stone of `color` (1 black, 2 white) placed on a point with line key `key` makes.
#[cfg(test)]
pub fn shape(key: u16, color: u8, exact: bool) -> Shape {
    ShapeTable::get().shape(key, column(color, exact))
}

/// The table's column for a colour under a rule: black and white, five-or-more or exactly five.
pub const fn column(color: u8, exact: bool) -> usize {
    (color as usize - 1) + 2 * exact as usize
}

/// A handle on the four-column shape table.
#[cfg(test)]
#[derive(Clone, Copy)]
pub struct ShapeTable(&'static [[u8; 4]]);

#[cfg(test)]
impl ShapeTable {
    pub fn get() -> Self {
        ShapeTable(&table().columns)
    }

    #[inline]
    pub fn shape(self, key: u16, column: usize) -> Shape {
        SHAPES[self.0[key as usize][column] as usize]
    }
}

/// Both colours' shapes for every key under one rule, one byte each (see [`pair_shape`]).
#[derive(Clone, Copy)]
pub struct PairTable(&'static [u8; 1 << 16]);

impl PairTable {
    /// The table for a rule where black (and white) win with exactly five when `*_exact`.
    pub fn get(black_exact: bool, white_exact: bool) -> Self {
        PairTable(&table().pairs[black_exact as usize + 2 * white_exact as usize])
    }

    #[inline]
    pub fn pair(self, key: u16) -> u8 {
        self.0[key as usize]
    }
}

/// The shape of `color` (1 black, 2 white) in a byte of a [`PairTable`]: black's in the low four
/// bits, white's in the high four.
#[inline]
pub fn pair_shape(pair: u8, color: u8) -> Shape {
    SHAPES[((pair >> (4 * (color - 1))) & 15) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(cells: &str) -> u16 {
        // Nine characters, the centre (index 4) ignored: . x o #
        let mut k = 0u16;
        for (i, ch) in cells.chars().enumerate() {
            if i == 4 {
                continue;
            }
            let v = match ch {
                'x' => 1,
                'o' => 2,
                '#' => 3,
                _ => 0,
            };
            let offset = i as isize - 4;
            k |= v << key_shift(offset);
        }
        k
    }

    #[test]
    fn shapes_of_classic_lines() {
        let black = |s: &str| shape(key(s), 1, false);
        assert_eq!(black("xxxx?...."), Shape::Five);
        assert_eq!(black(".xxx?...."), Shape::OpenFour);
        assert_eq!(black("oxxx?...."), Shape::Four);
        assert_eq!(black("x.xx?...."), Shape::Four);
        assert_eq!(black("..xx?...."), Shape::OpenThree);
        assert_eq!(black(".x.x?...."), Shape::OpenThree);
        assert_eq!(black("oxx.?...."), Shape::Three);
        assert_eq!(black("...x?...."), Shape::OpenTwo);
        assert_eq!(black("....?...."), Shape::None);
        assert_eq!(black("###o?x..."), Shape::Two);
        assert_eq!(black("###o?o..."), Shape::None);
        assert_eq!(black("..o.?.o.."), Shape::None);
        // Exactly-five rules: six in a row is an overline, not a five.
        assert_eq!(shape(key("xxxx?x..."), 1, true), Shape::Overline);
        assert_eq!(shape(key("xxxx?x..."), 1, false), Shape::Five);
        // White's view of the same cells.
        assert_eq!(shape(key(".ooo?...."), 2, false), Shape::OpenFour);
    }
}

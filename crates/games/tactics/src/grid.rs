//! The board: cells, directions, cell sets and the terrain map with its text form
//! (docs/tactics.md, "Maps").
//!
//! A cell is one byte, `16 * rank + file` counted from 0, whatever the board's size: action text
//! and action values then never depend on the size, and a 16×16 board still fits a byte.

use std::fmt;

/// The largest board side.
pub const MAX_SIZE: u8 = 16;
/// The smallest board side.
pub const MIN_SIZE: u8 = 8;

pub type Cell = u8;

pub fn cell(file: u8, rank: u8) -> Cell {
    rank * MAX_SIZE + file
}

pub fn file_of(cell: Cell) -> u8 {
    cell % MAX_SIZE
}

pub fn rank_of(cell: Cell) -> u8 {
    cell / MAX_SIZE
}

/// Steps between two cells along the grid, ignoring everything in the way.
pub fn manhattan(a: Cell, b: Cell) -> u8 {
    file_of(a).abs_diff(file_of(b)) + rank_of(a).abs_diff(rank_of(b))
}

/// `a1` … `p16`: the file as a letter, the rank from 1 (chess style; rank 1 is the bottom row).
pub fn cell_name(cell: Cell) -> String {
    format!("{}{}", (b'a' + file_of(cell)) as char, rank_of(cell) + 1)
}

/// Reads `a1` … `p16`; whether the cell is on a smaller board is the caller's question.
pub fn parse_cell(text: &str) -> Result<Cell, String> {
    let mut chars = text.chars();
    let file = chars.next().filter(|c| ('a'..='p').contains(c));
    let rank = chars.as_str().parse::<u8>().ok().filter(|r| (1..=MAX_SIZE).contains(r));
    match (file, rank) {
        (Some(f), Some(r)) if !chars.as_str().starts_with('0') && !chars.as_str().starts_with('+') => {
            Ok(cell(f as u8 - b'a', r - 1))
        }
        _ => Err(format!("'{text}' is not a cell: a file a-p and a rank 1-16, as 'c4'")),
    }
}

/// The four directions of movement and of attacks. North is towards higher ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    North,
    East,
    South,
    West,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    pub fn letter(self) -> char {
        ['n', 'e', 's', 'w'][self as usize]
    }

    pub fn from_letter(c: char) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.letter() == c)
    }

    pub fn name(self) -> &'static str {
        ["north", "east", "south", "west"][self as usize]
    }
}

/// The neighbour of `cell` towards `dir` on a board of side `size`, if on the board.
#[inline]
pub fn step(cell: Cell, dir: Dir, size: u8) -> Option<Cell> {
    let (f, r) = (file_of(cell), rank_of(cell));
    match dir {
        Dir::North if r + 1 < size => Some(cell + MAX_SIZE),
        Dir::East if f + 1 < size => Some(cell + 1),
        Dir::South if r > 0 => Some(cell - MAX_SIZE),
        Dir::West if f > 0 => Some(cell - 1),
        _ => None,
    }
}

/// A set of cells: 256 bits, one per possible cell.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Cells(pub [u64; 4]);

impl Cells {
    pub const EMPTY: Cells = Cells([0; 4]);

    #[inline]
    pub fn contains(&self, c: Cell) -> bool {
        self.0[(c >> 6) as usize] >> (c & 63) & 1 != 0
    }

    #[inline]
    pub fn insert(&mut self, c: Cell) {
        self.0[(c >> 6) as usize] |= 1 << (c & 63);
    }

    #[inline]
    pub fn remove(&mut self, c: Cell) {
        self.0[(c >> 6) as usize] &= !(1 << (c & 63));
    }

    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    pub fn union(self, other: Cells) -> Cells {
        Cells(std::array::from_fn(|i| self.0[i] | other.0[i]))
    }

    pub fn minus(self, other: Cells) -> Cells {
        Cells(std::array::from_fn(|i| self.0[i] & !other.0[i]))
    }

    pub fn iter(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..=255u8).filter(|&c| self.contains(c))
    }

    /// Every cell of a board of side `size`.
    pub fn board(size: u8) -> Cells {
        let mut all = Cells::EMPTY;
        for r in 0..size {
            for f in 0..size {
                all.insert(cell(f, r));
            }
        }
        all
    }
}

impl fmt::Debug for Cells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter().map(cell_name)).finish()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Terrain {
    /// Free ground.
    Earth,
    /// Blocks movement and every shot.
    Wall,
    /// Blocks movement and sorcerer fire; arrows fly over it.
    Water,
}

impl Terrain {
    pub fn symbol(self) -> char {
        match self {
            Terrain::Earth => '.',
            Terrain::Wall => '#',
            Terrain::Water => '~',
        }
    }

    pub fn from_symbol(c: char) -> Option<Terrain> {
        match c {
            '.' => Some(Terrain::Earth),
            '#' => Some(Terrain::Wall),
            '~' => Some(Terrain::Water),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Terrain::Earth => "earth",
            Terrain::Wall => "a wall",
            Terrain::Water => "water",
        }
    }
}

/// The terrain of a square board. Units stand and move on earth only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Map {
    size: u8,
    wall: Cells,
    water: Cells,
    /// The board's earth cells: where units may stand (kept with the rest, so that the movement
    /// search tests one bit per cell).
    earth: Cells,
}

impl Map {
    /// A board of earth only.
    pub fn open(size: u8) -> Map {
        Map { size, wall: Cells::EMPTY, water: Cells::EMPTY, earth: Cells::board(size) }
    }

    pub fn size(&self) -> u8 {
        self.size
    }

    pub fn on_board(&self, c: Cell) -> bool {
        file_of(c) < self.size && rank_of(c) < self.size
    }

    pub fn terrain(&self, c: Cell) -> Terrain {
        if self.wall.contains(c) {
            Terrain::Wall
        } else if self.water.contains(c) {
            Terrain::Water
        } else {
            Terrain::Earth
        }
    }

    pub fn set(&mut self, c: Cell, terrain: Terrain) {
        if !self.on_board(c) {
            return;
        }
        self.wall.remove(c);
        self.water.remove(c);
        self.earth.remove(c);
        match terrain {
            Terrain::Earth => self.earth.insert(c),
            Terrain::Wall => self.wall.insert(c),
            Terrain::Water => self.water.insert(c),
        }
    }

    /// Earth cells on the board.
    #[inline]
    pub fn earth(&self) -> &Cells {
        &self.earth
    }

    #[inline]
    pub fn is_earth(&self, c: Cell) -> bool {
        self.earth.contains(c)
    }

    #[inline]
    pub fn is_wall(&self, c: Cell) -> bool {
        self.wall.contains(c)
    }

    #[inline]
    pub fn is_water(&self, c: Cell) -> bool {
        self.water.contains(c)
    }

    /// The cell opposite `c` through the board's centre: side 1's counterpart of side 0's cell.
    pub fn mirror(&self, c: Cell) -> Cell {
        cell(self.size - 1 - file_of(c), self.size - 1 - rank_of(c))
    }

    /// Whether the map looks the same turned half a circle: then the two sides' corners are
    /// equivalent.
    pub fn is_point_symmetric(&self) -> bool {
        self.cells().all(|c| self.terrain(c) == self.terrain(self.mirror(c)))
    }

    /// Every cell of the board, rank by rank from a1.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + use<> {
        let size = self.size;
        (0..size).flat_map(move |r| (0..size).map(move |f| cell(f, r)))
    }

    /// The rows from the top (the highest rank) down, as a diagram reads.
    pub fn rows(&self) -> Vec<String> {
        (0..self.size)
            .rev()
            .map(|r| (0..self.size).map(|f| self.terrain(cell(f, r)).symbol()).collect())
            .collect()
    }

    /// The rows joined by `/`: the map in one line, as states carry it.
    pub fn to_line(&self) -> String {
        self.rows().join("/")
    }

    /// Reads a map: rows from the top down, separated by `/` or line breaks, `.` earth, `#` wall,
    /// `~` water; a square of side 8-16. Spaces around rows and blank lines are ignored.
    pub fn parse(text: &str) -> Result<Map, String> {
        let rows: Vec<&str> = text.split(['/', '\n']).map(str::trim).filter(|r| !r.is_empty()).collect();
        Self::from_rows(&rows)
    }

    pub fn from_rows(rows: &[&str]) -> Result<Map, String> {
        let size = rows.len();
        if !(MIN_SIZE as usize..=MAX_SIZE as usize).contains(&size) {
            return Err(format!("a map has {MIN_SIZE} to {MAX_SIZE} rows, this one {size}"));
        }
        let mut map = Map::open(size as u8);
        for (i, row) in rows.iter().enumerate() {
            let rank = (size - 1 - i) as u8;
            let len = row.chars().count();
            if len != size {
                return Err(format!(
                    "the map is square: row {} (rank {}) has {len} cells, not {size}",
                    i + 1,
                    rank + 1
                ));
            }
            for (f, symbol) in row.chars().enumerate() {
                let terrain = Terrain::from_symbol(symbol).ok_or_else(|| {
                    format!(
                        "'{symbol}' at {} is not a cell of a map: '.' earth, '#' wall, '~' water",
                        cell_name(cell(f as u8, rank))
                    )
                })?;
                map.set(cell(f as u8, rank), terrain);
            }
        }
        Ok(map)
    }

    /// The earth cells joined to `from` by steps over earth (units ignored).
    pub fn region(&self, from: Cell) -> Cells {
        let mut seen = Cells::EMPTY;
        if !self.is_earth(from) {
            return seen;
        }
        let mut queue = vec![from];
        seen.insert(from);
        while let Some(c) = queue.pop() {
            for dir in Dir::ALL {
                if let Some(n) = step(c, dir, self.size)
                    && self.is_earth(n)
                    && !seen.contains(n)
                {
                    seen.insert(n);
                    queue.push(n);
                }
            }
        }
        seen
    }

    /// Steps over earth from `from` to every cell (255 where there is no way), units ignored.
    pub fn distances(&self, from: &[Cell]) -> [u8; 256] {
        let mut dist = [u8::MAX; 256];
        let mut queue: Vec<Cell> = Vec::with_capacity(256);
        for &c in from {
            if self.on_board(c) && dist[c as usize] == u8::MAX {
                dist[c as usize] = 0;
                queue.push(c);
            }
        }
        let mut head = 0;
        while head < queue.len() {
            let c = queue[head];
            head += 1;
            for dir in Dir::ALL {
                if let Some(n) = step(c, dir, self.size)
                    && self.is_earth(n)
                    && dist[n as usize] == u8::MAX
                {
                    dist[n as usize] = dist[c as usize] + 1;
                    queue.push(n);
                }
            }
        }
        dist
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_read_and_print() {
        for c in [cell(0, 0), cell(15, 15), cell(2, 9)] {
            assert_eq!(parse_cell(&cell_name(c)), Ok(c));
        }
        assert_eq!(cell_name(cell(2, 9)), "c10");
        for bad in ["", "a", "a0", "q1", "a17", "A1", "a01", "a+1", "1a", "a1 "] {
            assert!(parse_cell(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn maps_read_back_and_refuse_bad_text() {
        let text = "#.......\n........\n..~~....\n........\n........\n........\n........\n.......#";
        let map = Map::parse(text).unwrap();
        assert_eq!(map.size(), 8);
        assert_eq!(map.terrain(cell(0, 7)), Terrain::Wall);
        assert_eq!(map.terrain(cell(2, 5)), Terrain::Water);
        assert_eq!(Map::parse(&map.to_line()), Ok(map));
        assert!(Map::parse("........").unwrap_err().contains("8 to 16 rows"));
        let short = text.replacen("#.......", "#......", 1);
        assert!(Map::parse(&short).unwrap_err().contains("square"));
        let unknown = text.replacen("#.......", "#..x....", 1);
        assert!(Map::parse(&unknown).unwrap_err().contains("'x' at d8"));
    }
}

//! The Gomoku board and rules (docs/gomoku.md): any size from 5 to 22, freestyle (five or more
//! wins), standard (exactly five wins) or renju (black: exactly five, and no double three, double
//! four or overline; white: five or more).
//!
//! Cells live in a padded one-dimensional array: a frame of walls [`PAD`] cells wide lets every
//! line scan step five cells out from any point without a bounds check. A point is a padded
//! index; [`Board::point`] and [`Board::xy`] convert from and to (x, y) with x the column from
//! the left and y the row from the top, both from 0, as the Gomocup protocol counts them.

use ply_core::{Game, Returns, Turn};

mod diagram;

pub const MIN_SIZE: usize = 5;
pub const MAX_SIZE: usize = 22;
pub const PAD: usize = 5;
pub const STRIDE: usize = MAX_SIZE + 2 * PAD;
pub const CELLS: usize = STRIDE * STRIDE;

pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;
pub const WALL: u8 = 3;

/// The four line directions as index steps: horizontal, vertical, and the two diagonals.
pub const DIRECTIONS: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, STRIDE as isize - 1];

/// A point of the board, as a padded index.
pub type Point = u16;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Five or more in a row wins.
    Freestyle,
    /// Exactly five wins; six or more does not.
    Standard,
    /// Black: exactly five, and double threes, double fours and overlines are forbidden points.
    /// White: five or more.
    Renju,
}

impl Rule {
    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
        }
    }

    /// Whether a line of `length` stones of `color` wins.
    pub fn wins(self, color: u8, length: usize) -> bool {
        match self {
            Rule::Freestyle => length >= 5,
            Rule::Standard => length == 5,
            Rule::Renju if color == BLACK => length == 5,
            Rule::Renju => length >= 5,
        }
    }
}

const fn zobrist_table() -> [[u64; 2]; CELLS] {
    let mut table = [[0u64; 2]; CELLS];
    let mut x: u64 = 0x5DEE_CE66_D1CE_4E5B;
    let mut i = 0;
    while i < CELLS {
        let mut c = 0;
        while c < 2 {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            table[i][c] = z ^ (z >> 31);
            c += 1;
        }
        i += 1;
    }
    table
}

pub static ZOBRIST: [[u64; 2]; CELLS] = zobrist_table();
const SIDE_TO_MOVE_KEY: u64 = 0x2545_F491_4F6C_DD1D;

#[derive(Clone, Debug)]
pub struct Board {
    size: usize,
    rule: Rule,
    cells: Box<[u8; CELLS]>,
    moves: Vec<Point>,
    hash: u64,
    /// The colour that made five, if any; or white, when black is to move under renju with
    /// only forbidden points left (see [`Board::black_has_only_forbidden_points`]).
    winner: Option<u8>,
}

impl PartialEq for Board {
    fn eq(&self, other: &Self) -> bool {
        self.size == other.size
            && self.rule == other.rule
            && self.cells == other.cells
            && self.winner == other.winner
    }
}

impl Eq for Board {}

impl std::hash::Hash for Board {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.hash.hash(state);
    }
}

impl Board {
    pub fn new(size: usize, rule: Rule) -> Self {
        assert!((MIN_SIZE..=MAX_SIZE).contains(&size), "board size {size} out of range");
        let mut cells = Box::new([WALL; CELLS]);
        for y in 0..size {
            for x in 0..size {
                cells[(y + PAD) * STRIDE + x + PAD] = EMPTY;
            }
        }
        Board { size, rule, cells, moves: Vec::new(), hash: 0, winner: None }
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    pub fn point(&self, x: usize, y: usize) -> Option<Point> {
        (x < self.size && y < self.size).then(|| ((y + PAD) * STRIDE + x + PAD) as Point)
    }

    pub fn xy(&self, p: Point) -> (usize, usize) {
        let p = p as usize;
        (p % STRIDE - PAD, p / STRIDE - PAD)
    }

    pub fn at(&self, p: Point) -> u8 {
        self.cells[p as usize]
    }

    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// The colour to move: black moves first.
    pub fn to_move(&self) -> u8 {
        if self.moves.len().is_multiple_of(2) { BLACK } else { WHITE }
    }

    pub fn moves(&self) -> &[Point] {
        &self.moves
    }

    pub fn winner(&self) -> Option<u8> {
        self.winner
    }

    pub fn is_full(&self) -> bool {
        self.moves.len() == self.size * self.size
    }

    pub fn zobrist(&self) -> u64 {
        self.hash ^ if self.to_move() == WHITE { SIDE_TO_MOVE_KEY } else { 0 }
    }

    /// Every point of the board, row by row.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        (0..self.size).flat_map(move |y| (0..self.size).map(move |x| ((y + PAD) * STRIDE + x + PAD) as Point))
    }

    /// The number of consecutive stones of `color` from `p` (exclusive) in direction `d`.
    pub fn run(&self, p: Point, d: isize, color: u8) -> usize {
        let mut n = 0;
        let mut q = p as isize + d;
        while self.cells[q as usize] == color {
            n += 1;
            q += d;
        }
        n
    }

    /// The length of the line of `color` through `p` in direction `d`, counting `p` itself.
    pub fn line_length(&self, p: Point, d: isize, color: u8) -> usize {
        1 + self.run(p, d, color) + self.run(p, -d, color)
    }

    /// Whether a stone of `color` at `p` (empty or just placed) makes a winning line.
    pub fn makes_five(&self, p: Point, color: u8) -> bool {
        DIRECTIONS.iter().any(|&d| self.rule.wins(color, self.line_length(p, d, color)))
    }

    /// Places a stone of the side to move without any check.
    pub fn place(&mut self, p: Point) {
        let color = self.to_move();
        debug_assert_eq!(self.cells[p as usize], EMPTY);
        self.cells[p as usize] = color;
        self.hash ^= ZOBRIST[p as usize][color as usize - 1];
        self.moves.push(p);
        if self.makes_five(p, color) {
            self.winner = Some(color);
        } else {
            self.end_if_black_is_stuck();
        }
    }

    /// Renju can leave black, to move, with every empty point forbidden. A forbidden point is
    /// an illegal move, which the Gomocup managers score as black's loss; with nothing else to
    /// play, black has lost (docs/gomoku.md, renju). The game ends here rather than go on as a
    /// position with no legal move.
    fn end_if_black_is_stuck(&mut self) {
        if self.rule == Rule::Renju
            && self.winner.is_none()
            && self.to_move() == BLACK
            && !self.is_full()
            && self.points().all(|q| self.cells[q as usize] != EMPTY || crate::renju::is_forbidden(self, q))
        {
            self.winner = Some(WHITE);
        }
    }

    /// Whether the game ended with black to move under renju and only forbidden points left
    /// (white won without five in a row).
    pub fn black_has_only_forbidden_points(&self) -> bool {
        self.rule == Rule::Renju
            && self.winner == Some(WHITE)
            && self.to_move() == BLACK
            && !self.moves.iter().any(|&p| self.cells[p as usize] == WHITE && self.makes_five(p, WHITE))
    }

    /// Takes back the last stone.
    pub fn take_back(&mut self) -> Option<Point> {
        let p = self.moves.pop()?;
        let color = self.cells[p as usize];
        self.cells[p as usize] = EMPTY;
        self.hash ^= ZOBRIST[p as usize][color as usize - 1];
        self.winner = None;
        Some(p)
    }

    /// Whether `p` is empty and the side to move may play there (not a forbidden point of black
    /// under renju).
    pub fn is_legal(&self, p: Point) -> bool {
        (p as usize) < CELLS
            && self.cells[p as usize] == EMPTY
            && self.winner.is_none()
            && !(self.rule == Rule::Renju && self.to_move() == BLACK && crate::renju::is_forbidden(self, p))
    }
}

/// The Gomoku game: a board and the Ply model around it.
pub type Gomoku = Board;

impl Game for Board {
    type Action = Point;

    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.winner.is_some() || self.is_full() { Turn::Over } else { Turn::Player(self.moves.len() % 2) }
    }

    fn legal_actions(&self, out: &mut Vec<Point>) {
        out.clear();
        if self.turn() == Turn::Over {
            return;
        }
        let renju_black = self.rule == Rule::Renju && self.to_move() == BLACK;
        out.extend(self.points().filter(|&p| {
            self.cells[p as usize] == EMPTY && !(renju_black && crate::renju::is_forbidden(self, p))
        }));
    }

    fn chance_outcomes(&self, out: &mut Vec<(Point, f64)>) {
        out.clear();
    }

    fn apply(&mut self, p: Point) {
        self.place(p);
    }

    fn returns(&self) -> Returns {
        match self.winner {
            Some(color) => Returns::win(2, color as usize - 1),
            None => Returns::draw(2),
        }
    }

    const CAN_UNDO: bool = true;

    fn undo(&mut self, _p: Point) {
        self.take_back();
    }

    fn hash_key(&self) -> Option<u64> {
        Some(self.zobrist())
    }

    fn is_legal(&self, p: Point) -> bool {
        Board::is_legal(self, p)
    }

    fn action_to_text(&self, p: Point) -> String {
        crate::notation::point_to_text(self, p)
    }

    fn parse_action(&self, text: &str) -> Result<Point, ply_core::Error> {
        crate::notation::parse_point(self, text)
    }

    fn action_to_json(&self, p: Point) -> serde_json::Value {
        let (x, y) = self.xy(p);
        serde_json::json!({"x": x, "y": y})
    }

    fn action_from_json(&self, json: &serde_json::Value) -> Result<Point, ply_core::Error> {
        crate::notation::point_from_json(self, json)
    }

    fn to_text(&self) -> String {
        crate::notation::board_to_text(self)
    }

    fn parse_state(&self, text: &str) -> Result<Self, ply_core::Error> {
        crate::notation::parse_board(self, text)
    }

    fn to_json(&self) -> serde_json::Value {
        crate::notation::board_to_json(self)
    }

    fn state_from_json(&self, json: &serde_json::Value) -> Result<Self, ply_core::Error> {
        crate::notation::board_from_json(self, json)
    }
}

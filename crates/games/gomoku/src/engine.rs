//! Ply's Gomoku engine (`alphabeta`): line shapes kept up to date stone by stone (`lines.rs`),
//! candidate moves near the stones, a victory-by-continuous-fours solver (VCF, `vcf.rs`) at the
//! root and as the quiescence search, and principal-variation alpha-beta with iterative
//! deepening, a transposition table, killer and history ordering, forced replies to fours and
//! threat-restricted replies to open threes, and renju's forbidden points for black.

use ply_core::{Agent, Clock, Decision, Limits, SearchInfo};

use crate::board::{BLACK, Board, CELLS, DIRECTIONS, EMPTY, Point, Rule, STRIDE, WALL, WHITE, ZOBRIST};
use crate::lines::{Shape, ShapeTable, column, key_shift};

pub const WIN: i32 = 1_000_000;
const WIN_THRESHOLD: i32 = WIN - 10_000;
const TIME_CHECK_INTERVAL: u64 = 1024;

#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    pub max_depth: u32,
    pub tt_bits: u32,
    /// Plies of the continuous-fours search (attacker and defender moves both count).
    pub vcf_depth: u32,
    /// Most moves searched at an interior node, best first by the static point scores.
    pub width: usize,
    /// Late move reductions.
    pub reductions: bool,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig { max_depth: 64, tt_bits: 20, vcf_depth: 24, width: 20, reductions: true }
    }
}

/// What a stone of a colour would make on a point, over the four directions.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PointThreat {
    pub five: bool,
    /// An open four, two fours, or a four and an open three: a win two moves later unless the
    /// opponent has fours of its own.
    pub winning: bool,
    pub fours: u8,
    pub open_threes: u8,
    pub score: i32,
    /// Black may not play here (renju).
    pub forbidden: bool,
    /// A double threat or overline: forbidden for black under renju if the full rules say so.
    risky: bool,
}

/// Both sides' threats at one candidate point.
#[derive(Clone, Copy, Debug)]
struct Scanned {
    point: Point,
    mine: PointThreat,
    theirs: PointThreat,
}

const SHAPE_SCORE: [i32; 9] = [0, 2, 8, 8, 30, 36, 300, 5000, 0];

/// The search's own board: cells, line keys of every point and direction, and how many stones
/// lie within two points of each cell.
pub struct Engine {
    pub(crate) size: usize,
    rule: Rule,
    pub(crate) cells: [u8; CELLS],
    keys: Vec<[u16; 4]>,
    /// Per point, colour and direction: the shape a stone there would make.
    shapes: Vec<[[Shape; 4]; 2]>,
    /// Per point, what a black and a white stone there would make.
    threats: Vec<[PointThreat; 2]>,
    table: ShapeTable,
    /// The shape table's column for black and for white under the rule.
    columns: [usize; 2],
    near: [u8; CELLS],
    /// Empty points with a stone within two points, as bits by point index: the candidates.
    candidate_bits: [u64; CELLS / 64],
    pub(crate) stack: Vec<Point>,
    pub(crate) hash: u64,
    pub(crate) nodes: u64,
    next_time_check: u64,
    aborted: bool,
    tt: Vec<TtEntry>,
    killers: Vec<[Point; 2]>,
    history: Vec<u32>,
    pub(crate) vcf_table: Vec<(u64, u8, bool)>,
    /// Proven VCT results: key, threes allowed, whether the attacker wins.
    pub(crate) vct_table: Vec<(u64, u8, bool)>,
    config: EngineConfig,
}

#[derive(Clone, Copy, Default)]
struct TtEntry {
    key: u64,
    score: i32,
    depth: i8,
    bound: u8,
    best: Point,
}

const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;

pub(crate) fn other(color: u8) -> u8 {
    BLACK + WHITE - color
}

impl Engine {
    pub fn new(config: EngineConfig) -> Self {
        crate::lines::warm_up();
        Engine {
            size: 15,
            rule: Rule::Freestyle,
            cells: [WALL; CELLS],
            keys: vec![[0; 4]; CELLS],
            shapes: vec![[[Shape::None; 4]; 2]; CELLS],
            threats: vec![[PointThreat::default(); 2]; CELLS],
            table: ShapeTable::get(),
            columns: [0, 1],
            near: [0; CELLS],
            candidate_bits: [0; CELLS / 64],
            stack: Vec::new(),
            hash: 0,
            nodes: 0,
            next_time_check: 0,
            aborted: false,
            tt: vec![TtEntry::default(); 1 << config.tt_bits],
            killers: vec![[0; 2]; 256],
            history: vec![0; CELLS],
            vcf_table: vec![(0, 0, false); 1 << 16],
            vct_table: vec![(0, 0, false); 1 << 16],
            config,
        }
    }

    /// Loads a position. The transposition table survives: positions recur from move to move.
    pub fn load(&mut self, board: &Board) {
        self.size = board.size();
        self.rule = board.rule();
        self.cells = *board.cells();
        self.stack = board.moves().to_vec();
        self.hash = 0;
        self.near = [0; CELLS];
        self.candidate_bits = [0; CELLS / 64];
        for i in 0..self.stack.len() {
            let p = self.stack[i];
            self.hash ^= ZOBRIST[p as usize][self.cells[p as usize] as usize - 1];
            self.touch_near(p, 1);
        }
        for p in board.points() {
            for (dir, &d) in DIRECTIONS.iter().enumerate() {
                let mut key = 0u16;
                for k in (-4..=4).filter(|&k| k != 0) {
                    let c = self.cells[(p as isize + k * d) as usize] as u16;
                    key |= c << key_shift(k);
                }
                self.keys[p as usize][dir] = key;
            }
        }
        self.columns = [column(BLACK, self.exact(BLACK)), column(WHITE, self.exact(WHITE))];
        for p in board.points() {
            self.refresh(p, 0..4);
        }
    }

    fn touch_near(&mut self, p: Point, delta: i8) {
        for dy in -2isize..=2 {
            for dx in -2isize..=2 {
                let q = (p as isize + dy * STRIDE as isize + dx) as usize;
                self.near[q] = self.near[q].wrapping_add_signed(delta);
                let bit = 1u64 << (q % 64);
                if self.cells[q] == EMPTY && self.near[q] > 0 {
                    self.candidate_bits[q / 64] |= bit;
                } else {
                    self.candidate_bits[q / 64] &= !bit;
                }
            }
        }
    }

    pub(crate) fn rule(&self) -> Rule {
        self.rule
    }

    pub(crate) fn to_move(&self) -> u8 {
        if self.stack.len().is_multiple_of(2) { BLACK } else { WHITE }
    }

    fn exact(&self, color: u8) -> bool {
        match self.rule {
            Rule::Freestyle => false,
            Rule::Standard => true,
            Rule::Renju => color == BLACK,
        }
    }

    pub(crate) fn place(&mut self, p: Point) {
        let color = self.to_move();
        self.set(p, color);
        self.stack.push(p);
    }

    pub(crate) fn unplace(&mut self) {
        let p = self.stack.pop().expect("a stone to take back");
        let color = self.cells[p as usize];
        self.set(p, color);
    }

    /// Toggles `color` on `p`: the key bits of the neighbours flip the same way both times.
    fn set(&mut self, p: Point, color: u8) {
        let adding = self.cells[p as usize] == EMPTY;
        self.cells[p as usize] = if adding { color } else { EMPTY };
        self.hash ^= ZOBRIST[p as usize][color as usize - 1];
        for (dir, &d) in DIRECTIONS.iter().enumerate() {
            for k in 1..=4isize {
                let forward = (p as isize + k * d) as usize;
                let backward = (p as isize - k * d) as usize;
                self.keys[forward][dir] ^= (color as u16) << key_shift(-k);
                self.keys[backward][dir] ^= (color as u16) << key_shift(k);
            }
        }
        for (dir, &d) in DIRECTIONS.iter().enumerate() {
            for k in 1..=4isize {
                self.refresh((p as isize + k * d) as Point, dir..dir + 1);
                self.refresh((p as isize - k * d) as Point, dir..dir + 1);
            }
        }
        self.refresh(p, 0..4);
        self.touch_near(p, if adding { 1 } else { -1 });
    }

    pub(crate) fn shape_at(&self, p: Point, dir: usize, color: u8) -> Shape {
        self.shapes[p as usize][color as usize - 1][dir]
    }

    fn lookup(&self, p: Point, dir: usize, color: u8) -> Shape {
        self.table.shape(self.keys[p as usize][dir], self.columns[color as usize - 1])
    }

    /// What a stone of `color` on `p` would make, from its four line shapes.
    fn compute_threat(&self, p: Point, color: u8) -> PointThreat {
        let mut t = PointThreat::default();
        let mut overline = false;
        for dir in 0..4 {
            let s = self.shapes[p as usize][color as usize - 1][dir];
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

    /// Re-reads the shapes of an empty point along `dirs` and its threats.
    fn refresh(&mut self, p: Point, dirs: std::ops::Range<usize>) {
        if self.cells[p as usize] != EMPTY {
            return;
        }
        let mut changed = [false; 2];
        for dir in dirs {
            for color in [BLACK, WHITE] {
                let shape = self.lookup(p, dir, color);
                let slot = &mut self.shapes[p as usize][color as usize - 1][dir];
                // A stone four points away often leaves a line's shape as it was.
                changed[color as usize - 1] |= *slot != shape;
                *slot = shape;
            }
        }
        for color in [BLACK, WHITE] {
            if changed[color as usize - 1] {
                self.threats[p as usize][color as usize - 1] = self.compute_threat(p, color);
            }
        }
    }

    /// What a stone of `color` on the empty point `p` would make (kept up to date as stones
    /// come and go). Black's double threats and overlines under renju are checked against the
    /// full forbidden-point rules here, as that depends on more than the lines through `p`.
    pub(crate) fn threat(&mut self, p: Point, color: u8) -> PointThreat {
        let t = self.threats[p as usize][color as usize - 1];
        if t.risky
            && self.rule == Rule::Renju
            && color == BLACK
            && crate::renju::is_forbidden_cells(&mut self.cells, p)
        {
            return PointThreat { forbidden: true, ..PointThreat::default() };
        }
        t
    }

    /// Empty points with a stone within two points.
    pub(crate) fn candidates(&self) -> Vec<Point> {
        let mut out = Vec::with_capacity(64);
        for (i, &word) in self.candidate_bits.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                out.push((i * 64 + bits.trailing_zeros() as usize) as Point);
                bits &= bits - 1;
            }
        }
        if out.is_empty() && self.stack.is_empty() {
            let c = self.size / 2;
            out.push(((c + crate::board::PAD) * STRIDE + c + crate::board::PAD) as Point);
        }
        out
    }

    /// Whether the last stone placed made five.
    fn last_made_five(&self) -> bool {
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

    /// Whether the search must stop: the node budget is spent, or (checked every
    /// [`TIME_CHECK_INTERVAL`] nodes, counting the solvers' nodes too) the time is up or a stop
    /// was asked for. Once true it stays true for this search.
    pub(crate) fn out_of_budget(&mut self, clock: &Clock) -> bool {
        if self.aborted {
            return true;
        }
        if clock.iterations_exhausted(self.nodes) {
            self.aborted = true;
        } else if self.nodes >= self.next_time_check {
            self.next_time_check = self.nodes + TIME_CHECK_INTERVAL;
            self.aborted = clock.time_is_up() || clock.stopped();
        }
        self.aborted
    }

    /// The static value for the side to move, from the threats of the candidate points.
    fn evaluate(scan: &[Scanned]) -> i32 {
        let score: i32 = scan.iter().map(|s| s.mine.score - s.theirs.score).sum();
        score / 4 + 20
    }

    /// Both sides' threats at every candidate point: computed once per node and used for the
    /// immediate checks, the evaluation, the restriction and the ordering.
    fn scan(&mut self) -> Vec<Scanned> {
        let me = self.to_move();
        let them = other(me);
        self.candidates()
            .into_iter()
            .map(|p| Scanned { point: p, mine: self.threat(p, me), theirs: self.threat(p, them) })
            .collect()
    }

    fn tt_probe(&self) -> Option<TtEntry> {
        let e = self.tt[(self.hash as usize) & (self.tt.len() - 1)];
        (e.key == self.hash).then_some(e)
    }

    fn tt_store(&mut self, depth: i32, score: i32, bound: u8, best: Point, ply: i32) {
        // Win scores are stored relative to this node, so they stay right wherever it recurs.
        let score = if score > WIN_THRESHOLD {
            score + ply
        } else if score < -WIN_THRESHOLD {
            score - ply
        } else {
            score
        };
        let slot = (self.hash as usize) & (self.tt.len() - 1);
        if self.tt[slot].key != self.hash || depth as i8 >= self.tt[slot].depth {
            self.tt[slot] = TtEntry { key: self.hash, score, depth: depth as i8, bound, best };
        }
    }

    /// Orders moves: table move, killers, then static score plus history. Forbidden points are
    /// left out.
    fn ordered_moves(
        &self,
        scan: &[Scanned],
        ply: usize,
        tt_move: Point,
        restrict: Option<&[Point]>,
    ) -> Vec<Point> {
        let mut scored: Vec<(i64, Point)> = scan
            .iter()
            .filter(|s| !s.mine.forbidden && restrict.is_none_or(|r| r.contains(&s.point)))
            .map(|s| {
                let p = s.point;
                let mut key =
                    (s.mine.score * 2 + s.theirs.score) as i64 * 1000 + self.history[p as usize] as i64;
                if p == tt_move {
                    key += 1 << 40;
                } else if ply < self.killers.len() && self.killers[ply].contains(&p) {
                    key += 1 << 30;
                }
                (key, p)
            })
            .collect();
        scored.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
        scored.into_iter().map(|(_, p)| p).collect()
    }

    /// Negamax alpha-beta with principal-variation search; scores for the side to move.
    fn search(&mut self, depth: i32, mut alpha: i32, beta: i32, ply: i32, clock: &Clock) -> i32 {
        self.nodes += 1;
        if self.out_of_budget(clock) {
            return 0;
        }
        if self.last_made_five() {
            return -(WIN - ply);
        }
        if self.stack.len() == self.size * self.size {
            return 0;
        }
        let me = self.to_move();
        let scan = self.scan();
        let mut my_win_soon = false;
        let mut my_fours_exist = false;
        let mut their_fives = Vec::new();
        let mut their_fours_exist = false;
        for s in &scan {
            if s.mine.five {
                return WIN - ply - 1;
            }
            my_win_soon |= s.mine.winning;
            my_fours_exist |= s.mine.fours > 0;
            if s.theirs.five {
                their_fives.push(s.point);
            }
            their_fours_exist |= s.theirs.fours > 0;
        }
        if their_fives.len() >= 2 {
            return -(WIN - ply - 2);
        }
        let forced = their_fives.len() == 1;
        if !forced && my_win_soon && !their_fours_exist {
            return WIN - ply - 3;
        }
        if depth <= 0 && !forced {
            if my_fours_exist
                && crate::vcf::vcf(self, me, self.config.vcf_depth.min(12) as i32, clock).is_some()
            {
                return WIN - ply - 10;
            }
            return Self::evaluate(&scan);
        }
        let entry = self.tt_probe();
        let mut tt_move = 0;
        if let Some(e) = entry {
            tt_move = e.best;
            if e.depth as i32 >= depth {
                let score = if e.score > WIN_THRESHOLD {
                    e.score - ply
                } else if e.score < -WIN_THRESHOLD {
                    e.score + ply
                } else {
                    e.score
                };
                match e.bound {
                    EXACT => return score,
                    LOWER if score >= beta => return score,
                    UPPER if score <= alpha => return score,
                    _ => {}
                }
            }
        }
        let restricted = restriction(&scan);
        let mut moves = self.ordered_moves(&scan, ply as usize, tt_move, restricted.as_deref());
        if restricted.is_none() {
            moves.truncate(self.config.width);
        }
        if moves.is_empty() {
            return -(WIN - ply - 2);
        }
        let next_depth = if forced { depth } else { depth - 1 };
        let alpha_start = alpha;
        let mut best = -WIN - 1;
        let mut best_move = moves[0];
        for (i, &p) in moves.iter().enumerate() {
            self.place(p);
            // Late moves of a free choice are searched a ply shallower first; one that turns out
            // better than the best so far is searched again at full depth.
            let reduction = i32::from(self.config.reductions && restricted.is_none() && depth >= 3 && i >= 3);
            let score = if i == 0 {
                -self.search(next_depth, -beta, -alpha, ply + 1, clock)
            } else {
                let mut s = -self.search(next_depth - reduction, -alpha - 1, -alpha, ply + 1, clock);
                if reduction > 0 && s > alpha {
                    s = -self.search(next_depth, -alpha - 1, -alpha, ply + 1, clock);
                }
                if s > alpha && s < beta {
                    -self.search(next_depth, -beta, -alpha, ply + 1, clock)
                } else {
                    s
                }
            };
            self.unplace();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = p;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                let k = &mut self.killers[(ply as usize).min(255)];
                if k[0] != p {
                    k[1] = k[0];
                    k[0] = p;
                }
                self.history[p as usize] += (depth * depth).max(1) as u32;
                break;
            }
        }
        let bound = if best <= alpha_start {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        self.tt_store(depth, best, bound, best_move, ply);
        best
    }

    fn principal_variation(&mut self, first: Point, depth: u32) -> Vec<Point> {
        let mut pv = vec![first];
        self.place(first);
        while pv.len() < depth as usize {
            match self.tt_probe() {
                Some(e) if e.best != 0 && self.cells[e.best as usize] == EMPTY => {
                    pv.push(e.best);
                    self.place(e.best);
                }
                _ => break,
            }
        }
        for _ in 0..pv.len() {
            self.unplace();
        }
        pv
    }

    /// Chooses a move for the side to move of `board`.
    pub fn think(
        &mut self,
        board: &Board,
        limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo<Point>),
    ) -> Decision<Point> {
        let clock = limits.start();
        self.load(board);
        self.nodes = 0;
        self.next_time_check = 0;
        self.aborted = false;
        self.history.iter_mut().for_each(|h| *h /= 4);
        let me = self.to_move();
        let scan = self.scan();
        // A win on the board, or a forced one by continuous fours, needs no further search.
        if let Some(s) = scan.iter().find(|s| s.mine.five) {
            return Decision { action: s.point, info: proven_info(1, vec![s.point], self.nodes, &clock) };
        }
        if let Some(line) = crate::vcf::vcf(self, me, self.config.vcf_depth as i32, &clock) {
            let info = proven_info(line.len() as i32, line.clone(), self.nodes, &clock);
            report(&info);
            return Decision { action: line[0], info };
        }
        // The same restrictions as inside the tree.
        let restrict = restriction(&scan);
        let mut decision = Decision::new(self.fallback_move(board, &scan));
        let root_moves = self.ordered_moves(&scan, 0, 0, restrict.as_deref());
        // Threat searches with a share of the budget each: a win by threes for us, and which of
        // our moves would let the opponent win by threes.
        if let Some(p) = self.with_sub_budget(limits, 0.15, |e, c| crate::vct::vct_move(e, me, 2, 16, c)) {
            let info = proven_info(0, vec![p], self.nodes, &clock);
            report(&info);
            return Decision { action: p, info };
        }
        let width = self.config.width;
        let losing: Vec<Point> = self.with_sub_budget(limits, 0.25, |e, c| {
            let mut losing = Vec::new();
            for &p in root_moves.iter().take(width) {
                e.place(p);
                let lost = crate::vct::vct(e, other(me), 2, 16, c);
                e.unplace();
                if e.out_of_budget(c) {
                    break;
                }
                if lost {
                    losing.push(p);
                }
            }
            losing
        });
        let safe: Vec<Point> = root_moves.iter().copied().filter(|p| !losing.contains(p)).collect();
        let root_set: Vec<Point> = if safe.is_empty() { root_moves.clone() } else { safe };
        let mut iteration_started = clock.elapsed();
        for depth in 1..=self.config.max_depth as i32 {
            let mut alpha = -WIN - 1;
            let beta = WIN + 1;
            let mut best: Option<(Point, i32)> = None;
            let tt_move = self.tt_probe().map_or(0, |e| e.best);
            let mut moves = self.ordered_moves(&scan, 0, tt_move, Some(&root_set));
            if let Some(prev) = best_from(&decision)
                && let Some(i) = moves.iter().position(|&m| m == prev)
            {
                moves[..=i].rotate_right(1);
            }
            for (i, &p) in moves.iter().enumerate() {
                self.place(p);
                let score = if i == 0 {
                    -self.search(depth - 1, -beta, -alpha, 1, &clock)
                } else {
                    let s = -self.search(depth - 1, -alpha - 1, -alpha, 1, &clock);
                    if s > alpha { -self.search(depth - 1, -beta, -alpha, 1, &clock) } else { s }
                };
                self.unplace();
                if self.aborted {
                    break;
                }
                if best.is_none_or(|(_, b)| score > b) {
                    best = Some((p, score));
                    alpha = alpha.max(score);
                }
            }
            if self.aborted {
                // An unfinished iteration has looked at some moves only: keep the last complete one.
                break;
            }
            let Some((p, score)) = best else { break };
            self.tt_store(depth, score, EXACT, p, 0);
            decision.action = p;
            decision.info = SearchInfo {
                depth: depth as u32,
                iterations: self.nodes,
                value: Some(reported_value(score)),
                proven: proven_plies(score),
                pv: self.principal_variation(p, depth as u32),
                elapsed: clock.elapsed(),
            };
            report(&decision.info);
            // The next iteration costs a few times this one: start it only if it can finish.
            let now = clock.elapsed();
            let last = now - iteration_started;
            iteration_started = now;
            let budget = limits.budget.time.unwrap_or(std::time::Duration::MAX);
            if score.abs() > WIN_THRESHOLD || (clock.has_deadline() && now + last * 3 > budget) {
                break;
            }
        }
        decision.info.iterations = self.nodes;
        decision.info.elapsed = clock.elapsed();
        decision
    }

    /// Runs `f` with a budget of `share` of the move's (time or node) budget, then lifts the stop
    /// so that the main search can go on.
    fn with_sub_budget<R>(
        &mut self,
        limits: &Limits,
        share: f64,
        f: impl FnOnce(&mut Self, &Clock) -> R,
    ) -> R {
        let budget = ply_core::Budget {
            time: limits.budget.time.map(|t| t.mul_f64(share)),
            iterations: limits.budget.iterations.map(|n| self.nodes + (n as f64 * share) as u64),
        };
        let sub = Limits { budget, stop: limits.stop.clone() }.start();
        let result = f(self, &sub);
        if !limits.stop.is_stopped() {
            self.aborted = false;
            self.next_time_check = self.nodes;
        }
        result
    }

    fn fallback_move(&self, board: &Board, scan: &[Scanned]) -> Point {
        let ordered = self.ordered_moves(scan, 0, 0, None);
        ordered
            .first()
            .copied()
            .or_else(|| board.points().find(|&p| board.is_legal(p)))
            .expect("asked to move on a full board")
    }
}

/// The moves worth searching when the opponent threatens: blocking its five; or, facing a
/// winning threat in the making (an open three, say), only stones on its strong points and fours
/// of our own. `None`: every candidate.
fn restriction(scan: &[Scanned]) -> Option<Vec<Point>> {
    let their_fives: Vec<Point> = scan.iter().filter(|s| s.theirs.five).map(|s| s.point).collect();
    if !their_fives.is_empty() {
        return Some(their_fives);
    }
    scan.iter().any(|s| s.theirs.winning).then(|| {
        scan.iter()
            .filter(|s| s.theirs.winning || s.theirs.fours > 0 || s.mine.fours > 0)
            .map(|s| s.point)
            .collect()
    })
}

fn best_from(decision: &Decision<Point>) -> Option<Point> {
    (decision.info.depth > 0).then_some(decision.action)
}

fn reported_value(score: i32) -> f64 {
    if score > WIN_THRESHOLD {
        1.0
    } else if score < -WIN_THRESHOLD {
        -1.0
    } else {
        (score as f64 / 600.0).tanh()
    }
}

fn proven_plies(score: i32) -> Option<i32> {
    if score > WIN_THRESHOLD {
        Some(WIN - score)
    } else if score < -WIN_THRESHOLD {
        Some(-(WIN + score))
    } else {
        None
    }
}

fn proven_info(plies: i32, pv: Vec<Point>, nodes: u64, clock: &Clock) -> SearchInfo<Point> {
    SearchInfo {
        depth: plies as u32,
        iterations: nodes,
        value: Some(1.0),
        proven: Some(plies),
        pv,
        elapsed: clock.elapsed(),
    }
}

/// The engine as an agent; its tables persist from move to move.
pub struct EnginePlayer {
    engine: Engine,
}

impl EnginePlayer {
    pub fn new(config: EngineConfig) -> Self {
        EnginePlayer { engine: Engine::new(config) }
    }
}

impl Agent<Board> for EnginePlayer {
    fn choose(
        &mut self,
        state: &Board,
        limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo<Point>),
    ) -> Decision<Point> {
        self.engine.think(state, limits, report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::rng::rng_from_seed;
    use rand::RngExt;

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
                        let fresh = engine.compute_threat(p, color);
                        let cached = engine.threats[p as usize][color as usize - 1];
                        assert_eq!(format!("{fresh:?}"), format!("{cached:?}"), "rule {rule:?} step {step}");
                    }
                }
            }
        }
    }
}

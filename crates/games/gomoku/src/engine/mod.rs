//! Ply's Gomoku engine (`alphabeta`): line shapes kept up to date stone by stone (`lines.rs`),
//! candidate moves near the stones, a victory-by-continuous-fours solver (VCF, `vcf.rs`) at the
//! root (and, if asked, at the leaves), and principal-variation alpha-beta with iterative
//! deepening, a transposition table, killer and history ordering, forced replies to fours and
//! threat-restricted replies to open threes, and renju's forbidden points for black.

mod eval;
mod hidden;
mod ordering;
mod point_set;
mod position;
mod quiesce;
mod search;
mod smp;
mod table;
mod time;

use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use ply_core::{Agent, Clock, Decision, Game, Limits, SearchInfo};

use crate::board::{BLACK, Board, CELLS, DIRECTIONS, EMPTY, Point, Rule, STRIDE, WALL, WHITE, ZOBRIST};
use crate::lines::{PairTable, Shape, key_shift};
use eval::ThreatSummary;
pub use eval::{COMBOS, EvalWeights, THREAT_MASKS};
pub use hidden::{FEATURES, HIDDEN, HIDDEN_ONE, HiddenLayer};
pub use ordering::{Facing, NodeMoves};

use ordering::Restriction;
pub(crate) use ordering::{move_point, pack_move};
pub(crate) use point_set::PointSet;
use position::PackedThreat;
use table::{SharedTable, TtEntry};

pub const WIN: i32 = 1_000_000;
const WIN_THRESHOLD: i32 = WIN - 10_000;
const TIME_CHECK_INTERVAL: u64 = 1024;
/// The length reported for a win a threat search proves without counting its plies (as the
/// tree scores a continuous-fours win found at a leaf): a win, of unknown length.
const THREAT_WIN_PLIES: i32 = 10;
/// The tree counts depth in hundredths of a ply, so that an extension or a reduction can be a
/// fraction of one (as Rapfi's are); iterations and the configuration count whole plies.
const ONE_PLY: i32 = 100;

#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    pub max_depth: u32,
    pub tt_bits: u32,
    /// Plies of the continuous-fours search (attacker and defender moves both count).
    pub vcf_depth: u32,
    /// Most moves searched at an interior node, best first by the static point scores.
    pub width: usize,
    /// Open threes the root's threat searches allow the attacker (fours are free).
    pub vct_threes: u32,
    /// Late move reductions.
    pub reductions: bool,
    /// How deep late moves are reduced: 0 for one ply; otherwise `0.5 + ln(depth)·ln(move
    /// number)·100/divisor` plies, one less in the principal variation, at least one and at most
    /// `depth − 2` (the logarithmic tables of chess engines).
    pub reduction_divisor: u32,
    /// Percent of a time budget a move uses once its best move has settled (more, up to 90,
    /// while it keeps changing). Time saved pays only where it carries over to later moves.
    pub time_share: u32,
    /// A node whose pruned moves (the best `width`, or the answers to a threat) all lose
    /// searches the others too before it counts as lost, so that a proven loss is one.
    pub sound: bool,
    /// Plies of the continuous-fours search at the tree's leaves (at most `vcf_depth`; 0: the
    /// static value alone).
    pub leaf_vcf: u32,
    /// Quiescence at the leaves: fours (each answered by its block) a line may add there, the
    /// side to move keeping its static value if they do not raise it (0: off).
    pub quiesce: u32,
    /// Answers to a winning threat in the making (an open three, say) searched without using
    /// depth, at most this many on a line of play: a threat sequence costs the attacker's moves
    /// alone, so that the tree sees wins by threes about twice as deep.
    pub threat_extensions: u32,
    /// Reverse futility pruning: a null-window node with a free choice of moves, at most three
    /// plies from the leaves, whose static value beats beta by this much a ply is cut (0: off).
    pub reverse_futility: i32,
    /// Fail-high reduction: an expected cut node with a free choice whose static value beats
    /// beta by this much a ply searches its moves other than fours a ply less (0: off).
    pub fail_high_margin: i32,
    /// Razoring: a null-window node with a free choice, at most two plies from the leaves, whose
    /// static value is this much a ply below alpha drops into the leaves' quiescence (0: off).
    pub razor: i32,
    /// Counter-attacks against a winning threat in the making: besides blocks and fours, the
    /// answers searched include our moves that make at least this many open threes (0: none).
    /// A double three can beat a four-three threat whose blocks give us fours with tempo.
    pub counter_threes: u32,
    /// Move-count pruning: a null-window node with a free choice of moves, at most four plies
    /// from the leaves, searches its best `3 + depth²` moves, and the rest only if they all lose.
    pub move_count_pruning: bool,
    /// Answers to a winning threat in the making also include the points that take the win
    /// away on one of its lines: against a four-three, a stone on the three's line where the
    /// opponent would make no four (`defusing_points`).
    pub defusers: bool,
    /// A node where the side to move makes an open four or two fours at once, and the
    /// opponent has no five to make, is scored as won (whatever fours the opponent has).
    pub double_four_wins: bool,
    /// A node where the side to move makes two open threes at once, and the opponent has no
    /// four to make, is scored as won.
    pub double_three_wins: bool,
    /// A node where the side to move has a four-three whose forced block makes the opponent
    /// no four is scored as won, whatever fours the opponent has elsewhere.
    pub four_three_probe: bool,
    /// Weight of the side to move's own point scores in the evaluation, in percent of the
    /// opponent's (the side to move plays first, so its chances count for more), with the
    /// hand-set evaluation.
    pub attack: i32,
    /// The evaluation: the learned tables, or the hand-set point scores.
    pub evaluation: Evaluation,
    /// Threads searching the same root (Lazy SMP, `smp.rs`); more than one makes the search
    /// depend on timing, so that it no longer replays exactly.
    pub threads: usize,
}

/// Which tables the evaluation reads (see `eval.rs`).
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Evaluation {
    /// Fitted by `gomoku-train` (shipped in `engine/weights.txt`).
    #[default]
    Learned,
    /// The hand-set point scores at `attack` percent for the side to move.
    Hand,
    /// Tables of the same form read from elsewhere (a file `gomoku-train fit` wrote), so that a
    /// fit can be played against the shipped tables without a build of its own.
    Tables(Arc<EvalWeights>),
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            max_depth: 64,
            tt_bits: 20,
            vcf_depth: 24,
            width: 20,
            vct_threes: 2,
            reductions: true,
            reduction_divisor: 175,
            time_share: 45,
            sound: true,
            leaf_vcf: 0,
            quiesce: 4,
            threat_extensions: 2,
            reverse_futility: 100,
            fail_high_margin: 20,
            razor: 0,
            move_count_pruning: true,
            defusers: true,
            double_four_wins: true,
            double_three_wins: true,
            four_three_probe: true,
            counter_threes: 0,
            attack: 130,
            evaluation: Evaluation::Learned,
            threads: 1,
        }
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

/// What the engine keeps per point, together (and aligned, 32 bytes) so that updating a point
/// touches one cache line.
#[derive(Clone, Copy, Default)]
#[repr(align(32))]
struct PointLines {
    /// Per direction, the cells four steps either side (see `lines.rs`).
    keys: [u16; 4],
    /// Per direction, the shapes a black and a white stone here would make, as a byte of the
    /// rule's pair table.
    shapes: [u8; 4],
    /// Black's and white's shapes over the four directions summed up (see
    /// `position::ENCODED`): a changed line adjusts the sum instead of recounting four lines.
    counts: [u32; 2],
    /// What a black and a white stone here would make.
    threats: [PackedThreat; 2],
    /// Black's and white's four shapes as one number (`eval::ordered`), what the evaluation's
    /// tables are indexed by.
    shape_index: [u16; 2],
}

/// What [`Engine::place`] changes besides the stone, saved for [`Engine::unplace`]: the
/// records of the 32 points on its lines and the point sets.
#[derive(Clone, Copy, Default)]
struct Undo {
    lines: [PointLines; 32],
    fives: [PointSet; 2],
    fours: [PointSet; 2],
    winning: [PointSet; 2],
    double_threes: [PointSet; 2],
    candidates: PointSet,
}

/// The search's own board: cells, line keys of every point and direction, and how many stones
/// lie within two points of each cell.
pub struct Engine {
    pub(crate) size: usize,
    rule: Rule,
    pub(crate) cells: [u8; CELLS],
    /// Per point: its line keys, shapes and threats.
    lines: Vec<PointLines>,
    pairs: PairTable,
    near: [u8; CELLS],
    /// Empty points with a stone within two points: the candidates.
    candidates: PointSet,
    /// Per side, the points (empty or not: only candidates are ever asked about) where a stone
    /// makes five, where it makes a four, where it makes a winning threat, and where it makes
    /// two open threes, before renju's forbidden points are taken out.
    fives: [PointSet; 2],
    fours: [PointSet; 2],
    winning: [PointSet; 2],
    double_threes: [PointSet; 2],
    pub(crate) stack: Vec<Point>,
    /// One record per stone placed since the position was loaded (`undo_len` of them; the
    /// vector keeps the deeper ones to save allocations).
    undo: Vec<Undo>,
    undo_len: usize,
    pub(crate) hash: u64,
    pub(crate) nodes: u64,
    next_time_check: u64,
    aborted: bool,
    tt: Arc<SharedTable>,
    /// While helper threads search beside this one: the nodes all of them have counted so
    /// far, for an iteration budget that is the whole search's (see `smp.rs`).
    pool: Option<Arc<AtomicU64>>,
    /// The part of `nodes` already added to `pool`.
    flushed: u64,
    /// The engines of the helper threads, kept from move to move (see `smp.rs`).
    helpers: Vec<Engine>,
    killers: Vec<[Point; 2]>,
    /// Per ply, the move list of the node being searched there, kept to save allocations.
    move_lists: Vec<Vec<u64>>,
    /// Where a node lists the moves its first pass left out.
    spare_moves: Vec<u64>,
    history: Vec<u32>,
    /// Threat extensions (see [`EngineConfig::threat_extensions`]) on the line being searched.
    extensions_on_line: u32,
    /// Continuous-fours searches that failed: the key's upper bits and the depth in the low
    /// byte (the slot stands for the key's low bits). A million entries: with many fours on
    /// the board the solver's tree outgrows a smaller table and searches positions again.
    pub(crate) vcf_table: Vec<u64>,
    /// The continuous-fours solver's move lists, one per remaining depth.
    pub(crate) vcf_lists: Vec<Vec<u64>>,
    /// Proven VCT results: key, threes allowed, whether the attacker wins.
    pub(crate) vct_table: Vec<(u64, u8, bool)>,
    tables: eval::ExpandedTables,
    config: EngineConfig,
}

const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;

pub(crate) fn other(color: u8) -> u8 {
    BLACK + WHITE - color
}

impl Engine {
    /// The most threads one search takes (see [`EngineConfig::threads`]).
    pub const MAX_THREADS: usize = 64;

    /// The memory one transposition-table entry takes, for [`ply_core::Resource::TableBits`].
    pub const TT_ENTRY_BYTES: u64 = SharedTable::ENTRY_BYTES;

    pub fn new(config: EngineConfig) -> Self {
        match &config.evaluation {
            Evaluation::Learned => Engine::with_weights(config, EvalWeights::learned()),
            Evaluation::Hand => Engine::with_weights(config.clone(), &EvalWeights::hand(config.attack)),
            Evaluation::Tables(weights) => Engine::with_weights(config.clone(), weights),
        }
    }

    /// An engine that evaluates with `weights` (whatever `config.evaluation` says).
    pub fn with_weights(config: EngineConfig, weights: &EvalWeights) -> Self {
        crate::lines::warm_up();
        let tt = Arc::new(SharedTable::new(config.tt_bits));
        Engine::build(config, eval::ExpandedTables::new(weights), tt)
    }

    /// An engine with its own board and tables but for the transposition table, `tt`.
    fn build(config: EngineConfig, tables: eval::ExpandedTables, tt: Arc<SharedTable>) -> Self {
        Engine {
            size: 15,
            rule: Rule::Freestyle,
            cells: [WALL; CELLS],
            lines: vec![PointLines::default(); CELLS],
            pairs: PairTable::get(false, false),
            near: [0; CELLS],
            candidates: PointSet::default(),
            fives: [PointSet::default(); 2],
            fours: [PointSet::default(); 2],
            winning: [PointSet::default(); 2],
            double_threes: [PointSet::default(); 2],
            stack: Vec::new(),
            undo: Vec::new(),
            undo_len: 0,
            hash: 0,
            nodes: 0,
            next_time_check: 0,
            aborted: false,
            tt,
            pool: None,
            flushed: 0,
            helpers: Vec::new(),
            killers: vec![[0; 2]; 256],
            move_lists: Vec::new(),
            spare_moves: Vec::new(),
            history: vec![0; CELLS],
            extensions_on_line: 0,
            vcf_table: vec![0; 1 << 20],
            vcf_lists: Vec::new(),
            vct_table: vec![(0, 0, false); 1 << 16],
            tables,
            config,
        }
    }

    /// Chooses a move for the side to move of `board`.
    pub fn think(
        &mut self,
        board: &Board,
        limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo<Point>),
    ) -> Decision<Point> {
        let clock = limits.start();
        if board.is_over() {
            // The Agent contract rules this out, but a caller may still ask: a point its
            // legality check refuses is a better answer than a panic.
            let p = board.points().find(|&p| board.at(p) == EMPTY).or_else(|| board.points().next());
            return Decision::new(p.unwrap_or_default());
        }
        self.load(board);
        self.nodes = 0;
        self.next_time_check = 0;
        self.aborted = false;
        self.history.iter_mut().for_each(|h| *h /= 4);
        let me = self.to_move();
        let candidates = self.candidate_set();
        // A win on the board, or a forced one by continuous fours, needs no further search.
        if let Some(p) = (self.fives[me as usize - 1] & candidates).first() {
            return Decision { action: p, info: proven_info(1, vec![p], self.nodes, &clock) };
        }
        // A share of the budget, like the threat searches below: with many fours on the board
        // the search can run long without finding a win.
        let vcf_depth = self.config.vcf_depth as i32;
        if let Some(line) = self.with_sub_budget(&clock, 0.2, |e, c| crate::vcf::vcf(e, me, vcf_depth, c)) {
            let info = proven_info(line.len() as i32, line.clone(), self.nodes, &clock);
            report(&info);
            return Decision { action: line[0], info };
        }
        // The same restrictions as inside the tree.
        let restriction = self.restriction(candidates);
        let mut decision = Decision::new(self.fallback_move(board, candidates));
        let root_moves = self.ordered_moves(candidates, restriction, 0);
        // Threat searches with a share of the budget each: a win by threes for us, and which of
        // our moves would let the opponent win by threes.
        let threes = self.config.vct_threes;
        if let Some(p) = self.with_sub_budget(&clock, 0.15, |e, c| {
            (threes > 0).then(|| crate::vct::vct_move(e, me, threes, 16, c)).flatten()
        }) {
            let info = proven_info(THREAT_WIN_PLIES, vec![p], self.nodes, &clock);
            report(&info);
            return Decision { action: p, info };
        }
        let width = self.config.width;
        let losing: Vec<Point> = self.with_sub_budget(&clock, 0.25, |e, c| {
            let mut losing = Vec::new();
            // Deepening by the threes allowed, over all the moves at once (see `vct_move`).
            'deepening: for allowed in 1..=threes {
                for &p in root_moves.iter().take(width) {
                    if losing.contains(&p) {
                        continue;
                    }
                    e.place(p);
                    let lost = crate::vct::vct(e, other(me), allowed, 16, c);
                    e.unplace();
                    if e.out_of_budget(c) {
                        break 'deepening;
                    }
                    if lost {
                        losing.push(p);
                    }
                }
            }
            losing
        });
        let safe: Vec<Point> = root_moves.iter().copied().filter(|p| !losing.contains(p)).collect();
        let root_set = if safe.is_empty() { &root_moves } else { &safe };
        let root_set = root_set.iter().fold(PointSet::default(), |mut set, &p| {
            set.insert(p as usize);
            set
        });
        // The moves a defence against a threat leaves out, but for those a threat search showed
        // to lose: searched too if every defence loses, as inside the tree.
        let left_out = match restriction {
            Restriction::Defend if self.config.sound => {
                let mut rest = candidates;
                for p in root_set.into_iter().chain(losing.iter().copied()) {
                    rest.assign(p as usize, false);
                }
                rest
            }
            _ => PointSet::default(),
        };
        let root = Root { candidates, moves: root_set, left_out };
        let helper_nodes = if self.config.threads > 1 {
            self.deepen_with_helpers(board, limits, &clock, root, &mut decision, report)
        } else {
            self.deepen(root, &mut decision, &clock, report);
            0
        };
        decision.info.iterations = self.nodes + helper_nodes;
        decision.info.elapsed = clock.elapsed();
        decision
    }

    /// Iterative deepening over the root's moves: `decision` is the best move of the deepest
    /// iteration, reported after each.
    fn deepen(
        &mut self,
        mut root: Root,
        decision: &mut Decision<Point>,
        clock: &Clock,
        report: &mut dyn FnMut(&SearchInfo<Point>),
    ) {
        // The tree's share is of the time the root's threat searches left: where they ran long
        // (many threats on the board), a settled move still gets a tree of some depth.
        let started = std::time::Instant::now();
        let mut time = time::TimeManager::new(clock.remaining(), f64::from(self.config.time_share) / 100.0);
        let mut depth = 0;
        while depth < self.config.max_depth as i32 {
            depth += 1;
            let (best, cut_off) = self.root_search(depth, &root, best_from(decision), clock);
            if self.aborted {
                // An unfinished iteration that proved every move it finished lost says nothing of
                // the move it was cut off in, which may hold: that one is played, with no proof.
                if let (Some((_, score)), Some(p)) = (best, cut_off)
                    && score < -WIN_THRESHOLD
                {
                    decision.action = p;
                    decision.info.proven = None;
                    decision.info.pv = vec![p];
                    break;
                }
                // An unfinished iteration's best move, if it is not the last one's, was searched
                // to the full depth and scored above it (the last best is searched first): it is
                // the better choice. Its line is only as long as the table remembers.
                if let Some((p, score)) = best
                    && best_from(decision) != Some(p)
                {
                    decision.action = p;
                    decision.info.value = Some(reported_value(score));
                    decision.info.proven = proven_plies(score);
                    decision.info.pv = self.principal_variation(p, depth as u32);
                }
                break;
            }
            let Some((p, score)) = best else { break };
            if root.widened_after(score) {
                depth -= 1;
                continue;
            }
            self.tt_store(depth * ONE_PLY, score, EXACT, p, 0);
            decision.action = p;
            decision.info = SearchInfo {
                depth: depth as u32,
                iterations: self.total_nodes(),
                value: Some(reported_value(score)),
                // A heuristic score is no chance of winning: no per-seat estimate.
                scores: Vec::new(),
                proven: proven_plies(score),
                pv: self.principal_variation(p, depth as u32),
                elapsed: clock.elapsed(),
            };
            report(&decision.info);
            time.iteration_done(p);
            if score.abs() > WIN_THRESHOLD || time.enough(started.elapsed()) {
                break;
            }
        }
    }

    /// One iteration at the root: the best of the root's moves searched to `depth` plies, with
    /// `first` (the last iteration's best) searched first. An aborted iteration gives the best
    /// of the moves it finished, and the move it was cut off in.
    fn root_search(
        &mut self,
        depth: i32,
        root: &Root,
        first: Option<Point>,
        clock: &Clock,
    ) -> (Option<(Point, i32)>, Option<Point>) {
        let mut alpha = -WIN - 1;
        let beta = WIN + 1;
        let mut best: Option<(Point, i32)> = None;
        let tt_move = self.tt_probe().map_or(0, |e| e.best);
        let mut moves = self.ordered_moves(root.candidates, Restriction::Only(root.moves), tt_move);
        if let Some(prev) = first
            && let Some(i) = moves.iter().position(|&m| m == prev)
        {
            moves[..=i].rotate_right(1);
        }
        let child_depth = (depth - 1) * ONE_PLY;
        for (i, &p) in moves.iter().enumerate() {
            self.place(p);
            let score = if i == 0 {
                -self.search(child_depth, -beta, -alpha, 1, false, clock)
            } else {
                let s = -self.search(child_depth, -alpha - 1, -alpha, 1, true, clock);
                if s > alpha { -self.search(child_depth, -beta, -alpha, 1, false, clock) } else { s }
            };
            self.unplace();
            if self.aborted {
                return (best, Some(p));
            }
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((p, score));
                alpha = alpha.max(score);
            }
        }
        (best, None)
    }

    /// Runs `f` with `share` of the move's (time or node) budget, never past what is left of it
    /// (see [`Clock::part`]), then lifts the stop so that the main search can go on.
    fn with_sub_budget<R>(&mut self, clock: &Clock, share: f64, f: impl FnOnce(&mut Self, &Clock) -> R) -> R {
        let sub = clock.part(share, self.nodes);
        let result = f(self, &sub);
        if !clock.stopped() {
            self.aborted = false;
            self.next_time_check = self.nodes;
        }
        result
    }

    /// The root's moves, best first.
    fn ordered_moves(
        &mut self,
        candidates: PointSet,
        restriction: Restriction,
        tt_move: Point,
    ) -> Vec<Point> {
        let mut packed = Vec::new();
        self.order_moves(&mut packed, candidates, restriction, 0, tt_move);
        packed.sort_unstable_by(|a, b| b.cmp(a));
        packed.into_iter().map(move_point).collect()
    }

    fn fallback_move(&mut self, board: &Board, candidates: PointSet) -> Point {
        let ordered = self.ordered_moves(candidates, Restriction::None, 0);
        ordered
            .first()
            .copied()
            .or_else(|| board.points().find(|&p| board.is_legal(p)))
            .expect("an unfinished game has a legal point")
    }
}

/// The moves the root searches (see [`Engine::think`]), as every thread gets them.
#[derive(Clone, Copy)]
struct Root {
    candidates: PointSet,
    moves: PointSet,
    /// Searched too if every move in `moves` loses.
    left_out: PointSet,
}

impl Root {
    /// Whether an iteration whose best score is `score` must be searched again with the moves
    /// left out: a loss among fewer moves than all is no loss yet.
    fn widened_after(&mut self, score: i32) -> bool {
        if score >= -WIN_THRESHOLD || self.left_out.is_empty() {
            return false;
        }
        self.moves = self.moves | self.left_out;
        self.left_out = PointSet::default();
        true
    }
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
        scores: Vec::new(),
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

    /// Sets [`EngineConfig::time_share`] for the moves to come.
    pub fn set_time_share(&mut self, percent: u32) {
        self.engine.config.time_share = percent;
    }

    /// The threads its searches take.
    pub fn threads(&self) -> usize {
        self.engine.config.threads
    }

    /// Sets [`EngineConfig::threads`] for the moves to come (at least one).
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.clamp(1, Engine::MAX_THREADS);
        self.engine.config.threads = threads;
        self.engine.helpers.truncate(threads - 1);
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

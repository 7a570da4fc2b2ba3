//! Lazy SMP: with `threads` > 1, helper threads search the same root as the main thread, each
//! with its own board, killers and history, all sharing the transposition table. The helpers'
//! results reach the main thread only through the table (a deeper entry cuts a search short, a
//! best move orders one); the main thread's iterations alone decide the move and are reported.
//! Helpers deepen on a schedule of their own, skipping depths, so that they run ahead of the
//! main thread rather than beside it. Which entries a thread finds depends on the timing of the
//! others, so a search with more than one thread does not replay exactly, even on a node budget.

use std::sync::atomic::Ordering::Relaxed;

use ply_core::StopFlag;

use super::*;

/// Stockfish's (9) skip blocks: helper `i` leaves out the depths `d` with
/// `(d + PHASE[i]) / SIZE[i]` odd, so that the first helper searches the even depths, the
/// second the odd ones, and further helpers blocks of two to four depths out of phase.
const SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

fn skips(helper: usize, depth: i32) -> bool {
    let i = helper % SKIP_SIZE.len();
    (depth + SKIP_PHASE[i]) / SKIP_SIZE[i] % 2 == 1
}

/// Stops the helpers however the main thread's search ends: were it to panic, the scope would
/// otherwise wait for helpers that never stop.
struct StopOnDrop<'a>(&'a StopFlag);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// Twice the default of the threads the engine already runs on (`ply engine`, `ply match`).
const HELPER_STACK_BYTES: usize = 4 << 20;

impl Engine {
    /// The memory a helper thread takes besides the shared table, at most: its threat tables,
    /// its per-point records, an undo record for every point of the largest board, and its
    /// stack.
    pub const HELPER_BYTES: u64 = (2 * (1 << 16) * std::mem::size_of::<(u64, u8, bool)>()
        + CELLS * std::mem::size_of::<PointLines>()
        + crate::board::MAX_SIZE * crate::board::MAX_SIZE * std::mem::size_of::<Undo>()
        + HELPER_STACK_BYTES) as u64;

    /// An engine for a helper thread: its own board, killers, history and threat tables, the
    /// same evaluation, and this engine's transposition table.
    fn helper(&self) -> Engine {
        let config = EngineConfig { threads: 1, ..self.config.clone() };
        Engine::build(config, self.tables.clone(), self.tt.clone())
    }

    /// [`Engine::deepen`] on this thread while `threads - 1` helpers search the same root;
    /// returns the nodes the helpers searched. An iteration budget counts every thread's nodes.
    pub(super) fn deepen_with_helpers(
        &mut self,
        board: &Board,
        limits: &Limits,
        clock: &Clock,
        root: Root,
        decision: &mut Decision<Point>,
        report: &mut dyn FnMut(&SearchInfo<Point>),
    ) -> u64 {
        let wanted = self.config.threads - 1;
        self.helpers.truncate(wanted);
        while self.helpers.len() < wanted {
            let helper = self.helper();
            self.helpers.push(helper);
        }
        let mut helpers = std::mem::take(&mut self.helpers);
        // The root's threat searches ran on this thread alone: their nodes count once.
        let pool = Arc::new(AtomicU64::new(self.nodes));
        self.flushed = self.nodes;
        self.pool = Some(pool.clone());
        // Stopped only by this thread, not the caller's flag: the caller's stop reaches the
        // helpers through this thread, which then stops them.
        let stop = StopFlag::new();
        let helper_limits = Limits { budget: limits.budget, stop: stop.clone() };
        std::thread::scope(|scope| {
            let _stop_helpers = StopOnDrop(&stop);
            for (i, helper) in helpers.iter_mut().enumerate() {
                // Here rather than on its thread: a helper whose thread fails to start counts
                // no nodes.
                helper.nodes = 0;
                helper.flushed = 0;
                helper.pool = Some(pool.clone());
                let clock = helper_limits.start();
                // A helper that cannot be started leaves the search to the others.
                let _ = std::thread::Builder::new()
                    .name(format!("gomoku-helper-{}", i + 1))
                    .stack_size(HELPER_STACK_BYTES)
                    .spawn_scoped(scope, move || helper.help(board, root, i, &clock));
            }
            self.deepen(root, decision, clock, report);
        });
        self.pool = None;
        let nodes = helpers
            .iter_mut()
            .map(|h| {
                h.pool = None;
                h.nodes
            })
            .sum();
        self.helpers = helpers;
        nodes
    }

    /// A helper thread's search: iterative deepening over the root's moves on helper `index`'s
    /// schedule of depths, until the clock stops it, it proves a result, or the deepest depth
    /// is done. Its results go to the table only.
    fn help(&mut self, board: &Board, mut root: Root, index: usize, clock: &Clock) {
        self.load(board);
        self.next_time_check = 0;
        self.aborted = false;
        self.history.iter_mut().for_each(|h| *h /= 4);
        let mut first = None;
        let mut depth = 0;
        while depth < self.config.max_depth as i32 {
            depth += 1;
            if skips(index, depth) {
                continue;
            }
            let (Some((p, score)), _) = self.root_search(depth, &root, first, clock) else {
                break;
            };
            if self.aborted {
                break;
            }
            if root.widened_after(score) {
                depth -= 1;
                continue;
            }
            self.tt_store(depth * ONE_PLY, score, EXACT, p, 0);
            first = Some(p);
            if score.abs() > WIN_THRESHOLD {
                break;
            }
        }
    }

    /// For [`Engine::out_of_budget`], while helpers search: adds this thread's new nodes to
    /// the count of all threads, and whether that count has spent the iteration budget.
    pub(super) fn pool_spent(&mut self, clock: &Clock) -> bool {
        let Some(pool) = &self.pool else { return false };
        let new = self.nodes - self.flushed;
        self.flushed = self.nodes;
        clock.iterations_exhausted(pool.fetch_add(new, Relaxed) + new)
    }

    /// The nodes searched so far by all threads, as far as they have counted them in.
    pub(super) fn total_nodes(&self) -> u64 {
        match &self.pool {
            Some(pool) => pool.load(Relaxed) + (self.nodes - self.flushed),
            None => self.nodes,
        }
    }
}

#[cfg(test)]
mod tests {
    use ply_core::Budget;

    use super::*;

    #[test]
    fn the_threads_share_one_node_budget_and_report_its_sum() {
        const BUDGET: u64 = 100_000;
        // An opening no search of a few million nodes proves (the one before it, a win of 23
        // plies, took 170K once the double three and the four-three's block were decided).
        let quiet = "h8 i9 j7 i7 g9 g8";
        let board = crate::notation::parse_board(&Board::new(15, Rule::Freestyle), quiet).unwrap();
        let mut engine = Engine::new(EngineConfig { tt_bits: 16, threads: 2, ..EngineConfig::default() });
        // Twice: the second move reuses the helper.
        for _ in 0..2 {
            let decision = engine.think(&board, &Limits::new(Budget::iterations(BUDGET)), &mut |_| {});
            assert!(board.is_legal(decision.action));
            assert_eq!(decision.info.proven, None, "a quiet position: the budget ends the search");
            assert_eq!(engine.helpers.len(), 1);
            let helper = engine.helpers[0].nodes;
            assert!(helper > 0 && engine.nodes < BUDGET, "main {}, helper {helper}", engine.nodes);
            assert_eq!(decision.info.iterations, engine.nodes + helper);
            // Each thread counts its nodes in every 1024, and stops at the next count.
            let most = BUDGET + 2 * TIME_CHECK_INTERVAL;
            assert!((BUDGET..=most).contains(&decision.info.iterations), "{:?}", decision.info);
        }
    }

    #[test]
    fn the_first_helpers_search_the_even_and_the_odd_depths() {
        let searched = |helper| (1..=8).filter(|&d| !skips(helper, d)).collect::<Vec<_>>();
        assert_eq!(searched(0), [2, 4, 6, 8]);
        assert_eq!(searched(1), [1, 3, 5, 7]);
        assert_eq!(searched(2), [1, 4, 5, 8]);
    }
}

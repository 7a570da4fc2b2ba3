//! Which moves a node searches and in what order: the answers to a threat, and the ordering
//! keys (table move, killers, static scores, history) packed with their points.

use super::*;

impl Engine {
    /// The moves worth searching when the opponent threatens: blocking its five; or, facing a
    /// winning threat in the making (an open three, say), only stones on its strong points and
    /// fours of our own.
    pub(super) fn restriction(&mut self, candidates: PointSet) -> Restriction {
        let them = other(self.to_move());
        let their_fives = self.fives[them as usize - 1] & candidates;
        if !their_fives.is_empty() {
            Restriction::Only(their_fives)
        } else if self.any_threat(self.winning[them as usize - 1] & candidates, them, |t| t.winning) {
            Restriction::Defend
        } else {
            Restriction::None
        }
    }

    /// Fills `out` with the moves `restriction` leaves, unordered. Forbidden points are left
    /// out. Each move is packed with its ordering key, so that the greater number is the better
    /// move (see [`move_point`]): table move, killers, then static score plus history, ties to
    /// the lower point.
    pub(super) fn order_moves(
        &mut self,
        out: &mut Vec<u64>,
        candidates: PointSet,
        restriction: Restriction,
        ply: usize,
        tt_move: Point,
    ) {
        out.clear();
        let me = self.to_move();
        let them = other(me);
        let (m, t) = (me as usize - 1, them as usize - 1);
        let defusers = if restriction == Restriction::Defend && self.config.defusers {
            self.defusing_points(candidates & self.winning[t], me) & candidates
        } else {
            PointSet::default()
        };
        let pool = match restriction {
            Restriction::Only(set) => set,
            // Counter-attacks are told by their open threes, which the point sets do not keep.
            Restriction::Defend if self.config.counter_threes > 0 => candidates,
            Restriction::Defend => candidates & (self.winning[t] | self.fours[t] | self.fours[m] | defusers),
            Restriction::None => candidates,
        };
        let killers = self.killers.get(ply).copied().unwrap_or_default();
        let defend = restriction == Restriction::Defend;
        // Black's double threats under renju may be forbidden points: those wait for the full
        // check below. The order moves are listed in does not matter, only their keys.
        let renju = self.rule == Rule::Renju;
        let mut deferred = false;
        pool.for_each(|p| {
            let [mine, theirs] = [self.lines[p].threats[m], self.lines[p].threats[t]];
            let black = if me == BLACK { mine } else { theirs };
            if renju && black.risky() {
                deferred = true;
                return;
            }
            if defend
                && !(theirs.winning()
                    || theirs.has_four()
                    || mine.has_four()
                    || self.counters(mine.open_threes())
                    || defusers.contains(p))
            {
                return;
            }
            out.push(self.move_key(p as Point, mine.score(), theirs.score(), tt_move, killers));
        });
        if deferred {
            for p in pool {
                let black = self.lines[p as usize].threats[0];
                if !black.risky() {
                    continue;
                }
                let mine = self.threat(p, me);
                let theirs = self.threat(p, them);
                let answers = theirs.winning
                    || theirs.fours > 0
                    || mine.fours > 0
                    || self.counters(mine.open_threes)
                    || defusers.contains(p as usize);
                if mine.forbidden || (defend && !answers) {
                    continue;
                }
                out.push(self.move_key(p, mine.score, theirs.score, tt_move, killers));
            }
        }
    }

    /// Whether a move making `open_threes` is a counter-attack worth searching against a threat.
    fn counters(&self, open_threes: u8) -> bool {
        let least = self.config.counter_threes;
        least > 0 && u32::from(open_threes) >= least
    }

    /// A move packed with its ordering key (see [`Self::order_moves`]).
    fn move_key(&self, p: Point, mine: i32, theirs: i32, tt_move: Point, killers: [Point; 2]) -> u64 {
        let mut key = i64::from(mine * 2 + theirs) * 1000 + i64::from(self.history[p as usize]);
        if p == tt_move {
            key += 1 << 40;
        } else if killers[0] == p || killers[1] == p {
            key += 1 << 30;
        }
        // Keys are never negative and stay below 2^42: the point fits under them.
        pack_move(key as u64, p)
    }
}

/// What a position's side to move faces, as the tree tells it apart: it decides which moves a
/// node searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Facing {
    /// Nothing to choose: the node is scored without a move (a five of ours to make, two of
    /// the opponent's to block, or a winning threat of ours its fours cannot stop; see
    /// `decided_score`).
    Decided,
    /// No threat: every candidate, the best [`EngineConfig::width`] of them below the root.
    Nothing,
    /// A five to block: those points only.
    Five,
    /// A winning threat in the making (an open three, a four-three to be): its answers only.
    Threat,
}

/// The moves of a position in the order a node of the tree tries them, before any search
/// (no table move, killers or history): the ones it would never search are left out.
#[derive(Clone, Debug)]
pub struct NodeMoves {
    pub facing: Facing,
    pub moves: Vec<Point>,
}

impl Engine {
    /// The moves a node of the tree in `board`'s position would search, best first: a probe of
    /// the move ordering and answer sets (`gomoku-train rank` measures where a stronger
    /// player's moves fall in them).
    pub fn node_moves(&mut self, board: &Board) -> NodeMoves {
        self.load(board);
        self.history.fill(0);
        self.killers.fill([0; 2]);
        let candidates = self.candidate_set();
        if self.decided_score(candidates, 0).is_some() {
            return NodeMoves { facing: Facing::Decided, moves: Vec::new() };
        }
        let restriction = self.restriction(candidates);
        let mut keyed = Vec::new();
        self.order_moves(&mut keyed, candidates, restriction, 0, 0);
        keyed.sort_unstable_by(|a, b| b.cmp(a));
        let facing = match restriction {
            Restriction::None => Facing::Nothing,
            Restriction::Only(_) => Facing::Five,
            Restriction::Defend => Facing::Threat,
        };
        NodeMoves { facing, moves: keyed.into_iter().map(move_point).collect() }
    }
}

/// Which candidates a node searches (see [`Engine::restriction`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Restriction {
    /// Every candidate, the best [`EngineConfig::width`] of them.
    None,
    /// These points only.
    Only(PointSet),
    /// Points where the opponent makes a winning threat or a four, and our fours.
    Defend,
}

/// A move and its ordering key in one number, so that sorting numbers sorts moves: the greater
/// key first, ties to the lower point. Keys stay below 2^48.
pub(crate) fn pack_move(key: u64, p: Point) -> u64 {
    key << 16 | u64::from(u16::MAX - p)
}

/// The point of a move packed by [`pack_move`].
pub(crate) fn move_point(packed: u64) -> Point {
    u16::MAX - packed as u16
}

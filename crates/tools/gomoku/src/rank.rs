//! Where a player's moves fall among the moves a node of the engine's tree would search, in the
//! order it would try them: a stronger player's moves that the tree ranks low, or never
//! searches, show what its move ordering and answer sets miss. (This is how the engine's
//! answers on a three's line were found: docs/gomoku.md, "Kept: answers on the three's line".)

use std::fmt;

use ply_gomoku::{Board, Engine, EngineConfig, Facing, Rule, parse_board};

/// The ranks counted apart: the first move, 2–3, 4–6, 7–10, 11–20, below 20 (which a free
/// node below the root never searches, at the default width), and not searched at all.
pub const RANK_BOUNDS: [usize; 5] = [1, 3, 6, 10, 20];
const COLUMNS: usize = RANK_BOUNDS.len() + 2;

/// The counts for the positions of one kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub positions: usize,
    /// Positions by the rank of the move played (see [`RANK_BOUNDS`]); the last column counts
    /// the moves the node would never search.
    pub by_rank: [usize; COLUMNS],
    /// The moves the node would search, summed over the positions.
    pub listed: usize,
}

impl Tally {
    fn add(&mut self, rank: Option<usize>, listed: usize) {
        let column = match rank {
            Some(r) => RANK_BOUNDS.iter().position(|&bound| r < bound).unwrap_or(RANK_BOUNDS.len()),
            None => COLUMNS - 1,
        };
        self.positions += 1;
        self.by_rank[column] += 1;
        self.listed += listed;
    }

    fn merged(tallies: &[Tally]) -> Tally {
        let mut all = Tally::default();
        for t in tallies {
            all.positions += t.positions;
            all.listed += t.listed;
            for (sum, n) in all.by_rank.iter_mut().zip(t.by_rank) {
                *sum += n;
            }
        }
        all
    }
}

/// The tallies by what the side to move faced, and the positions whose move the node would
/// never search (as `moves<TAB>move` lines).
#[derive(Debug, Default)]
pub struct Ranks {
    /// Indexed as [`Facing::Nothing`], [`Facing::Five`], [`Facing::Threat`].
    pub by_facing: [Tally; 3],
    /// Positions the tree scores without a move ([`Facing::Decided`]), not ranked.
    pub decided: usize,
    pub never_searched: Vec<String>,
}

/// Ranks each `(position's moves, move)` pair (freestyle 15×15, Ply's notation) in the order of
/// the engine's default configuration.
pub fn rank_moves(moves: &[(String, String)]) -> Result<Ranks, String> {
    let template = Board::new(15, Rule::Freestyle);
    let mut engine = Engine::new(EngineConfig { tt_bits: 10, ..EngineConfig::default() });
    let mut ranks = Ranks::default();
    for (before, played) in moves {
        let board = parse_board(&template, before).map_err(|e| format!("'{before}': {e}"))?;
        let after = parse_board(&template, &format!("{before} {played}"))
            .map_err(|e| format!("'{before}' then '{played}': {e}"))?;
        let point = *after.moves().last().expect("the move just parsed");
        let node = engine.node_moves(&board);
        if node.facing == Facing::Decided {
            ranks.decided += 1;
            continue;
        }
        let rank = node.moves.iter().position(|&p| p == point);
        if rank.is_none() {
            ranks.never_searched.push(format!("{before}\t{played}"));
        }
        let kind = match node.facing {
            Facing::Nothing => 0,
            Facing::Five => 1,
            Facing::Threat => 2,
            Facing::Decided => unreachable!("decided positions are not ranked"),
        };
        ranks.by_facing[kind].add(rank, node.moves.len());
    }
    Ok(ranks)
}

impl fmt::Display for Ranks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "facing     positions  searched   #1   2-3   4-6  7-10 11-20  >20  never")?;
        let names = ["nothing", "a five", "a threat"];
        let all = Tally::merged(&self.by_facing);
        for (name, t) in names.iter().zip(&self.by_facing).chain([(&"all", &all)]) {
            let n = t.positions.max(1) as f64;
            write!(f, "{name:<10} {:>9} {:>9.1}", t.positions, t.listed as f64 / n)?;
            for count in t.by_rank {
                write!(f, " {:>5.1}", 100.0 * count as f64 / n)?;
            }
            writeln!(f)?;
        }
        writeln!(
            f,
            "(ranks in % of each row's positions; 'searched': the moves a node would search, on average)"
        )?;
        write!(
            f,
            "not ranked: {} positions the tree scores without a move (a five to make, say)",
            self.decided
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(before: &str, played: &str) -> (String, String) {
        (before.to_string(), played.to_string())
    }

    #[test]
    fn forced_blocks_rank_first_and_far_moves_are_never_searched() {
        let moves = [
            // Black's four on row 8, closed at g8: white's one move is the block on l8.
            pair("h8 g8 i8 a1 j8 a2 k8", "l8"),
            // The same, answered far away: a move the node never searches.
            pair("h8 g8 i8 a1 j8 a2 k8", "o15"),
            // An open three of black's: blocks at its ends are among the answers.
            pair("h8 a1 i8 a2 j8", "k8"),
            // White to move with a five to make on a6: no choice is ranked.
            pair("h8 a1 i8 a2 j8 a3 c13 a4 d13", "a5"),
        ];
        let ranks = rank_moves(&moves).unwrap();
        let [nothing, five, threat] = ranks.by_facing;
        assert_eq!(nothing.positions, 0);
        assert_eq!(five.positions, 2);
        assert_eq!(five.by_rank[0], 1);
        assert_eq!(five.by_rank[COLUMNS - 1], 1);
        assert_eq!(threat.positions, 1);
        assert_eq!(threat.by_rank[COLUMNS - 1], 0);
        assert_eq!(ranks.never_searched, ["h8 g8 i8 a1 j8 a2 k8\to15"]);
        assert_eq!(ranks.decided, 1);
        assert!(ranks.to_string().contains("a five"));
    }

    #[test]
    fn a_move_that_does_not_parse_is_an_error_naming_it() {
        let err = rank_moves(&[pair("h8 h8", "i9")]).unwrap_err();
        assert!(err.contains("'h8 h8'"), "{err}");
        let err = rank_moves(&[pair("h8", "h8")]).unwrap_err();
        assert!(err.contains("then 'h8'"), "{err}");
    }
}

//! The Gomocup (Piskvork) brain protocol, as spoken by `pbrain-ply` (docs/gomoku.md).
//!
//! Coordinates are `x,y` from 0, x the column. The brain answers START/RECTSTART/RESTART with
//! `OK` (or `ERROR reason`), BEGIN/TURN/BOARD…DONE with its move, TAKEBACK with `OK`, ABOUT
//! with its identity; INFO is silent; anything else gets `UNKNOWN reason`. It never plays an
//! occupied or forbidden point and keeps inside the per-move and per-match time limits.

use std::io::{BufRead, Write};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ply_core::{Agent, Budget, Limits, StopFlag};

use crate::board::{BLACK, Board, EMPTY, MAX_SIZE, MIN_SIZE, Point, Rule, WHITE};
use crate::engine::{Engine, EngineConfig, EnginePlayer};
use crate::notation::point_to_xy_text;

/// The search time for `INFO timeout_turn 0`, "play as fast as possible": enough for the
/// threat searches and a few plies, far below any clock.
const FASTEST_MS: u64 = 5;

/// Percent of a move's time used once the best move has settled: all of it (less what the
/// iteration under way needs) when the move limit binds, and less when saving helps the moves
/// to come under the match clock.
const SPEND_ALL: u32 = 90;
const SAVE: u32 = 45;

/// The most of a received line an error reply quotes: a huge line is not echoed back whole.
const QUOTE_CHARS: usize = 40;

/// `text` for an error reply, cut to [`QUOTE_CHARS`] characters.
pub fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTE_CHARS) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}... ({} bytes)", &text[..cut], text.len()),
    }
}

/// What the manager told us with INFO.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub timeout_turn_ms: u64,
    pub timeout_match_ms: u64,
    pub time_left_ms: u64,
    pub max_memory_bytes: u64,
    pub rule: Rule,
    /// The search threads (`INFO thread_num`, as far as [`usable_threads`] allows).
    pub threads: usize,
}

impl Default for Settings {
    fn default() -> Self {
        // The protocol's defaults: 30 s a move, a match clock large enough to ignore.
        Settings {
            timeout_turn_ms: 30_000,
            timeout_match_ms: 1_000_000_000,
            time_left_ms: 1_000_000_000,
            max_memory_bytes: 0,
            rule: Rule::Freestyle,
            threads: 1,
        }
    }
}

impl Settings {
    /// Thinking time for one move: inside the move limit and a share of the match clock, less a
    /// margin for reading, writing and the clock check interval.
    pub fn move_time(&self, stones: usize, size: usize) -> Duration {
        if self.timeout_turn_ms == 0 {
            // The protocol's "play as fast as possible".
            return Duration::from_millis(FASTEST_MS);
        }
        let moves_left = ((size * size).saturating_sub(stones) / 2).clamp(10, 60) as u64;
        let from_match = self.time_left_ms / moves_left;
        let limit = self.timeout_turn_ms.min(from_match);
        let margin = (limit / 10).max(30);
        Duration::from_millis(limit.saturating_sub(margin).max(5))
    }

    /// Whether the move limit, not the match clock, bounds this move: then time a move saves is
    /// not carried over to any other, and the move may as well use all of it.
    pub fn turn_limit_binds(&self, stones: usize, size: usize) -> bool {
        let moves_left = ((size * size).saturating_sub(stones) / 2).clamp(10, 60) as u64;
        self.timeout_turn_ms > 0 && self.timeout_turn_ms <= self.time_left_ms / moves_left / 2
    }

    /// The transposition table size that fits the memory limit, at most 2^`most` entries:
    /// half of what the helper threads' own state leaves. The threads share the one table.
    pub fn table_bits(&self, most: u32) -> u32 {
        if self.max_memory_bytes == 0 {
            return most;
        }
        let helpers = (self.threads.max(1) as u64 - 1) * Engine::HELPER_BYTES;
        let entries =
            (self.max_memory_bytes.saturating_sub(helpers) / 2 / Engine::TT_ENTRY_BYTES).max(1 << 10);
        (63 - entries.leading_zeros()).min(most)
    }
}

/// What the input reader and the brain share about stopping searches.
#[derive(Default)]
struct SearchControl {
    searching: Option<StopFlag>,
    /// STOP, YXSTOP and END lines the reader has read: more than the brain has handled means
    /// one is waiting behind the command being handled, so that command's search stops at once.
    stops_read: u64,
}

pub struct Brain {
    board: Option<Board>,
    settings: Settings,
    /// The engine's settings before the manager's: the defaults, or a spec's (`pbrain-ply SPEC`).
    base: EngineConfig,
    engine: EnginePlayer,
    engine_bits: u32,
    /// Shared with the input reader, which stops the search when STOP, YXSTOP or END arrives.
    control: Arc<Mutex<SearchControl>>,
    /// STOP, YXSTOP and END lines handled so far.
    stops_handled: u64,
    /// Set by END (or the end of input): the caller stops reading.
    pub finished: bool,
}

impl Default for Brain {
    fn default() -> Self {
        Self::new()
    }
}

const ABOUT: &str = "name=\"Ply\", version=\"0.1.0\", author=\"Ply contributors\", country=\"-\"";

impl Brain {
    pub fn new() -> Self {
        Self::with_config(EngineConfig::default())
    }

    /// A brain whose engine starts from `base`: its table is no larger than `base.tt_bits`, it
    /// searches with `base.threads` until `INFO thread_num` says otherwise, and the manager's
    /// clock sets its time.
    pub fn with_config(base: EngineConfig) -> Self {
        let settings = Settings { threads: base.threads, ..Settings::default() };
        let bits = settings.table_bits(base.tt_bits);
        Brain {
            board: None,
            engine: EnginePlayer::new(EngineConfig { tt_bits: bits, ..base.clone() }),
            engine_bits: bits,
            settings,
            base,
            control: Arc::default(),
            stops_handled: 0,
            finished: false,
        }
    }

    /// For the input reader: a STOP, YXSTOP or END line was read. It stops the search in
    /// progress, or the next one if that line comes after the command that starts it.
    pub fn stopper(&self) -> impl Fn() + Send + Sync + 'static {
        let control = self.control.clone();
        move || {
            let mut control = control.lock().unwrap_or_else(|e| e.into_inner());
            control.stops_read += 1;
            if let Some(stop) = &control.searching {
                stop.stop();
            }
        }
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The position as the brain sees it, once a game is started.
    pub fn board(&self) -> Option<&Board> {
        self.board.as_ref()
    }

    /// Handles one line; `more` supplies the following lines for BOARD. Returns the reply lines.
    pub fn handle(&mut self, line: &str, more: &mut dyn FnMut() -> Option<String>) -> Vec<String> {
        let line = line.trim();
        if line.is_empty() {
            return Vec::new();
        }
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        if is_stop(word) {
            self.stops_handled += 1;
        }
        match word.to_ascii_uppercase().as_str() {
            "START" => self.start(rest.parse().ok(), rest),
            "RECTSTART" => match rest
                .split_once(',')
                .map(|(w, h)| (w.trim().parse::<usize>(), h.trim().parse::<usize>()))
            {
                Some((Ok(w), Ok(h))) if w == h => self.start(Some(w), rest),
                Some((Ok(_), Ok(_))) => {
                    vec!["ERROR rectangular boards are not supported; only square ones".into()]
                }
                _ => vec![format!("ERROR RECTSTART needs width,height, got '{}'", quoted(rest))],
            },
            "RESTART" => match &self.board {
                Some(b) => {
                    self.board = Some(Board::new(b.size(), self.settings.rule));
                    vec!["OK".into()]
                }
                None => vec!["ERROR RESTART before START".into()],
            },
            "BEGIN" => match &self.board {
                Some(b) if b.moves().is_empty() => self.reply_move(),
                Some(_) => vec!["ERROR BEGIN on a board that already has stones".into()],
                None => vec!["ERROR BEGIN before START".into()],
            },
            "TURN" => self.turn(rest),
            "BOARD" => self.board_command(more),
            "TAKEBACK" => self.takeback(rest),
            "INFO" => {
                self.info(rest);
                Vec::new()
            }
            "END" => {
                self.finished = true;
                Vec::new()
            }
            // Only meaningful while a search runs (the reader stops it then); idle, nothing to do.
            "STOP" | "YXSTOP" => Vec::new(),
            "ABOUT" => vec![ABOUT.into()],
            _ => vec![format!("UNKNOWN command '{}'", quoted(word))],
        }
    }

    fn start(&mut self, size: Option<usize>, text: &str) -> Vec<String> {
        match size {
            Some(n) if (MIN_SIZE..=MAX_SIZE).contains(&n) => {
                self.board = Some(Board::new(n, self.settings.rule));
                vec!["OK".into()]
            }
            _ => vec![format!(
                "ERROR unsupported board size '{}': Ply plays {MIN_SIZE} to {MAX_SIZE}",
                quoted(text)
            )],
        }
    }

    fn info(&mut self, rest: &str) {
        let (key, value) = match rest.split_once(char::is_whitespace) {
            Some((k, v)) => (k.to_ascii_lowercase(), v.trim()),
            None => return,
        };
        let number = value.parse::<u64>().ok();
        match (key.as_str(), number) {
            ("timeout_turn", Some(v)) => self.settings.timeout_turn_ms = v,
            ("timeout_match", Some(v)) => self.settings.timeout_match_ms = v,
            ("time_left", Some(v)) => self.settings.time_left_ms = v,
            ("max_memory", Some(v)) => self.settings.max_memory_bytes = v,
            ("thread_num", Some(v)) => self.settings.threads = usable_threads(v),
            ("rule", Some(v)) => {
                let rule = if v & 4 != 0 {
                    Rule::Renju
                } else if v & 1 != 0 {
                    Rule::Standard
                } else {
                    Rule::Freestyle
                };
                if rule != self.settings.rule {
                    self.settings.rule = rule;
                    // Keep the stones: replay them under the new rule.
                    if let Some(b) = &self.board {
                        let mut fresh = Board::new(b.size(), rule);
                        for &p in b.moves() {
                            fresh.place(p);
                        }
                        self.board = Some(fresh);
                    }
                }
            }
            // game_type, folder, evaluate and unknown keys need nothing from us.
            _ => {}
        }
    }

    fn parse_xy(&self, text: &str) -> Result<Point, String> {
        let board = self.board.as_ref().ok_or("no game started (send START first)")?;
        let (x, y) = text.split_once(',').ok_or_else(|| format!("'{}' is not x,y", quoted(text)))?;
        let (x, y) = match (x.trim().parse::<usize>(), y.trim().parse::<usize>()) {
            (Ok(x), Ok(y)) => (x, y),
            _ => return Err(format!("'{}' is not x,y with whole numbers", quoted(text))),
        };
        board.point(x, y).ok_or_else(|| format!("{x},{y} is off the {0}x{0} board", board.size()))
    }

    fn turn(&mut self, rest: &str) -> Vec<String> {
        let p = match self.parse_xy(rest) {
            Ok(p) => p,
            Err(e) => return vec![format!("ERROR {e}")],
        };
        let board = self.board.as_mut().expect("parse_xy checked the board");
        if board.at(p) != EMPTY {
            return vec![format!("ERROR {} is already taken", quoted(rest))];
        }
        if board.winner().is_some() {
            return vec!["ERROR the game is already over".into()];
        }
        board.place(p);
        self.reply_move()
    }

    fn board_command(&mut self, more: &mut dyn FnMut() -> Option<String>) -> Vec<String> {
        let mut stones: Vec<(Point, u8)> = Vec::new();
        let mut error = None;
        loop {
            let Some(line) = more() else {
                return vec!["ERROR BOARD ended without DONE".into()];
            };
            let line = line.trim().to_string();
            if line.eq_ignore_ascii_case("DONE") {
                break;
            }
            if line.eq_ignore_ascii_case("END") {
                // The manager is done with us, BOARD or not.
                self.stops_handled += 1;
                self.finished = true;
                return Vec::new();
            }
            if error.is_some() || line.is_empty() {
                continue;
            }
            let fields: Vec<&str> = line.split(',').map(str::trim).collect();
            let parsed = match fields[..] {
                [x, y, c] => self.parse_xy(&format!("{x},{y}")).and_then(|p| match c {
                    "1" | "2" => Ok((p, c.as_bytes()[0] - b'0')),
                    "3" => Ok((p, 0)),
                    other => Err(format!("stone owner must be 1, 2 or 3, got '{}'", quoted(other))),
                }),
                _ => Err(format!("'{}' is not x,y,owner", quoted(&line))),
            };
            match parsed {
                Ok((_, 0)) => {}
                Ok((p, owner)) if stones.iter().any(|s| s.0 == p) => {
                    error = Some(format!(
                        "{} is listed twice (owner {owner})",
                        point_text(self.board.as_ref(), p)
                    ))
                }
                Ok(stone) => stones.push(stone),
                Err(e) => error = Some(e),
            }
        }
        if let Some(e) = error {
            return vec![format!("ERROR {e}")];
        }
        let Some(board) = &self.board else { return vec!["ERROR BOARD before START".into()] };
        // Our stones are 1, the opponent's 2; we are to move, so we are black when the counts
        // are equal.
        let mine = stones.iter().filter(|s| s.1 == 1).count();
        let theirs = stones.len() - mine;
        let my_color = if mine == theirs { BLACK } else { WHITE };
        if !(mine == theirs || theirs == mine + 1) {
            return vec![format!(
                "ERROR impossible stone counts: {mine} of ours, {theirs} of the opponent's, and we are to move"
            )];
        }
        let colored: Vec<(Point, u8)> = stones
            .iter()
            .map(|&(p, owner)| (p, if owner == 1 { my_color } else { BLACK + WHITE - my_color }))
            .collect();
        match Board::from_stones_in_order(board.size(), self.settings.rule, &colored) {
            Ok(b) => {
                // A finished game gets its ERROR from reply_move, as after TURN.
                self.board = Some(b);
                self.reply_move()
            }
            Err(e) => vec![format!("ERROR {e}")],
        }
    }

    fn takeback(&mut self, rest: &str) -> Vec<String> {
        let p = match self.parse_xy(rest) {
            Ok(p) => p,
            Err(e) => return vec![format!("ERROR {e}")],
        };
        let board = self.board.as_mut().expect("parse_xy checked the board");
        if board.moves().last() != Some(&p) {
            return vec![format!("ERROR {} is not the last stone played", quoted(rest))];
        }
        board.take_back();
        vec!["OK".into()]
    }

    fn reply_move(&mut self) -> Vec<String> {
        let Some(board) = self.board.clone() else { return vec!["ERROR no game started".into()] };
        if board.black_has_only_forbidden_points() {
            // No move is legal, and a forbidden one would be a move the brain never plays: the
            // manager hears why there is none (docs/gomoku.md, renju).
            return vec![
                "ERROR no legal move: every empty point is forbidden for black under renju, so black has lost"
                    .into(),
            ];
        }
        if let Some(over) = game_over(&board) {
            return vec![format!("ERROR {over}")];
        }
        let bits = self.settings.table_bits(self.base.tt_bits);
        if bits != self.engine_bits {
            self.engine = EnginePlayer::new(EngineConfig { tt_bits: bits, ..self.base.clone() });
            self.engine_bits = bits;
        }
        let (stones, size) = (board.moves().len(), board.size());
        let share = if self.settings.turn_limit_binds(stones, size) { SPEND_ALL } else { SAVE };
        self.engine.set_time_share(share);
        self.engine.set_threads(self.settings.threads);
        let budget = Budget { time: Some(self.settings.move_time(stones, size)), iterations: None };
        let limits = Limits::new(budget);
        {
            let mut control = self.control.lock().unwrap_or_else(|e| e.into_inner());
            if control.stops_read > self.stops_handled {
                limits.stop.stop();
            }
            control.searching = Some(limits.stop.clone());
        }
        let decision = self.engine.choose(&board, &limits, &mut |_| {});
        self.control.lock().unwrap_or_else(|e| e.into_inner()).searching = None;
        let mut p = decision.action;
        if !board.is_legal(p) {
            // The engine never should; the protocol must never see an illegal move.
            match board.points().find(|&q| board.is_legal(q)) {
                Some(q) => p = q,
                None => return vec!["ERROR no legal move in this position".into()],
            }
        }
        let mut board = board;
        board.place(p);
        let reply = point_to_xy_text(&board, p);
        self.board = Some(board);
        let info = &decision.info;
        vec![
            format!(
                "MESSAGE depth {} nodes {} value {:.3} time {} ms threads {}",
                info.depth,
                info.iterations,
                info.value.unwrap_or(0.0),
                info.elapsed.as_millis(),
                self.engine.threads()
            ),
            reply,
        ]
    }
}

/// The threads to search with when the manager allows `n`: no more than two a core, beyond
/// which threads only take turns, nor [`Engine::MAX_THREADS`].
pub fn usable_threads(n: u64) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    usize::try_from(n).unwrap_or(usize::MAX).clamp(1, (2 * cores).min(Engine::MAX_THREADS))
}

/// The commands that stop a search: STOP and YXSTOP (Yixin's), and END.
fn is_stop(word: &str) -> bool {
    ["STOP", "YXSTOP", "END"].iter().any(|w| word.eq_ignore_ascii_case(w))
}

/// Why no move can be asked for in `board`, if the game there is over.
fn game_over(board: &Board) -> Option<String> {
    if let Some(winner) = board.winner() {
        // We are to move, so five in a row is the opponent's (or ours from before: either way
        // no move is wanted).
        let who = if winner == board.to_move() { "we have" } else { "the opponent has" };
        return Some(format!("the game is already over: {who} five in a row"));
    }
    board.is_full().then(|| "the game is already over: the board is full".to_string())
}

fn point_text(board: Option<&Board>, p: Point) -> String {
    board.map_or_else(|| p.to_string(), |b| point_to_xy_text(b, p))
}

/// Runs the protocol until END or the end of input, the engine starting from `base` (see
/// [`Brain::with_config`]). Input is read on a thread of its own, so that STOP, YXSTOP and END
/// stop a search in progress at once.
pub fn run(base: EngineConfig, input: impl BufRead + Send, mut output: impl Write) -> std::io::Result<()> {
    let mut brain = Brain::with_config(base);
    let stop_search = brain.stopper();
    std::thread::scope(|scope| {
        let (lines_in, lines) = mpsc::channel::<Option<String>>();
        scope.spawn(move || {
            for line in input.lines() {
                // Not UTF-8: passed on as None, answered with an error.
                let line = line.ok();
                let word = line.as_deref().and_then(|l| l.split_whitespace().next()).unwrap_or("");
                let (stops, ends) = (is_stop(word), word.eq_ignore_ascii_case("END"));
                if stops {
                    stop_search();
                }
                if lines_in.send(line).is_err() || ends {
                    break;
                }
            }
        });
        while let Ok(line) = lines.recv() {
            let Some(line) = line else {
                writeln!(output, "ERROR input is not valid UTF-8 text")?;
                output.flush()?;
                continue;
            };
            let mut more = || lines.recv().ok().flatten();
            for reply in brain.handle(&line, &mut more) {
                writeln!(output, "{reply}")?;
            }
            output.flush()?;
            if brain.finished {
                break;
            }
        }
        Ok(())
    })
}

impl Board {
    /// A board from stones in the order they were played (as BOARD lists them), checked.
    pub fn from_stones_in_order(size: usize, rule: Rule, stones: &[(Point, u8)]) -> Result<Board, String> {
        let alternating =
            stones.iter().enumerate().all(|(i, s)| s.1 == if i % 2 == 0 { BLACK } else { WHITE });
        if !alternating {
            return Board::from_stones(size, rule, stones);
        }
        let mut board = Board::new(size, rule);
        for &(p, _) in stones {
            if board.winner().is_some() {
                return Err("stones are listed after the game was won".into());
            }
            board.place(p);
        }
        Ok(board)
    }
}

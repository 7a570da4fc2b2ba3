//! Positions labelled by another engine: any Gomocup-protocol brain (`pbrain-*`) that reports
//! its search's score in `MESSAGE` lines as `Eval N` or a forced result as `Eval +Mk` / `Eval
//! -Mk` (Rapfi and Yixin-style brains do), given a node budget with `INFO max_node` so that a
//! labelling replays exactly. A stronger engine's judgement of the positions the search reads
//! the tables at is a better target than this engine's own: it sees forced wins many plies
//! deeper. One brain process a position, so that no state carries over from one to the next, or
//! (`keep`) one kept running, its table cleared before each position.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use ply_gomoku::{Board, Rule, parse_board, point_to_xy_text};

use crate::leaves::LabelledPosition;

/// The brain to ask and how.
#[derive(Clone, Debug)]
pub struct Teacher {
    pub brain: PathBuf,
    /// Nodes a position (`INFO max_node`).
    pub nodes: u64,
    /// The brain's score units per logistic unit: its score `s` is the value `tanh(s / 2·scale)`,
    /// a win chance of `σ(s / scale)` (200 for Rapfi).
    pub scale: f64,
    /// The longest a position may take before the brain is given up on.
    pub timeout: Duration,
    /// One brain kept running from position to position (it must know `YXHASHCLEAR`, as Rapfi
    /// and Yixin-style brains do), rather than one started a position: starting Rapfi costs more
    /// than a search of a few thousand nodes.
    pub keep: bool,
}

/// What a brain's `MESSAGE` line says of the position, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Judgement {
    Score(i32),
    /// A forced win (`true`) or loss.
    Forced(bool),
}

/// The judgement in a line such as `MESSAGE Depth 18-25 | Eval 941 | Time 120ms | K9`.
pub fn parse_judgement(line: &str) -> Option<Judgement> {
    let rest = line.strip_prefix("MESSAGE")?;
    let word = rest.split_once("Eval ")?.1.split_whitespace().next()?;
    if let Some(plies) = word.strip_prefix("+M").or_else(|| word.strip_prefix('M')) {
        return plies.parse::<u32>().ok().map(|_| Judgement::Forced(true));
    }
    if let Some(plies) = word.strip_prefix("-M") {
        return plies.parse::<u32>().ok().map(|_| Judgement::Forced(false));
    }
    word.parse().ok().map(Judgement::Score)
}

impl Teacher {
    /// The value, −1 to 1 for the side to move, of a judgement.
    pub fn value(&self, judgement: Judgement) -> f32 {
        match judgement {
            Judgement::Forced(won) => {
                if won {
                    1.0
                } else {
                    -1.0
                }
            }
            Judgement::Score(s) => (s as f64 / (2.0 * self.scale)).tanh() as f32,
        }
    }

    /// The brain's judgement of the position `moves` (Ply notation) reaches: the last it
    /// reported before its move, or the first forced result (a brain may go on deepening one
    /// past its budget). `brain` is the running brain to ask, if any: with `keep` it is left
    /// running for the next position, its table cleared (`YXHASHCLEAR`) and the game started
    /// afresh before each; otherwise, or after a failure, it is ended and the next position
    /// starts a new one.
    pub fn judge(&self, brain: &mut Option<Brain>, moves: &str) -> Result<Judgement> {
        let lines = self.position_lines(moves)?;
        let mut running = match brain.take() {
            Some(running) => running,
            None => self.spawn()?,
        };
        let (judgement, settled) = self
            .converse(&mut running, &lines)
            .with_context(|| format!("{} on '{moves}'", self.brain.display()))?;
        if self.keep && settled {
            *brain = Some(running);
        }
        Ok(judgement)
    }

    /// What the brain is told of the position `moves` reaches.
    fn position_lines(&self, moves: &str) -> Result<Vec<String>> {
        let board =
            parse_board(&Board::new(15, Rule::Freestyle), moves).map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut lines = Vec::new();
        if self.keep {
            lines.push("YXHASHCLEAR".to_string());
        }
        lines.extend([
            "START 15".to_string(),
            format!("INFO max_node {}", self.nodes),
            format!("INFO timeout_turn {}", self.timeout.as_millis()),
            "INFO timeout_match 0".to_string(),
            "INFO time_left 2147483647".to_string(),
            "INFO max_memory 67108864".to_string(),
            "BOARD".to_string(),
        ]);
        // Colours alternate, so the side to move owns every other stone counting back from the last.
        let stones = board.moves().len();
        for (i, &p) in board.moves().iter().enumerate() {
            let own = i % 2 == stones % 2;
            lines.push(format!("{},{}", point_to_xy_text(&board, p), if own { 1 } else { 2 }));
        }
        lines.push("DONE".to_string());
        Ok(lines)
    }

    fn spawn(&self) -> Result<Brain> {
        // Run from its own directory, as match managers do: brains find their files there.
        let dir = self.brain.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let mut child = Command::new(&self.brain)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting {}", self.brain.display()))?;
        let stdout = child.stdout.take().context("no stdout")?;
        // A reader thread, so that a brain that stops talking is given up on at the timeout.
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Brain { child, lines })
    }

    /// The judgement, and whether the brain has played its move and waits for the next command.
    fn converse(&self, brain: &mut Brain, lines: &[String]) -> Result<(Judgement, bool)> {
        let stdin = brain.child.stdin.as_mut().context("no stdin")?;
        stdin.write_all((lines.join("\n") + "\n").as_bytes())?;
        stdin.flush()?;
        let deadline = Instant::now() + self.timeout + Duration::from_secs(2);
        let mut last = None;
        loop {
            let line = brain.next_line(deadline).map_err(|e| match e {
                mpsc::RecvTimeoutError::Timeout => anyhow::anyhow!("no move within {:?}", self.timeout),
                mpsc::RecvTimeoutError::Disconnected => anyhow::anyhow!("the brain ended without a move"),
            })?;
            let line = line.trim();
            if line.starts_with("ERROR") {
                bail!("the brain said '{}'", ply_gomoku::gomocup::quoted(line));
            }
            if let Some(judgement) = parse_judgement(line) {
                if matches!(judgement, Judgement::Forced(_)) {
                    // A kept brain must finish its move before the next position; one that runs
                    // on past a found result is ended instead of waited for.
                    let grace = Instant::now() + FORCED_GRACE;
                    let settled = self.keep
                        && std::iter::from_fn(|| brain.next_line(grace).ok()).any(|l| is_move(l.trim()));
                    return Ok((judgement, settled));
                }
                last = Some(judgement);
            }
            if is_move(line) {
                return Ok((last.context("the brain moved without reporting an Eval")?, true));
            }
        }
    }

    /// `position` with the brain's value in place of its own.
    pub fn label(&self, brain: &mut Option<Brain>, position: &LabelledPosition) -> Result<LabelledPosition> {
        let value = self.value(self.judge(brain, &position.moves)?);
        Ok(LabelledPosition { moves: position.moves.clone(), value: (value * 1000.0).round() / 1000.0 })
    }
}

/// How long a kept brain may take, after reporting a forced result, to play its move.
const FORCED_GRACE: Duration = Duration::from_secs(1);

/// A running brain and the lines it writes.
pub struct Brain {
    child: Child,
    lines: mpsc::Receiver<String>,
}

impl Brain {
    fn next_line(&self, deadline: Instant) -> Result<String, mpsc::RecvTimeoutError> {
        self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now()))
    }
}

impl Drop for Brain {
    /// `END` for a polite brain, then the kill, whatever state it is in.
    fn drop(&mut self) {
        if let Some(mut stdin) = self.child.stdin.take() {
            let _ = stdin.write_all(b"END\n");
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn is_move(line: &str) -> bool {
    line.split_once(',').is_some_and(|(x, y)| {
        !x.is_empty() && !y.is_empty() && x.bytes().chain(y.bytes()).all(|b| b.is_ascii_digit())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judgements_are_read_from_rapfi_style_messages() {
        let read = parse_judgement;
        assert_eq!(read("MESSAGE Depth 18-25 | Eval 941 | Time 120ms | K9"), Some(Judgement::Score(941)));
        assert_eq!(
            read("MESSAGE Speed 508K | Depth 12-17 | Eval -24 | Node 6103"),
            Some(Judgement::Score(-24))
        );
        assert_eq!(read("MESSAGE Depth 19-3 | Eval +M7 | Time 3ms | J7 I7"), Some(Judgement::Forced(true)));
        assert_eq!(read("MESSAGE Depth 16-64 | Eval -M60 | Node 2398K"), Some(Judgement::Forced(false)));
        assert_eq!(read("MESSAGE Load config from config.toml"), None);
        assert_eq!(read("MESSAGE Eval x12"), None);
        assert_eq!(read("DEBUG Eval 12"), None);
    }

    #[test]
    fn values_follow_the_brains_scale() {
        let teacher = Teacher {
            brain: PathBuf::new(),
            nodes: 1,
            scale: 200.0,
            timeout: Duration::from_secs(1),
            keep: false,
        };
        assert_eq!(teacher.value(Judgement::Forced(true)), 1.0);
        assert_eq!(teacher.value(Judgement::Forced(false)), -1.0);
        assert_eq!(teacher.value(Judgement::Score(0)), 0.0);
        // A score of one logistic unit is a win chance of σ(1) = 0.731, a value of 0.462.
        assert!((teacher.value(Judgement::Score(200)) - 0.4621).abs() < 1e-3);
        assert!((teacher.value(Judgement::Score(-200)) + 0.4621).abs() < 1e-3);
    }

    #[test]
    fn a_move_line_is_two_numbers() {
        assert!(is_move("7,7"));
        assert!(is_move("10,14"));
        assert!(!is_move("MESSAGE 7,7"));
        assert!(!is_move("7,"));
        assert!(!is_move("OK"));
    }
}

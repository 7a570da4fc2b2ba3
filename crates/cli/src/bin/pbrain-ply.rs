//! `pbrain-ply`: Ply's Gomoku engine as a Gomocup (Piskvork) brain on stdin/stdout
//! (docs/gomoku.md). The name must start with `pbrain-` for Gomocup managers.

fn main() -> std::io::Result<()> {
    // Not `stdin().lock()`: the input is read on a thread of its own, so STOP reaches a search.
    ply_gomoku::gomocup::run(std::io::BufReader::new(std::io::stdin()), std::io::stdout().lock())
}

//! `pbrain-ply`: Ply's Gomoku engine as a Gomocup (Piskvork) brain on stdin/stdout
//! (docs/gomoku.md). The name must start with `pbrain-` for Gomocup managers.

fn main() -> std::io::Result<()> {
    ply_gomoku::gomocup::run(std::io::stdin().lock(), std::io::stdout().lock())
}

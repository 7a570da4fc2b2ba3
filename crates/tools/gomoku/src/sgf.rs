//! Games from SGF files as Gomocup match managers write them (c-gomoku-cli's `-sgf`):
//! `(;GM[4]SZ[15]RU[0]RE[B+1];B[hh];W[hi]...)`, one game after another. A move `B[cf]` is
//! column `c`, row `f` from the top, so `c6` in Ply's notation. Only freestyle 15×15 games from
//! the empty board are read; a game that ended without a five or a full board (a forfeit, a
//! crash, an adjudication) is skipped and counted, since its result says nothing about the
//! position, and the first of identical games is kept.

use std::collections::HashSet;

use ply_gomoku::{Board, Rule, parse_board};

use crate::train::PlayedGame;

/// The games of an SGF file, and how many were skipped for ending without a five or a full
/// board.
#[derive(Debug)]
pub struct SgfGames {
    pub games: Vec<PlayedGame>,
    pub unfinished: usize,
}

/// One node's properties, in order: identifier and its values.
type Node = Vec<(String, Vec<String>)>;

pub fn games_from_sgf(text: &str) -> Result<SgfGames, String> {
    let mut read = SgfGames { games: Vec::new(), unfinished: 0 };
    let mut seen = HashSet::new();
    for played in played_games(text)? {
        let (number, game, board) = played?;
        let moves = game.moves.join(" ");
        match board.winner() {
            Some(winner) => {
                let colour = if winner == ply_gomoku::BLACK { 'B' } else { 'W' };
                if let Some(re) = game.result.filter(|re| !re.starts_with(colour)) {
                    return Err(format!(
                        "game {number}: RE[{re}] disagrees with the moves, which give {} a five",
                        if colour == 'B' { "black" } else { "white" }
                    ));
                }
            }
            None if board.is_full() => {}
            None => {
                read.unfinished += 1;
                continue;
            }
        }
        // `moves` is already in Ply's notation, as `board_to_text` would write it.
        if seen.insert(moves.clone()) {
            read.games.push(PlayedGame { moves, winner: board.winner(), values: Vec::new() });
        }
    }
    Ok(read)
}

/// The file's games in order, each read and its moves played out on a freestyle 15×15 board,
/// with its number (from 1); an error names the game.
fn played_games(
    text: &str,
) -> Result<impl Iterator<Item = Result<(usize, GameRecord, Board), String>>, String> {
    let template = Board::new(15, Rule::Freestyle);
    Ok(game_trees(text)?.into_iter().enumerate().map(move |(index, nodes)| {
        let number = index + 1;
        let at = |e: String| format!("game {number}: {e}");
        let game = read_game(&nodes).map_err(at)?;
        let board = parse_board(&template, &game.moves.join(" ")).map_err(|e| at(e.to_string()))?;
        Ok((number, game, board))
    }))
}

/// One game as the file has it: its moves in Ply's notation, which of them the match manager
/// marked as the opening's (`C[opening move]`), its `RE` value and its players.
struct GameRecord {
    moves: Vec<String>,
    opening: Vec<bool>,
    result: Option<String>,
    players: [Option<String>; 2],
}

/// The game's record, with the root's game, size and rule checked.
fn read_game(nodes: &[Node]) -> Result<GameRecord, String> {
    let mut game = GameRecord { moves: Vec::new(), opening: Vec::new(), result: None, players: [None, None] };
    for (i, node) in nodes.iter().enumerate() {
        for (ident, values) in node {
            let value = values.first().map(String::as_str).unwrap_or("");
            match ident.as_str() {
                "GM" if value != "4" => return Err(format!("GM[{value}] is not gomoku (GM[4])")),
                "SZ" if value != "15" => return Err(format!("SZ[{value}]: only 15x15 games are read")),
                "RU" if value != "0" => {
                    return Err(format!("RU[{value}]: only freestyle games (RU[0]) are read"));
                }
                "AB" | "AW" | "AE" => return Err(format!("{ident}: set-up stones are not read")),
                "RE" => game.result = Some(value.to_string()),
                "PB" => game.players[0] = Some(value.to_string()),
                "PW" => game.players[1] = Some(value.to_string()),
                "B" | "W" => {
                    let moves = &mut game.moves;
                    let colour = if moves.len().is_multiple_of(2) { "B" } else { "W" };
                    if ident != colour {
                        return Err(format!(
                            "move {} is {ident}, but it is {colour}'s turn",
                            moves.len() + 1
                        ));
                    }
                    moves.push(
                        sgf_point(value)
                            .map_err(|e| format!("move {} (node {}): {e}", moves.len() + 1, i + 1))?,
                    );
                    let comment = node.iter().find(|(ident, _)| ident == "C").and_then(|(_, v)| v.first());
                    game.opening.push(comment.is_some_and(|c| c == "opening move"));
                }
                _ => {}
            }
        }
    }
    Ok(game)
}

/// The moves one player chose, each with the position it was played in; the opening's moves
/// (which the match manager placed, not the player) are not among them.
#[derive(Debug)]
pub struct PlayerMoves {
    /// Each move as the position's moves and the move, in Ply's notation.
    pub moves: Vec<(String, String)>,
    /// Games the player played, each distinct game once.
    pub games: usize,
}

/// The moves `player` (its name as `PB` or `PW` give it) made in the file's games, however they
/// ended.
pub fn player_moves(text: &str, player: &str) -> Result<PlayerMoves, String> {
    let mut read = PlayerMoves { moves: Vec::new(), games: 0 };
    let mut seen = HashSet::new();
    for played in played_games(text)? {
        let (_, game, _) = played?;
        let Some(seat) = game.players.iter().position(|p| p.as_deref() == Some(player)) else { continue };
        if !seen.insert(game.moves.clone()) {
            continue;
        }
        read.games += 1;
        for (i, played) in game.moves.iter().enumerate() {
            if i % 2 == seat && !game.opening[i] {
                read.moves.push((game.moves[..i].join(" "), played.clone()));
            }
        }
    }
    Ok(read)
}

fn sgf_point(value: &str) -> Result<String, String> {
    match value.as_bytes() {
        [x @ b'a'..=b'o', y @ b'a'..=b'o'] => Ok(format!("{}{}", char::from(*x), y - b'a' + 1)),
        _ => Err(format!("'{value}' is not a point of the 15x15 board (two letters a-o)")),
    }
}

/// The game trees of the file, each the list of its nodes; variations are refused, since a
/// match manager's record has none and guessing the main line would be a guess.
fn game_trees(text: &str) -> Result<Vec<Vec<Node>>, String> {
    let mut chars = text.char_indices().peekable();
    let mut trees = Vec::new();
    while let Some((at, c)) = chars.next() {
        match c {
            c if c.is_whitespace() => {}
            '(' => {
                let mut nodes: Vec<Node> = Vec::new();
                let game = trees.len() + 1;
                loop {
                    let Some((at, c)) = chars.next() else {
                        return Err(format!("game {game}: the file ends inside the game"));
                    };
                    match c {
                        ')' => break,
                        ';' => nodes.push(Vec::new()),
                        '(' => {
                            return Err(format!("game {game}: variations are not read (a '(' at byte {at})"));
                        }
                        c if c.is_whitespace() => {}
                        c if c.is_ascii_uppercase() => {
                            let node = nodes
                                .last_mut()
                                .ok_or_else(|| format!("game {game}: a property before the first ';'"))?;
                            let mut ident = String::from(c);
                            while let Some(&(_, c)) = chars.peek().filter(|(_, c)| c.is_ascii_uppercase()) {
                                ident.push(c);
                                chars.next();
                            }
                            let mut values = Vec::new();
                            while chars.peek().is_some_and(|&(_, c)| c == '[') {
                                chars.next();
                                values.push(property_value(&mut chars).ok_or_else(|| {
                                    format!("game {game}: the value of {ident} is not closed by ']'")
                                })?);
                            }
                            if values.is_empty() {
                                return Err(format!("game {game}: property {ident} without a value"));
                            }
                            node.push((ident, values));
                        }
                        other => return Err(format!("game {game}: unexpected '{other}' at byte {at}")),
                    }
                }
                trees.push(nodes);
            }
            other => return Err(format!("not an SGF file: unexpected '{other}' at byte {at}, expected '('")),
        }
    }
    Ok(trees)
}

/// A value after its `[`, up to the closing `]`; `\` escapes the next character.
fn property_value(chars: &mut impl Iterator<Item = (usize, char)>) -> Option<String> {
    let mut value = String::new();
    loop {
        match chars.next()?.1 {
            ']' => return Some(value),
            '\\' => value.push(chars.next()?.1),
            c => value.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Two games as c-gomoku-cli writes them: a five for black in a column, and a game lost on
    // time (no five) that is skipped.
    const MATCH: &str = "(;FF[4]GM[4]GN[1]EV[Ply x Opponent]RO[1.1]RU[0]SZ[15]PB[Ply]PW[Opponent]RE[B+1]\n\
        ;B[hh]C[opening move];W[ih]C[opening move];B[hi]C[900ms];W[ii]C[12ms];B[hj]C[3ms]\n\
        ;W[ij]C[1ms];B[hk];W[ik];B[hl])\n\n\
        (;FF[4]GM[4]GN[2]RU[0]SZ[15]RE[W+1]TE[Black loses on time \\] really]\n;B[aa];W[bb];B[cc])\n";

    #[test]
    fn match_manager_games_are_read_in_ply_notation() {
        let read = games_from_sgf(MATCH).unwrap();
        assert_eq!(read.unfinished, 1);
        assert_eq!(read.games.len(), 1);
        assert_eq!(read.games[0].moves, "h8 i8 h9 i9 h10 i10 h11 i11 h12");
        assert_eq!(read.games[0].winner, Some(ply_gomoku::BLACK));
        let twice = games_from_sgf(&format!("{MATCH}{MATCH}")).unwrap();
        assert_eq!((twice.games.len(), twice.unfinished), (1, 2));
    }

    #[test]
    fn a_players_moves_are_read_without_the_opening() {
        let ply = player_moves(MATCH, "Ply").unwrap();
        assert_eq!(ply.games, 1);
        assert_eq!(
            ply.moves,
            [
                ("h8 i8".to_string(), "h9".to_string()),
                ("h8 i8 h9 i9".to_string(), "h10".to_string()),
                ("h8 i8 h9 i9 h10 i10".to_string(), "h11".to_string()),
                ("h8 i8 h9 i9 h10 i10 h11 i11".to_string(), "h12".to_string()),
            ]
        );
        let opponent = player_moves(MATCH, "Opponent").unwrap();
        assert_eq!(opponent.moves.iter().map(|(_, m)| m.as_str()).collect::<Vec<_>>(), ["i9", "i10", "i11"]);
        assert_eq!(player_moves(&format!("{MATCH}{MATCH}"), "Ply").unwrap().games, 1);
        assert_eq!(player_moves(MATCH, "Nobody").unwrap().moves.len(), 0);
        assert!(player_moves("(;SZ[19];B[hh])", "Ply").unwrap_err().contains("only 15x15"));
    }

    #[test]
    fn games_that_are_not_freestyle_15x15_or_do_not_parse_are_errors_naming_the_game() {
        let err = |text: &str| games_from_sgf(text).unwrap_err();
        assert!(err("(;GM[4]RU[4];B[hh])").contains("game 1: RU[4]"));
        assert!(err("(;SZ[20];B[hh])").contains("only 15x15"));
        assert!(err("(;GM[1];B[hh])").contains("not gomoku"));
        assert!(err("(;B[hh])(;B[hh];B[ii])").contains("game 2: move 2 is B"));
        assert!(err("(;B[hz])").contains("'hz' is not a point"));
        assert!(err("(;B[hh];W[hh])").contains("taken"));
        assert!(err("(;AB[hh])").contains("set-up stones"));
        assert!(err("(;B[hh](;W[ii]))").contains("variations"));
        assert!(err("(;B[hh]").contains("ends inside"));
        assert!(err("(;C[open").contains("not closed"));
        assert!(err("1-0 h8").contains("not an SGF file"));
        let wrong_result = MATCH.replacen("RE[B+1]", "RE[W+1]", 1);
        assert!(err(&wrong_result).contains("RE[W+1] disagrees"));
    }
}

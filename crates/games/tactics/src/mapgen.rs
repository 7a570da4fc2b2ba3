//! Where the units start, the map generator and the fairness check it must pass
//! (docs/tactics.md, "The map generator").
//!
//! A generated map is point-symmetric: it is drawn on one half and copied turned half a circle,
//! so that side 1's corner is side 0's seen from the other end, and the teams, mirrored too,
//! start in equivalent places. The draft is then checked and drawn again until it passes.

use ply_core::rng::{Rng, derive_seed, rng_from_seed};
use rand::RngExt;

use crate::grid::{Cell, Cells, Dir, Map, Terrain, cell, cell_name, file_of, manhattan, rank_of, step};
use crate::units::MAX_TEAM;

/// Drafts tried before the generator gives up and returns an open board. The fairness test
/// shows that thousands of seeds never come near it.
pub const MAX_ATTEMPTS: u32 = 1000;

/// Cells of each corner kept clear of walls and water: those within this many steps of the
/// corner (10 cells, room for a team of 7 and then some).
pub const CORNER_ZONE: u8 = 3;

/// The longest way between the two corners, over earth, as a multiple of the straight distance:
/// a map must not be a maze that keeps the sides from meeting.
pub const MAX_DETOUR: f64 = 1.5;

/// The most of the board that walls and water may cover.
pub const MAX_OBSTACLES: f64 = 0.3;
/// The least: a map is not a bare field.
pub const MIN_OBSTACLES: f64 = 0.06;

/// Side 0's deployment order: its corner a1 first, then the cells one step out, and so on; on
/// each such diagonal the middle first, then the file before the rank. Side 1 uses the mirror.
fn deployment_order(size: u8) -> impl Iterator<Item = Cell> {
    let mut order: Vec<Cell> = (0..size).flat_map(|r| (0..size).map(move |f| cell(f, r))).collect();
    order.sort_by_key(|&c| {
        let (f, r) = (file_of(c), rank_of(c));
        (f + r, f.abs_diff(r), std::cmp::Reverse(f))
    });
    order.into_iter()
}

/// The cells where a side's `count` units start, in team order: the first earth cells of its
/// deployment order within its own half of the board (cells nearer its corner than the other).
pub fn start_cells(map: &Map, side: usize, count: usize) -> Result<Vec<Cell>, String> {
    let size = map.size();
    let cells: Vec<Cell> = deployment_order(size)
        .filter(|&c| file_of(c) + rank_of(c) < size - 1)
        .map(|c| if side == 0 { c } else { map.mirror(c) })
        .filter(|&c| map.is_earth(c))
        .take(count)
        .collect();
    if cells.len() < count {
        let corner = if side == 0 { "a1" } else { &cell_name(map.mirror(0)) };
        return Err(format!(
            "the map has room for {} units of side {side} near {corner}, not {count}",
            cells.len()
        ));
    }
    Ok(cells)
}

/// The checks every map must pass before a game starts on it: both teams' start cells are in
/// one region of earth, so that every unit can walk to every enemy (other units aside). A map
/// given in a file must pass it too; the generator asks more ([`check_generated`]).
pub fn check_reachable(map: &Map, starts: &[Vec<Cell>; 2]) -> Result<(), String> {
    let first = starts[0].first().or(starts[1].first()).copied();
    let Some(first) = first else { return Ok(()) };
    let region = map.region(first);
    for c in starts.iter().flatten() {
        if !region.contains(*c) {
            return Err(format!(
                "no path between the sides: {} cannot be reached from {} over earth",
                cell_name(*c),
                cell_name(first)
            ));
        }
    }
    Ok(())
}

/// The generator's fairness check: the map is point-symmetric; each corner zone is earth; the
/// teams' start cells are all in one region of earth; the way between the corners is not a maze
/// (at most [`MAX_DETOUR`] times the straight distance); walls and water cover at most
/// [`MAX_OBSTACLES`] of the board and at least [`MIN_OBSTACLES`].
pub fn check_generated(map: &Map) -> Result<(), String> {
    let size = map.size();
    if !map.is_point_symmetric() {
        return Err("the map is not point-symmetric".into());
    }
    for c in map.cells() {
        if file_of(c) + rank_of(c) <= CORNER_ZONE && !map.is_earth(c) {
            return Err(format!("{} in a corner zone is {}", cell_name(c), map.terrain(c).name()));
        }
    }
    let starts = [start_cells(map, 0, MAX_TEAM)?, start_cells(map, 1, MAX_TEAM)?];
    check_reachable(map, &starts)?;
    let far = map.mirror(0);
    let way = map.distances(&[0])[far as usize];
    if f64::from(way) > MAX_DETOUR * f64::from(manhattan(0, far)) {
        return Err(format!("the way between the corners is {way} steps, a maze"));
    }
    let obstacles = Cells::board(size).minus(*map.earth()).count();
    let area = f64::from(size) * f64::from(size);
    if f64::from(obstacles) > MAX_OBSTACLES * area {
        return Err(format!("{obstacles} cells of walls and water are too many"));
    }
    if f64::from(obstacles) < MIN_OBSTACLES * area {
        return Err(format!("{obstacles} cells of walls and water are too few"));
    }
    Ok(())
}

/// The map of `seed` on a board of side `size`, and how many drafts it took (the first draft
/// that passes [`check_generated`]; an open board after [`MAX_ATTEMPTS`]).
pub fn generate(size: u8, seed: u64) -> (Map, u32) {
    for attempt in 1..=MAX_ATTEMPTS {
        let map = draft(size, &mut rng_from_seed(derive_seed(seed, u64::from(attempt))));
        if check_generated(&map).is_ok() {
            return (map, attempt);
        }
    }
    (Map::open(size), MAX_ATTEMPTS + 1)
}

fn in_corner_zone(map: &Map, c: Cell) -> bool {
    let near = |c: Cell| file_of(c) + rank_of(c) <= CORNER_ZONE;
    near(c) || near(map.mirror(c))
}

/// One draft: short random walks of wall or of water (each cell set with its mirror), starting
/// outside the corner zones, about a fifth of the board; then the corner zones cleared.
fn draft(size: u8, rng: &mut Rng) -> Map {
    let mut map = Map::open(size);
    let features = u32::from(size) * u32::from(size) / 25 + rng.random_range(0..=2);
    for _ in 0..features {
        let terrain = if rng.random_bool(0.55) { Terrain::Wall } else { Terrain::Water };
        let mut at = cell(rng.random_range(0..size), rng.random_range(0..size));
        while in_corner_zone(&map, at) {
            at = cell(rng.random_range(0..size), rng.random_range(0..size));
        }
        let mut dir = Dir::ALL[rng.random_range(0..4)];
        for _ in 0..rng.random_range(1..=5) {
            map.set(at, terrain);
            map.set(map.mirror(at), terrain);
            if rng.random_bool(0.3) {
                dir = Dir::ALL[rng.random_range(0..4)];
            }
            match step(at, dir, size) {
                Some(next) => at = next,
                None => break,
            }
        }
    }
    for c in map.cells() {
        if in_corner_zone(&map, c) {
            map.set(c, Terrain::Earth);
        }
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_cells_fill_the_corner_outwards() {
        let map = Map::open(10);
        let names: Vec<String> = start_cells(&map, 0, 7).unwrap().into_iter().map(cell_name).collect();
        assert_eq!(names, ["a1", "b1", "a2", "b2", "c1", "a3", "c2"]);
        let names: Vec<String> = start_cells(&map, 1, 3).unwrap().into_iter().map(cell_name).collect();
        assert_eq!(names, ["j10", "i10", "j9"]);
    }
}

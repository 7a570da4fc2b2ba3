//! The move generator against a naive one written from the rules alone, move-path counts from
//! fixed positions (the numbers `ply perft tactics` is pinned to in crates/cli/tests), and the
//! listed actions against `is_legal` over every action that could be written.

mod common;

use std::collections::{BTreeSet, HashSet};

use common::{game, pos};
use ply_core::{Game, Turn, perft};
use ply_tactics::{Dir, Kind, Tactics, TacticsAction, cell_name};

/// The legal actions by the rules, written naively: the cells within the unit's moves found by
/// growing the set one step at a time; each attack line walked cell by cell.
fn naive_actions(s: &Tactics) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let Turn::Player(p) = s.turn() else { return out };
    let size = s.map().size() as i32;
    let on = |f: i32, r: i32| f >= 0 && r >= 0 && f < size && r < size;
    let at = |f: i32, r: i32| (r * 16 + f) as u8;
    for slot in s.slots(p) {
        let unit = *s.unit(slot);
        if !unit.alive() || s.has_acted(slot) {
            continue;
        }
        let others: Vec<(u8, usize)> = (0..2)
            .flat_map(|side| s.slots(side))
            .filter(|&o| o != slot && s.unit(o).alive())
            .map(|o| (s.unit(o).cell, o / 7))
            .collect();
        let blocked = |c: u8| !s.map().is_earth(c) || others.iter().any(|&(oc, _)| oc == c);
        let mut reach = BTreeSet::from([unit.cell]);
        for _ in 0..unit.kind.stats().moves {
            let mut grown = reach.clone();
            for &c in &reach {
                let (f, r) = ((c % 16) as i32, (c / 16) as i32);
                for (df, dr) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                    if on(f + df, r + dr) && !blocked(at(f + df, r + dr)) {
                        grown.insert(at(f + df, r + dr));
                    }
                }
            }
            reach = grown;
        }
        for &to in &reach {
            let from_text = cell_name(unit.cell);
            let base = if to == unit.cell { from_text } else { format!("{from_text}-{}", cell_name(to)) };
            out.insert(base.clone());
            for (dir, (df, dr)) in Dir::ALL.into_iter().zip([(0, 1), (1, 0), (0, -1), (-1, 0)]) {
                let (f, r) = ((to % 16) as i32, (to / 16) as i32);
                let (range, through_units, over_water) = match unit.kind {
                    Kind::Fighter => (1, false, false),
                    Kind::Archer => (7, false, true),
                    Kind::Sorcerer => (5, true, false),
                };
                let mut hits_enemy = false;
                for k in 1..=range {
                    let (cf, cr) = (f + k * df, r + k * dr);
                    if !on(cf, cr) {
                        break;
                    }
                    let c = at(cf, cr);
                    if s.map().is_wall(c) || (s.map().is_water(c) && !over_water) {
                        break;
                    }
                    if let Some(&(_, side)) = others.iter().find(|&&(oc, _)| oc == c) {
                        hits_enemy |= side != p;
                        if !through_units {
                            break;
                        }
                    }
                }
                if hits_enemy {
                    out.insert(format!("{base}>{}", dir.letter()));
                }
            }
        }
    }
    out
}

/// Move paths to `depth`, checking the generator against the naive one at every node.
fn checked_perft(s: &Tactics, depth: u32) -> u64 {
    if depth == 0 || s.is_over() {
        return 1;
    }
    let actions = s.actions();
    let listed: BTreeSet<String> = actions.iter().map(|&a| s.action_to_text(a)).collect();
    assert_eq!(listed.len(), actions.len(), "an action listed twice in {}", s.to_text());
    assert_eq!(listed, naive_actions(s), "in {}", s.to_text());
    actions
        .iter()
        .map(|&a| {
            let mut child = s.clone();
            child.apply(a);
            checked_perft(&child, depth - 1)
        })
        .sum()
}

const ENDGAME: &str = "tactics size=8 round=7 player=0; map ......../..#...../..#..~~./......../..~.#.../....#.../.##...../........; side0 Fc3:100 Ad2:35 Wx; side1 We6:40 Fe7:100 Ah3:10";

fn endgame() -> Tactics {
    game("map_seed=1").parse_state(ENDGAME).unwrap_or_else(|e| panic!("{ENDGAME}: {e}"))
}

#[test]
fn move_paths_from_the_start_and_an_endgame() {
    let start = game("map_seed=1");
    let counts: Vec<u64> = (1..=3).map(|d| checked_perft(&start, d)).collect();
    assert_eq!(counts, [42, 1453, 40104]);
    // Two units to move, then the other side's three: the counts cross a turn.
    let end = endgame();
    let counts: Vec<u64> = (1..=3).map(|d| checked_perft(&end, d)).collect();
    assert_eq!(counts, [32, 576, 26806]);
    assert_eq!(perft(&end, 4), 862_931);
}

#[test]
fn the_generator_matches_the_naive_one_in_random_games() {
    for (i, options) in
        ["size=8", "", "size=16,handicap=1", "team=WWWWWW", "team=AAAFFF,handicap=-1"].iter().enumerate()
    {
        let start = game(options);
        for seed in 0..6u64 {
            let mut state = start.clone();
            let mut rng = ply_core::rng::rng_from_seed(seed * 31 + i as u64);
            for _ in 0..400 {
                match state.turn() {
                    Turn::Over => break,
                    Turn::Chance => state.apply(state.sample_chance(&mut rng)),
                    Turn::Player(_) => {
                        let actions = state.actions();
                        let listed: BTreeSet<String> =
                            actions.iter().map(|&a| state.action_to_text(a)).collect();
                        assert_eq!(listed, naive_actions(&state), "{options}: {}", state.to_text());
                        state.apply(actions[rand::RngExt::random_range(&mut rng, 0..actions.len())]);
                    }
                }
            }
        }
    }
}

/// `is_legal` says yes exactly to the listed actions, over every action from a unit's cell (and
/// from a few cells without one of the side to move) to every cell, with and without attacks.
#[test]
fn is_legal_agrees_with_the_list_over_every_writable_action() {
    let start = game("size=8");
    let mut rng = ply_core::rng::rng_from_seed(5);
    let mut state = start.clone();
    let mut checked = 0;
    while checked < 40 {
        match state.turn() {
            Turn::Over => state = start.clone(),
            Turn::Chance => state.apply(state.sample_chance(&mut rng)),
            Turn::Player(_) => {
                let listed: HashSet<TacticsAction> = state.actions().into_iter().collect();
                let mut froms: Vec<u8> = (0..2).flat_map(|s| state.team(s).iter().map(|u| u.cell)).collect();
                froms.extend([0, 17, 200, 255]);
                for &from in &froms {
                    for to in 0..=255u8 {
                        for attack in
                            [None, Some(Dir::North), Some(Dir::East), Some(Dir::South), Some(Dir::West)]
                        {
                            let a = TacticsAction::Unit { from, to, attack };
                            assert_eq!(
                                state.is_legal(a),
                                listed.contains(&a),
                                "{a:?} in {}",
                                state.to_text()
                            );
                        }
                    }
                }
                assert!(!state.is_legal(TacticsAction::Deal(0)));
                checked += 1;
                let actions: Vec<TacticsAction> = listed.into_iter().collect();
                state.apply(actions[rand::RngExt::random_range(&mut rng, 0..actions.len())]);
            }
        }
    }
}

#[test]
fn endgame_position_reads() {
    let state = endgame();
    assert_eq!(state.turn(), Turn::Player(0));
    let _ = pos(&common::open(8), "Fa1:100", "Fh8:100", 0);
}

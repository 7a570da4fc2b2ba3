//! Risk's rules, edge by edge: the map against the reference data, the dice against exact odds,
//! setup, reinforcements, cards, battles, conquest, elimination, fortifying, the document's
//! variant, the round limit, and the refusals of what the rules do not allow.

use ply_core::{Game, GameDef, Turn, perft};
use ply_risk::dice::{conquest_probability, probability, roll_outcomes};
use ply_risk::map::Map;
use ply_risk::{NEUTRAL, Phase, Risk};
use serde_json::Value;

fn game(options: &str) -> Risk {
    Risk::new_from_text_options(options).unwrap_or_else(|e| panic!("{options}: {e}"))
}

/// A classic-map position: `owner(t)` gives each territory's owner and armies, `header` the
/// rest of the first section (after `players=N`).
fn position(
    options: &str,
    header: &str,
    owner: impl Fn(usize) -> (u8, u16),
    hands: &str,
    discard: &str,
) -> Risk {
    let start = game(options);
    let territories: Vec<String> = start
        .map()
        .territories
        .iter()
        .enumerate()
        .map(|(t, territory)| {
            let (o, a) = owner(t);
            let o = if o == NEUTRAL { "neutral".to_string() } else { o.to_string() };
            format!("{}={o}:{a}", territory.slug)
        })
        .collect();
    let text = format!(
        "risk players={} {header} dealt=42; territories {}; hands {hands}; discard {discard}",
        start.players(),
        territories.join(" ")
    );
    start.parse_state(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn id(state: &Risk, name: &str) -> u8 {
    state.map().territory(name).unwrap_or_else(|| panic!("no {name}")) as u8
}

fn texts(state: &Risk) -> Vec<String> {
    state.actions().into_iter().map(|a| state.action_to_text(a)).collect()
}

/// Seat 0 holds the Americas (North America and South America), seat 1 the rest; 3 armies each.
fn americas(t: usize) -> (u8, u16) {
    (u8::from(t >= 13), 3)
}

#[test]
fn the_classic_map_is_the_reference_map() {
    let reference: Value = serde_json::from_str(include_str!("data/classic_map.json")).unwrap();
    let map = Map::classic();
    assert_eq!(map.len(), 42);
    assert_eq!(map.continents.len(), 6);
    assert_eq!(map.border_count(), 83);
    for continent in reference["continents"].as_array().unwrap() {
        let ours = map.continents.iter().find(|c| c.name == continent["name"]).expect("continent");
        assert_eq!(u64::from(ours.bonus), continent["bonus"].as_u64().unwrap(), "{}", ours.name);
        let names: Vec<&str> =
            continent["territories"].as_array().unwrap().iter().map(|t| t.as_str().unwrap()).collect();
        assert_eq!(ours.territories.count_ones() as usize, names.len());
        for name in names {
            let t = map.territory(name).expect(name);
            assert!(ours.territories & (1 << t) != 0, "{name} in {}", ours.name);
        }
    }
    for edge in reference["edges"].as_array().unwrap() {
        let (a, b) = (edge[0].as_str().unwrap(), edge[1].as_str().unwrap());
        let (a, b) = (map.territory(a).unwrap(), map.territory(b).unwrap());
        assert!(map.territories[a].border & (1 << b) != 0 && map.territories[b].border & (1 << a) != 0);
    }
    assert_eq!(reference["edges"].as_array().unwrap().len(), map.border_count());
    assert_eq!(map.card_count(), 44, "42 territory cards and 2 wild cards");
    for kind in [
        ply_risk::map::CardKind::Infantry,
        ply_risk::map::CardKind::Cavalry,
        ply_risk::map::CardKind::Artillery,
    ] {
        assert_eq!(map.territories.iter().filter(|t| t.card == kind).count(), 14);
    }
}

#[test]
fn dice_odds_are_exact() {
    let table = include_str!("data/dice_odds.txt");
    for line in table.lines().filter(|l| l.contains("(of ")) {
        let attack: usize = line[0..1].parse().unwrap();
        let defend: usize = line[2..3].parse().unwrap();
        let outcomes = roll_outcomes(attack, defend);
        let listed: Vec<&str> = line.split(": ").nth(1).unwrap().split(", ").collect();
        assert_eq!(outcomes.len(), listed.len(), "{line}");
        for entry in listed {
            // att_losesX/def_losesY=P/Q=decimal
            let parts: Vec<&str> = entry.split('=').collect();
            let al: u8 = parts[0][9..10].parse().unwrap();
            let dl: u8 = parts[0][20..21].parse().unwrap();
            let (p, q) = parts[1].split_once('/').unwrap();
            let (p, q): (f64, f64) = (p.parse().unwrap(), q.parse().unwrap());
            let ours = outcomes.iter().find(|o| o.0 == al && o.1 == dl).unwrap_or_else(|| panic!("{line}"));
            assert!((probability(ours.2, attack, defend) - p / q).abs() < 1e-12, "{line}");
        }
    }
    let rows = table.lines().skip_while(|l| !l.starts_with("A\\D")).skip(1);
    let mut checked = 0;
    for row in rows {
        let numbers: Vec<f64> = row.split_whitespace().map(|x| x.parse().unwrap()).collect();
        let armies = numbers[0] as u32;
        for (d, &expected) in numbers[1..].iter().enumerate() {
            let ours = conquest_probability(armies - 1, d as u32 + 1);
            assert!((ours - expected).abs() <= 0.0005 + 1e-9, "{armies} armies against {}: {ours}", d + 1);
            checked += 1;
        }
    }
    assert!(checked >= 100, "the odds table was read ({checked} entries)");
}

#[test]
fn the_deal_setup_and_starting_armies() {
    for (players, armies) in [(2, 40), (3, 35), (4, 30), (5, 25), (6, 20)] {
        let start = game(&format!("players={players}"));
        let deal = start.outcomes();
        assert_eq!(deal.len(), players, "every seat can get the first territory");
        // 42 territories shared as evenly as they go (4 players: 11, 11, 10, 10), the first
        // territory to each seat in proportion to its share.
        for (seat, &(_, p)) in deal.iter().enumerate() {
            let share = 42 / players + usize::from(seat < 42 % players);
            assert!((p - share as f64 / 42.0).abs() < 1e-12, "{players} players, seat {seat}: {p}");
        }
        let mut state = start.clone();
        let mut rng = ply_core::rng::rng_from_seed(players as u64);
        while state.round() == 0 {
            let action = match state.turn() {
                Turn::Chance => state.sample_chance(&mut rng),
                _ => state.actions()[0],
            };
            state.apply(action);
        }
        let counts: Vec<u32> = (0..players).map(|p| state.territories_of(p as u8).count_ones()).collect();
        assert!(counts.iter().max().unwrap() - counts.iter().min().unwrap() <= 1, "{counts:?}");
        for p in 0..players {
            let extra = if p == 0 { state.reserve() as u32 } else { 0 };
            assert_eq!(state.armies_of(p as u8), armies, "{players} players, seat {p} (+{extra} to draft)");
        }
        assert_eq!((state.phase(), state.current()), (Phase::Draft, 0));
    }
}

#[test]
fn a_neutral_side_and_picking_territories() {
    let mut state = game("neutral=true");
    let mut rng = ply_core::rng::rng_from_seed(3);
    while state.phase() == Phase::Deal {
        state.apply(state.sample_chance(&mut rng));
    }
    assert_eq!(state.territories_of(NEUTRAL).count_ones(), 14);
    assert_eq!(state.armies_of(NEUTRAL), 40);
    assert_eq!(state.territories_of(0).count_ones(), 14);

    let picking = game("setup=pick,players=3");
    assert_eq!(picking.turn(), Turn::Player(0));
    assert_eq!(picking.actions().len(), 42);
    let mut state = picking.clone();
    state.play_text("pick alaska").unwrap();
    assert_eq!(state.current(), 1);
    assert!(state.play_text("pick alaska").is_err(), "a picked territory is taken");
    assert_eq!(state.actions().len(), 41);
}

#[test]
fn reinforcements_count_territories_and_continents() {
    // Seat 0: the Americas (13 territories, NA 5 + SA 2); seat 1: 29 territories, no continent
    // whole? It holds Europe, Africa, Asia and Australia whole: 5 + 3 + 7 + 2.
    let state = position(
        "",
        "round=1 player=0 phase=attack reserve=0 trades=0 conquered=0 acted=1",
        americas,
        "0: 1:",
        "",
    );
    assert_eq!(state.reinforcements(0), 13 / 3 + 5 + 2);
    assert_eq!(state.reinforcements(1), 29 / 3 + 5 + 3 + 7 + 2);
    // Two territories: still 3.
    let tiny = position(
        "",
        "round=1 player=0 phase=attack reserve=0 trades=0 conquered=0 acted=1",
        |t| (u8::from(t >= 2), 1),
        "0: 1:",
        "",
    );
    assert_eq!(tiny.reinforcements(0), 3);
}

#[test]
fn card_sets_values_and_the_forced_trade() {
    let escalating: Vec<u16> = (0..9).map(ply_risk::rules::escalating_value).collect();
    assert_eq!(escalating, vec![4, 6, 8, 10, 12, 15, 20, 25, 30]);
    // Alaska, Northwest Territory, Greenland are infantry, cavalry, artillery (by map order);
    // Alaska, Alberta (3), Western US (6) are all infantry.
    let header = "round=1 player=0 phase=draft reserve=3 trades=2 conquered=0 acted=0";
    let state = position("", header, americas, "0:alaska,northwest-territory,greenland,alberta,wild1 1:", "");
    assert!(state.must_trade(), "five cards force a trade");
    let moves = texts(&state);
    assert!(moves.iter().all(|m| m.starts_with("trade")), "{moves:?}");
    assert!(!moves.contains(&"trade alaska northwest-territory alberta".to_string()), "not a set: {moves:?}");
    let mut traded = state.clone();
    traded.play_text("trade alaska northwest-territory greenland").unwrap();
    assert_eq!(traded.reserve(), 3 + 8, "the third set is worth 8");
    assert_eq!(traded.armies(id(&state, "alaska") as usize), 5, "+2 on the first pictured territory held");
    assert!(!traded.must_trade());
    assert!(traded.play_text("trade alberta wild1 greenland").is_err(), "greenland was traded in");

    let fixed = position("cards=fixed", header, americas, "0:alaska,alberta,western-united-states 1:", "");
    let mut f = fixed.clone();
    f.play_text("trade alaska alberta western-united-states").unwrap();
    assert_eq!(f.reserve(), 3 + 4, "three infantry are worth 4 with fixed values");
    let wild = position("cards=fixed", header, americas, "0:alaska,northwest-territory,wild2 1:", "");
    assert_eq!(wild.set_value([id(&wild, "alaska"), id(&wild, "northwest-territory"), 43]), Some(10));
}

#[test]
fn battles_conquest_and_moving_in() {
    let header = "round=1 player=0 phase=attack reserve=0 trades=0 conquered=0 acted=1";
    // Central America (0) 6 armies against Venezuela (1) 1 army.
    let state = position(
        "",
        header,
        |t| match t {
            9 => (1, 1),
            _ => (u8::from(t >= 9), 6),
        },
        "0: 1:",
        "",
    );
    assert!(
        state.clone().play_text("attack venezuela central-america").is_err(),
        "not from an enemy territory"
    );
    assert!(state.clone().play_text("attack central-america peru").is_err(), "not a neighbour");
    let mut s = state.clone();
    s.play_text("attack central-america venezuela").unwrap();
    assert_eq!(s.turn(), Turn::Chance);
    let outcomes = s.outcomes();
    assert_eq!(outcomes.len(), 2, "three dice against one: one army lost, by one side");
    s.play_text("roll 0:1").unwrap();
    assert_eq!(s.owner(9), 0);
    assert_eq!(s.phase(), Phase::Occupy { from: 8, to: 9, min: 3 });
    assert_eq!(texts(&s), vec!["occupy 3", "occupy 4", "occupy 5"]);
    assert!(s.play_text("occupy 2").is_err(), "at least the dice rolled");
    assert!(s.play_text("occupy 6").is_err(), "one army stays behind");
    s.play_text("occupy 5").unwrap();
    assert_eq!((s.armies(8), s.armies(9), s.phase()), (1, 5, Phase::Attack));
    assert!(s.conquered_this_turn());
    // The end of the turn: fortify, then a card.
    s.play_text("end-attack").unwrap();
    assert_eq!(s.phase(), Phase::Fortify);
    assert!(s.play_text("fortify central-america venezuela 1").is_err(), "the last army stays");
    s.play_text("end-turn").unwrap();
    assert_eq!(s.phase(), Phase::Draw);
    assert_eq!(s.outcomes().len(), 44);
    s.play_text("draw wild1").unwrap();
    assert_eq!((s.hand_size(0), s.current(), s.phase()), (1, 1, Phase::Draft));
}

#[test]
fn blitz_rolls_until_the_territory_falls_or_one_army_is_left() {
    let header = "round=1 player=0 phase=attack reserve=0 trades=0 conquered=0 acted=1";
    let state = position("", header, |t| if t == 9 { (1, 3) } else { (u8::from(t >= 9), 4) }, "0: 1:", "");
    let mut s = state.clone();
    s.play_text("blitz central-america venezuela").unwrap();
    s.play_text("roll 1:1").unwrap();
    assert!(matches!(s.phase(), Phase::Battle { blitz: true, .. }), "rolls on");
    s.play_text("roll 2:0").unwrap();
    assert_eq!((s.armies(8), s.phase()), (1, Phase::Attack), "one army left: the blitz stops");
    let mut single = state.clone();
    single.play_text("attack central-america venezuela").unwrap();
    single.play_text("roll 1:1").unwrap();
    assert_eq!(single.phase(), Phase::Attack, "a single roll stops after one roll");
}

#[test]
fn elimination_hands_over_cards_and_six_force_a_trade_at_once() {
    // Seat 2 holds only Venezuela (1 army) and four cards; seat 0 holds two.
    let header = "round=1 player=0 phase=attack reserve=0 trades=0 conquered=0 acted=1";
    let state = position(
        "players=3",
        header,
        |t| match t {
            9 => (2, 1),
            t if t < 9 => (0, 5),
            _ => (1, 2),
        },
        "0:alaska,northwest-territory 1: 2:greenland,alberta,ontario,quebec",
        "",
    );
    let mut s = state.clone();
    s.play_text("attack central-america venezuela").unwrap();
    s.play_text("roll 0:1").unwrap();
    assert!(!s.is_alive(2));
    assert_eq!(s.hand_size(0), 6, "the eliminated player's cards go to the eliminator");
    s.play_text("occupy 3").unwrap();
    assert_eq!(s.phase(), Phase::Draft, "six cards: trade at once");
    assert!(texts(&s).iter().all(|m| m.starts_with("trade")));
    s.play_text("trade alaska northwest-territory greenland").unwrap();
    assert_eq!(s.hand_size(0), 3);
    assert!(s.reserve() > 0);
    assert!(texts(&s).iter().any(|m| m.starts_with("place")));
}

#[test]
fn the_last_conquest_ends_the_game() {
    let header = "round=4 player=0 phase=attack reserve=0 trades=0 conquered=0 acted=1";
    let state = position("", header, |t| if t == 9 { (1, 1) } else { (0, 4) }, "0: 1:wild1", "");
    let mut s = state.clone();
    s.play_text("attack central-america venezuela").unwrap();
    s.play_text("roll 0:1").unwrap();
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(s.returns().as_slice(), &[1.0, 0.0]);
}

#[test]
fn the_documents_variant_has_no_cards_and_no_fortify() {
    let header = "round=1 player=0 phase=attack reserve=0 trades=0 conquered=1 acted=1";
    let state = position("rules=document", header, americas, "0: 1:", "");
    let mut s = state.clone();
    s.play_text("end-attack").unwrap();
    assert_eq!((s.current(), s.phase()), (1, Phase::Draft), "no fortify and no card: the next turn");
    assert!(
        game("rules=document")
            .parse_state(&position("", header, americas, "0:alaska 1:", "").to_text())
            .is_err()
    );
}

#[test]
fn fortify_along_owned_territories_is_an_option() {
    let header = "round=1 player=0 phase=fortify reserve=0 trades=0 conquered=0 acted=1";
    let adjacent = position("", header, americas, "0: 1:", "");
    let connected = position("fortify=connected", header, americas, "0: 1:", "");
    let a = texts(&adjacent);
    let c = texts(&connected);
    assert!(!a.contains(&"fortify alaska argentina 1".to_string()));
    assert!(c.contains(&"fortify alaska argentina 1".to_string()), "the Americas are connected");
    assert!(!c.iter().any(|m| m.starts_with("fortify alaska kamchatka")), "not through an enemy");
}

#[test]
fn the_round_limit_adjudicates_by_territories_and_armies() {
    let header = "round=2 player=1 phase=fortify reserve=0 trades=0 conquered=0 acted=1";
    let state = position("max_rounds=2", header, americas, "0: 1:", "");
    let mut s = state.clone();
    s.play_text("end-turn").unwrap();
    assert_eq!(s.turn(), Turn::Over);
    let r = s.returns();
    // Territories 13 : 29, armies 39 : 87: each half.
    let expected0 = 0.5 * 13.0 / 42.0 + 0.5 * 39.0 / 126.0;
    assert!((r.get(0) - expected0).abs() < 1e-12 && (r.get(0) + r.get(1) - 1.0).abs() < 1e-12, "{r:?}");
}

#[test]
fn hidden_hands_and_the_draw_seen_by_others() {
    let header = "round=1 player=0 phase=draw reserve=0 trades=0 conquered=1 acted=1";
    let state = position("players=3", header, |t| ((t % 3) as u8, 2), "0:alaska 1:peru,brazil 2:", "");
    let seen_by_2 = state.observation_text(Some(2));
    assert!(seen_by_2.contains("0:?1") && seen_by_2.contains("1:?2") && !seen_by_2.contains("peru,brazil"));
    assert!(state.observation_text(Some(1)).contains("1:peru,brazil"));
    let draw = state.outcomes()[0].0;
    assert_eq!(state.action_observation(draw, Some(1)), "player 0 draws a card");
    assert_ne!(state.action_observation(draw, Some(0)), "player 0 draws a card");
    assert!(state.observation_json(None)["hands"].as_array().unwrap().iter().all(Value::is_null));
    for seat in 0..3 {
        ply_core::testing::check_observations(&state).unwrap_or_else(|e| panic!("seat {seat}: {e}"));
    }
}

/// Computed by this implementation and kept: a change of the move generator shows here.
const PERFT_3: u64 = 59_566;

#[test]
fn move_counts_from_a_fixed_position() {
    // Seat 0 drafts 7 armies (13 territories / 3 = 4, no continent whole... it holds none, so
    // max(3, 4)): each of its territories takes 1, 4 or 7.
    let header = "round=1 player=0 phase=draft reserve=7 trades=0 conquered=0 acted=0";
    let state = position("", header, |t| ((t % 3 == 0) as u8 ^ 1, 2), "0: 1:", "");
    let own = state.territories_of(0).count_ones() as u64;
    assert_eq!(perft(&state, 1), own * 3);
    // After 1 or 4 armies, 6 or 3 are left: 3 placements per territory again. After all 7, the
    // attacks: every own territory has 2 armies or more, so one roll and one blitz for each
    // (own, enemy) border, and ending the attacks.
    let fronts: u64 = ply_risk::map::bits(state.territories_of(0))
        .map(|t| u64::from((state.map().territories[t].border & !state.territories_of(0)).count_ones()))
        .sum();
    assert_eq!(perft(&state, 2), own * (3 + 3) * own + own * (2 * fronts + 1));
    assert_eq!(perft(&state, 3), PERFT_3);
}

#[test]
fn bad_maps_are_refused_with_the_reason() {
    let valid = r#"{"name": "tiny", "continents": [{"name": "Left", "bonus": 2}, {"name": "Right", "bonus": 1}],
        "territories": [
            {"name": "A", "continent": "Left", "neighbours": ["B"]},
            {"name": "B", "continent": "Left", "neighbours": ["A", "C"]},
            {"name": "C", "continent": "Right", "neighbours": ["B"]}]}"#;
    assert!(Map::from_json_text(valid).is_ok());
    for (broken, expected) in [
        (valid.replace(r#"["B"]}"#, r#"["B", "Z"]}"#), "unknown territory"),
        (valid.replace(r#""neighbours": ["A", "C"]"#, r#""neighbours": ["A"]"#), "one way"),
        (valid.replace(r#""neighbours": ["A", "C"]"#, r#""neighbours": ["A", "B", "C"]"#), "borders itself"),
        (valid.replace(r#""name": "C""#, r#""name": "B""#), "listed twice"),
        (
            valid.replace(
                r#"{"name": "Right", "bonus": 1}"#,
                r#"{"name": "Right", "bonus": 1}, {"name": "Empty", "bonus": 1}"#,
            ),
            "no territories",
        ),
        (valid.replace(r#""continent": "Right""#, r#""continent": "Middle""#), "unknown continent"),
        (
            valid
                .replace(r#"["A", "C"]"#, r#"["A"]"#)
                .replace(r#""neighbours": ["B"]}]"#, r#""neighbours": []}]"#),
            "not connected",
        ),
        ("{".to_string(), "not a valid map"),
    ] {
        let err = Map::from_json_text(&broken).expect_err(expected).to_string();
        assert!(err.contains(expected), "expected '{expected}' in: {err}");
    }
    let path = std::env::temp_dir().join(format!("ply-risk-tiny-{}.json", std::process::id()));
    std::fs::write(&path, valid).unwrap();
    let err =
        Risk::new_from_text_options(&format!("players=4,map={}", path.display())).err().unwrap().to_string();
    assert!(err.contains("too few"), "{err}");
    let three = Risk::new_from_text_options(&format!("players=3,map={}", path.display())).unwrap();
    assert_eq!(three.map().len(), 3);
    std::fs::remove_file(&path).ok();
    let missing = Risk::new_from_text_options("map=/nonexistent/map.json").err().unwrap().to_string();
    assert!(missing.contains("cannot be read"), "{missing}");
}

#[test]
fn bad_positions_and_actions_are_refused() {
    let start = game("");
    let good = position(
        "",
        "round=1 player=0 phase=attack reserve=0 trades=0 conquered=0 acted=1",
        americas,
        "0: 1:",
        "",
    )
    .to_text();
    for (bad, why) in [
        (good.replace("players=2", "players=3"), "players"),
        (good.replace("alaska=0:3", "alaska=0:0"), "no armies"),
        (good.replace("alaska=0:3 ", ""), "missing"),
        (good.replace("phase=attack", "phase=battle:alaska>peru"), "battle"),
        (good.replace("hands 0: 1:", "hands 0:alaska 1:alaska"), "overlap"),
        (good.replace("round=1", "round=1000"), "limit"),
        (good.replace("phase=attack", "phase=conquer"), "not a phase"),
        (good.replace("hands 0: 1:", "hands 0:?3 1:"), "hidden"),
        (good.replace("alaska=0:3", "alaska=neutral:3"), "neutral"),
    ] {
        let err = start.parse_state(&bad).expect_err(why).to_string();
        assert!(err.contains(why), "expected '{why}' in: {err}");
    }
    for (bad, why) in [
        ("attack alaska", "expected"),
        ("place narnia 3", "not a territory"),
        ("trade alaska alaska peru", "three different"),
        ("roll 2:2", "1 or 2"),
        ("conquer alaska", "not a Risk action"),
    ] {
        let err = start.parse_action(bad).expect_err(bad).to_string();
        assert!(err.contains(why), "'{bad}': expected '{why}' in: {err}");
    }
    let attack = position(
        "",
        "round=1 player=0 phase=draft reserve=3 trades=0 conquered=0 acted=0",
        americas,
        "0:alaska,peru 1:",
        "",
    );
    assert!(attack.clone().play_text("place alaska 4").is_err(), "more than the reserve");
    assert!(attack.clone().play_text("place kamchatka 3").is_err(), "an enemy territory");
    assert!(attack.clone().play_text("trade alaska peru wild1").is_err(), "cards not in hand");
}

#[test]
fn the_board_data_is_the_map_and_stays_through_a_game() {
    let start = game("players=3");
    let board = start.board_json();
    assert_eq!(board, start.map().to_json());
    assert_eq!(board["territories"].as_array().unwrap().len(), 42);
    assert_eq!(board["continents"].as_array().unwrap().len(), 6);
    let alaska = &board["territories"][0];
    assert_eq!(alaska["name"], "Alaska");
    assert!(alaska["neighbours"].as_array().unwrap().iter().any(|n| n == "Kamchatka"), "{alaska}");
    assert!(alaska["x"].is_number() && alaska["card"].is_string(), "{alaska}");
    // Read back as a map file, it is the same map.
    assert_eq!(Map::from_json_text(&board.to_string()).unwrap(), *start.map());
    let mut later = start.clone();
    let mut rng = ply_core::rng::rng_from_seed(3);
    ply_core::random_playout(&mut later, &mut rng, 300);
    assert_eq!(later.board_json(), board, "the board does not change with the play");
}

//! The options that let Ply play pyrisk's rule set (tools/pyrisk): no cards (`cards=none`),
//! fortifying between any two own territories (`fortify=anywhere`) and a number of starting
//! armies (`start_armies=N`).

use ply_core::{Game, GameDef, Turn};
use ply_risk::{Phase, Risk};

fn game(options: &str) -> Risk {
    Risk::new_from_text_options(options).unwrap_or_else(|e| panic!("{options}: {e}"))
}

/// A classic-map position with `owner(t)` giving each territory's owner and armies.
fn position(options: &str, header: &str, owner: impl Fn(usize) -> (u8, u16), hands: &str) -> Risk {
    let start = game(options);
    let territories: Vec<String> = start
        .map()
        .territories
        .iter()
        .enumerate()
        .map(|(t, territory)| {
            let (o, a) = owner(t);
            format!("{}={o}:{a}", territory.slug)
        })
        .collect();
    let text = format!(
        "risk players={} {header} dealt=42; territories {}; hands {hands}; discard",
        start.players(),
        territories.join(" ")
    );
    start.parse_state(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn texts(state: &Risk) -> Vec<String> {
    state.actions().into_iter().map(|a| state.action_to_text(a)).collect()
}

/// Seat 0 holds the Americas, seat 1 the rest; 3 armies each.
fn americas(t: usize) -> (u8, u16) {
    (u8::from(t >= 13), 3)
}

#[test]
fn no_cards_means_no_draw_and_no_trade_but_a_fortify() {
    let header = "round=1 player=0 phase=attack reserve=0 trades=0 conquered=0 acted=1";
    // North Africa (territory 20) has one army.
    let owner = |t: usize| if t == 20 { (1, 1) } else { americas(t) };
    let mut s = position("cards=none", header, owner, "0: 1:");
    // Brazil (3) takes North Africa (1) with a roll that costs the defender its army.
    s.play_text("attack brazil north-africa").unwrap();
    s.play_text("roll 0:1").unwrap();
    assert_eq!(s.owner(s.map().territory("north-africa").unwrap()), 0);
    assert!(s.conquered_this_turn());
    s.play_text("end-attack").unwrap();
    assert_eq!(s.phase(), Phase::Fortify, "the classic turn still fortifies");
    s.play_text("end-turn").unwrap();
    assert_eq!((s.current(), s.phase()), (1, Phase::Draft), "a conquest draws no card");
    assert!(texts(&s).iter().all(|m| m.starts_with("place")), "nothing to trade");
    let with_cards = position("", header, americas, "0:alaska 1:").to_text();
    let err = game("cards=none").parse_state(&with_cards).expect_err("cards in hand").to_string();
    assert!(err.contains("no cards"), "{err}");
}

#[test]
fn fortify_anywhere_reaches_unconnected_territories() {
    // Seat 0 holds the Americas and Eastern Australia, which no own territory touches.
    let owner = |t: usize| if t == 41 { (0, 3) } else { americas(t) };
    let header = "round=1 player=0 phase=fortify reserve=0 trades=0 conquered=0 acted=1";
    let anywhere = texts(&position("fortify=anywhere", header, owner, "0: 1:"));
    let connected = texts(&position("fortify=connected", header, owner, "0: 1:"));
    assert!(anywhere.contains(&"fortify alaska eastern-australia 2".to_string()), "{anywhere:?}");
    assert!(anywhere.contains(&"fortify eastern-australia argentina 1".to_string()));
    assert!(!connected.iter().any(|m| m.contains("eastern-australia")), "not through enemies");
    assert!(!anywhere.iter().any(|m| m.starts_with("fortify alaska kamchatka")), "never to an enemy");
    assert!(!anywhere.iter().any(|m| m.starts_with("fortify alaska alaska")), "never to itself");
    // 14 territories with 3 armies, each to 13 others, 1 or 2 armies; and end-turn.
    assert_eq!(anywhere.len(), 14 * 13 * 2 + 1);
}

#[test]
fn starting_armies_can_be_set() {
    for (players, armies) in [(2u16, 31u16), (5, 25), (6, 23)] {
        let start = game(&format!("players={players},setup=pick,cards=none,start_armies={armies}"));
        let mut state = start.clone();
        while state.round() == 0 {
            state.apply(state.actions()[0]);
        }
        for p in 0..players as u8 {
            assert_eq!(state.armies_of(p), u32::from(armies), "{players} players, seat {p}");
        }
        assert_eq!((state.phase(), state.current()), (Phase::Draft, 0));
    }
    assert_eq!(game("start_armies=classic,players=3").rules().starting_armies(), 35);
    for (bad, why) in [("start_armies=20", "too few"), ("start_armies=lots", "start_armies")] {
        let err = Risk::new_from_text_options(bad).expect_err(bad).to_string();
        assert!(err.contains(why), "'{bad}': expected '{why}' in: {err}");
    }
}

#[test]
fn the_pyrisk_rule_set_plays_to_the_end() {
    let mut state = game("setup=pick,cards=none,fortify=anywhere,start_armies=31,max_rounds=500");
    let mut rng = ply_core::rng::rng_from_seed(5);
    let mut actions = 0;
    while state.turn() != Turn::Over {
        let action = match state.turn() {
            Turn::Chance => state.sample_chance(&mut rng),
            // The planner in seat 0, greedy in seat 1: both only ever choose legal actions.
            Turn::Player(0) => ply_risk::planner::Planner::default().choose(&state, &state.actions()),
            _ => ply_risk::agents::Greedy::choose(&state, &state.actions()),
        };
        assert!(state.is_legal(action), "{}", state.action_to_text(action));
        state.apply(action);
        assert_eq!(state.hand_size(0) + state.hand_size(1), 0);
        actions += 1;
        assert!(actions < 1_000_000);
    }
}

/// Claims in turn: a player completes a continent it is alone in and one short of, and
/// otherwise takes the last open territory of a continent its rival is alone in.
#[test]
fn greedy_claims_complete_its_continents_and_deny_the_rivals() {
    let mut state = game("setup=pick,cards=none");
    let mut rng = ply_core::rng::rng_from_seed(1);
    while state.turn() == Turn::Chance {
        state.apply(state.sample_chance(&mut rng));
    }
    let map = state.shared_map().clone();
    let id = |slug: &str| map.territory(slug).unwrap_or_else(|| panic!("{slug}"));
    let (australia, europe_far) = (
        ["indonesia", "new-guinea", "western-australia", "eastern-australia"].map(id),
        ["iceland", "great-britain", "scandinavia"].map(id),
    );
    let pick = |state: &mut Risk, t: usize| {
        let action = state
            .actions()
            .into_iter()
            .find(|a| state.action_to_text(*a) == format!("pick {}", state.map().territories[t].slug));
        state.apply(action.unwrap_or_else(|| panic!("pick {t} is not legal")));
    };
    // Seat 0 takes three of Australia, seat 1 three of Europe's north-west.
    for i in 0..3 {
        assert_eq!(state.turn(), Turn::Player(0));
        pick(&mut state, australia[i]);
        pick(&mut state, europe_far[i]);
    }
    // Seat 0 completes Australia.
    let choice = ply_risk::agents::Greedy::choose(&state, &state.actions());
    assert_eq!(state.action_to_text(choice), "pick eastern-australia");
    // Had seat 1 been to move, it would have denied it.
    let mut other = state.clone();
    pick(&mut other, id("peru"));
    let choice = ply_risk::agents::Greedy::choose(&other, &other.actions());
    assert_eq!(other.action_to_text(choice), "pick eastern-australia");
}

/// A position with another number of players than the game's is refused before anything is
/// read against that number (0 players once made an owner's error message underflow).
#[test]
fn a_position_for_another_number_of_players_is_refused_first() {
    // After the deal, so that every territory has an owner to read.
    let mut state = game("");
    let mut rng = ply_core::rng::rng_from_seed(2);
    while state.turn() == Turn::Chance {
        state.apply(state.sample_chance(&mut rng));
    }
    for players in [0, 1, 3, 200] {
        let mut json = state.to_json();
        json["players"] = players.into();
        let err = state.state_from_json(&json).err().unwrap().to_string();
        assert!(err.contains(&format!("the position has {players} players, the game 2")), "{err}");
        let text = state.to_text().replacen("players=2", &format!("players={players}"), 1);
        let err = state.parse_state(&text).err().unwrap().to_string();
        assert!(err.contains(&format!("the position has {players} players, the game 2")), "{err}");
    }
}

//! Kuhn poker: the rules, the notation, what each seat may see, and that no agent learns the
//! other player's card.

use ply_arena::{RunOptions, entry};
use ply_core::rng::rng_from_seed;
use ply_core::{AgentSpec, Budget, Game, GameDef, Limits, Turn, perft};
use ply_kuhn::{JACK, KING, Kuhn, KuhnAction, QUEEN};

fn state(text: &str) -> Kuhn {
    Kuhn::default().parse_state(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn random_hands_keep_every_rule_of_the_model() {
    // Notation, legality, turns, returns, and what each seat sees of a re-dealt world.
    let summary = ply_core::testing::check_random_games(&Kuhn::default(), 500, 1);
    assert!(summary.games == 500, "{summary:?}");
    for text in ["KQ", "QK b", "JQ pb", "KQ pp", "QJ pbb"] {
        ply_core::testing::check_observations(&state(text)).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

#[test]
fn dealing_betting_and_every_ending() {
    let mut s = Kuhn::default();
    assert_eq!(s.turn(), Turn::Chance);
    assert_eq!(s.outcomes().len(), 3);
    s.play_text("Q").unwrap();
    let second: Vec<KuhnAction> = s.outcomes().into_iter().map(|(a, _)| a).collect();
    assert_eq!(second, vec![KuhnAction::Deal(JACK), KuhnAction::Deal(KING)], "the dealt card is gone");
    assert!(s.play_text("Q").is_err(), "one card of each");
    s.play_text("K").unwrap();
    assert_eq!((s.turn(), s.actions()), (Turn::Player(0), vec![KuhnAction::Pass, KuhnAction::Bet]));
    // Player 0 (Queen) against player 1 (King): chips won by player 0 at each ending.
    for (betting, net, score) in
        [("pp", -1, 0.25), ("bp", 1, 0.75), ("bb", -2, 0.0), ("pbp", -1, 0.25), ("pbb", -2, 0.0)]
    {
        let end = state(&format!("QK {betting}"));
        assert_eq!(end.turn(), Turn::Over, "{betting}");
        assert_eq!(end.net_for_first(), Some(net), "{betting}");
        assert_eq!(end.returns().as_slice(), &[score, 1.0 - score], "{betting}");
    }
    assert_eq!(state("QK pb").turn(), Turn::Player(0), "player 0 answers a bet after its check");
    assert_eq!(state("KJ pp").returns().as_slice(), &[0.75, 0.25]);
}

#[test]
fn notation_reads_back_and_refuses_nonsense() {
    for text in ["--", "K-", "KQ", "KQ p", "JK pb", "QJ pbb"] {
        let s = state(text);
        assert_eq!(s.to_text(), text);
        assert_eq!(Kuhn::default().state_from_json(&s.to_json()).unwrap(), s, "{text}");
    }
    for bad in ["", "KK", "-K", "KQ x", "K", "KQJ", "KQ pbbp", "-- p", "KQ pp p", "A-"] {
        assert!(Kuhn::default().parse_state(bad).is_err(), "'{bad}' should be refused");
    }
    for (text, action) in [("check", KuhnAction::Pass), ("call", KuhnAction::Bet), ("fold", KuhnAction::Pass)]
    {
        assert_eq!(Kuhn::default().parse_action(text).unwrap(), action);
    }
    assert!(Kuhn::default().parse_action("raise").is_err());
    // 3 * 2 deals; then five lines of betting (a line that ends early counts once).
    assert_eq!(perft(&Kuhn::default(), 2), 6);
    assert_eq!(perft(&state("KQ"), 3), 5, "pp, bp, bb, pbp, pbb");
    assert_eq!(perft(&Kuhn::default(), 5), 30);
}

#[test]
fn each_seat_sees_its_own_card_and_a_spectator_neither() {
    let s = state("KQ p");
    assert_eq!(s.observation_text(Some(0)), "K? p");
    assert_eq!(s.observation_text(Some(1)), "?Q p");
    assert_eq!(s.observation_text(None), "?? p");
    assert_eq!(s.observation_json(Some(1))["cards"], serde_json::json!(["?", "Q"]));
    assert_eq!(state("KQ pp").observation_text(None), "KQ pp", "everything once the hand is over");
    let dealing = state("K-");
    assert_eq!(dealing.action_observation(KuhnAction::Deal(QUEEN), Some(0)), "a card to player 1");
    assert_eq!(dealing.action_observation(KuhnAction::Deal(QUEEN), Some(1)), "Q");
}

/// A seat's re-dealt world depends on what it sees and the generator only: two positions that
/// differ only in the other's card give the same worlds, which cover both cards it may hold.
#[test]
fn a_redeal_knows_nothing_of_the_hidden_card() {
    for (a, b) in [("QK b", "JK b"), ("JQ pb", "JK pb")] {
        let (a, b) = (state(a), state(b));
        let viewer = a.current_player().unwrap();
        let mut seen = Vec::new();
        for seed in 0..40 {
            let wa = a.resample_hidden(viewer, &mut rng_from_seed(seed));
            let wb = b.resample_hidden(viewer, &mut rng_from_seed(seed));
            assert_eq!(wa, wb, "seed {seed}");
            assert_eq!(wa.card(viewer), a.card(viewer), "its own card is kept");
            seen.push(wa.card(1 - viewer));
        }
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 2, "both cards it cannot rule out: {seen:?}");
    }
}

/// What the arena does before every decision: the agent gets a world re-dealt for its seat.
/// Every agent then chooses the same whatever the other's card.
#[test]
fn no_agent_choice_depends_on_the_hidden_card() {
    for agent in ["ismcts", "pimc:worlds=4", "mcts", "nash", "random"] {
        for (a, b) in [("QK b", "JK b"), ("JQ", "JK"), ("KJ pb", "KQ pb"), ("QK p", "JK p")] {
            let (a, b) = (state(a), state(b));
            let viewer = a.current_player().unwrap();
            let choose = |s: &Kuhn| {
                let mut built = Kuhn::build_agent(&AgentSpec::parse(agent).unwrap(), 7).unwrap();
                let world = s.resample_hidden(viewer, &mut rng_from_seed(3));
                let d = built.agent.choose(&world, &Limits::new(Budget::iterations(300)), &mut |_| {});
                (d.action, d.info.iterations, d.info.value.map(f64::to_bits))
            };
            assert_eq!(choose(&a), choose(&b), "{agent} at {} / {}", a.to_text(), b.to_text());
        }
    }
}

/// In a whole match, player 1 holding the Queen and facing a bet calls as often whether player 0
/// bluffs with the Jack or holds the King: were it handed the real position, MCTS would call
/// every Jack and fold to every King.
#[test]
fn in_a_match_the_seat_never_sees_the_other_card() {
    let game = entry::<Kuhn>();
    let options = RunOptions {
        options: String::new(),
        games: 600,
        seed: 11,
        budget: Budget::iterations(400),
        threads: 2,
        progress: false,
        openings: None,
        stop: Default::default(),
    };
    let (a, b) = (AgentSpec::parse("nash:alpha=0.3333").unwrap(), AgentSpec::parse("mcts").unwrap());
    let report = game.run_match([&a, &b], &options).unwrap();
    // Calls and chances to call, by player 0's card, of mcts in seat 1 with the Queen after a bet.
    let mut calls = [[0u32; 2]; 3];
    for record in report.records.iter().filter(|r| r.seats[1] == "mcts") {
        let cards = (&record.actions[0], &record.actions[1]);
        if cards.1 != "Q" || record.actions.get(2).map(String::as_str) != Some("bet") {
            continue;
        }
        let first = match cards.0.as_str() {
            "J" => 0,
            _ => 2,
        };
        calls[first][0] += u32::from(record.actions[3] == "bet");
        calls[first][1] += 1;
    }
    let rate = |c: [u32; 2]| f64::from(c[0]) / f64::from(c[1].max(1));
    assert!(calls[0][1] >= 10 && calls[2][1] >= 30, "enough bets to compare: {calls:?}");
    let (against_jack, against_king) = (rate(calls[0]), rate(calls[2]));
    assert!(
        (against_jack - against_king).abs() < 0.35,
        "calls {against_jack:.2} against a Jack, {against_king:.2} against a King: {calls:?}"
    );
}

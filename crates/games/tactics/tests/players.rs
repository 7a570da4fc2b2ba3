//! The players: max_agro's choices on small positions, its two orders, and whole games where
//! every action chosen is legal.

mod common;

use common::{game, open, pos};
use ply_core::{Agent, Game, GameDef, Limits, Turn};
use ply_tactics::agents::{MaxAgro, Order};
use ply_tactics::{Tactics, TacticsAction, cell_name};

fn choose(order: Order, state: &Tactics) -> String {
    let mut agent = MaxAgro::new(order);
    let decision = agent.choose(state, &Limits::default(), &mut |_| {});
    assert!(state.is_legal(decision.action));
    state.action_to_text(decision.action)
}

#[test]
fn max_agro_makes_the_attack_that_deals_the_most_damage() {
    // The fighter deals 50 to the archer (60 hit points) but only 40 to the sorcerer.
    let state = pos(&open(8), "Fd4:100", "We4:40 Ad5:60", 0);
    assert_eq!(choose(Order::Original, &state), "d4>n");
    // A sorcerer's line through two enemies beats an arrow-free single target.
    let state = pos(&open(8), "Wa1:40", "Fa3:100 Fa5:100 Fc1:100", 0);
    assert_eq!(choose(Order::Original, &state), "a1>n");
    // Damage counts only what the target has left: finishing a 10-point archer is worth 10.
    let state = pos(&open(8), "Fd4:100", "Ae4:10 Fd5:100", 0);
    assert_eq!(choose(Order::Original, &state), "d4>n");
}

#[test]
fn max_agro_runs_at_the_enemy_when_it_cannot_hurt_one() {
    let state = pos(&open(10), "Fa1:100", "Fj10:100", 0);
    let action = choose(Order::Original, &state);
    let to = state.parse_action(&action).map(|a| match a {
        TacticsAction::Unit { to, .. } => to,
        TacticsAction::Deal(_) => unreachable!(),
    });
    let to = to.unwrap();
    assert_eq!(ply_tactics::grid::manhattan(to, ply_tactics::parse_cell("j10").unwrap()), 18 - 4, "{action}");
    // Fire that would hurt a friend as much as the enemy is not worth it.
    let state = pos(&open(8), "Wa1:40 Fa2:100 Fb1:100", "Fa3:100 Fh8:100", 0);
    assert_eq!(choose(Order::Original, &state), "a1");
    // Free to move, the sorcerer finds a line without its friend.
    let state = pos(&open(8), "Wa1:40 Fa2:100", "Fa3:100 Fh8:100", 0);
    assert_eq!(choose(Order::Original, &state), "a1-b3>w");
}

#[test]
fn the_two_orders_start_from_either_end_of_the_team() {
    let state = game("map_seed=5");
    let first = |order| choose(order, &state)[..2].to_string();
    assert_eq!(first(Order::Original), cell_name(state.team(0)[0].cell));
    assert_eq!(first(Order::Reversed), cell_name(state.team(0)[5].cell));
}

/// Plays a game between two agents from `start`; panics on an illegal choice.
fn play(start: &Tactics, agents: &mut [Box<dyn Agent<Tactics>>; 2], seed: u64) -> Tactics {
    let mut state = start.clone();
    let mut rng = ply_core::rng::rng_from_seed(seed);
    while let Some(()) = match state.turn() {
        Turn::Over => None,
        Turn::Chance => {
            state.apply(state.sample_chance(&mut rng));
            Some(())
        }
        Turn::Player(p) => {
            let action = agents[p].choose(&state, &Limits::default(), &mut |_| {}).action;
            state.play(action).unwrap_or_else(|e| panic!("{e} in {}", state.to_text()));
            Some(())
        }
    } {}
    state
}

#[test]
fn max_agro_beats_random_and_both_play_only_legal_actions() {
    let mut wins = 0.0;
    for seed in 0..20u64 {
        let options =
            if seed.is_multiple_of(2) { "max_turns=60" } else { "size=13,handicap=-1,max_turns=60" };
        let start = game(options);
        let order = if seed % 4 < 2 { "max_agro" } else { "max_agro:order=reversed" };
        let agro = Tactics::build_agent(&ply_core::AgentSpec::parse(order).unwrap(), seed).unwrap().agent;
        let random =
            Tactics::build_agent(&ply_core::AgentSpec::parse("random").unwrap(), seed).unwrap().agent;
        let seat = (seed % 3 == 0) as usize;
        let mut agents = if seat == 0 { [agro, random] } else { [random, agro] };
        let end = play(&start, &mut agents, seed);
        wins += end.returns().get(seat);
    }
    assert!(wins >= 18.0, "max_agro scored {wins} of 20 against random");
}

//! The tactics players: the document's `max_agro` (step 2: everyone runs at the enemy and deals
//! the most damage it can) and the generic random player.

use ply_core::{Agent, AgentFactory, Decision, Limits, ParamInfo, SearchInfo};
use ply_search::factories;

use crate::plans::Scratch;
use crate::rules::{Tactics, TacticsAction};

/// Which unit acts next: the first of the side's units that has not acted, counted in team
/// order (`original`) or from the end (`reversed`) — the document's two orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Original,
    Reversed,
}

impl Order {
    /// The unit of the side to move that acts next in this order.
    pub fn next_unit(self, state: &Tactics) -> Option<usize> {
        match self {
            Order::Original => state.to_act().next(),
            Order::Reversed => state.to_act().last(),
        }
    }
}

/// The document's max_agro: each unit in turn, in a fixed order, makes the attack that deals the
/// most damage from any cell it can reach (enemy damage less friendly fire, then kills; fewest
/// steps on a tie), or if it can hurt no enemy, moves as near the enemy as it can.
pub struct MaxAgro {
    pub order: Order,
    scratch: Scratch,
}

impl MaxAgro {
    pub fn new(order: Order) -> Self {
        MaxAgro { order, scratch: Scratch::default() }
    }

    pub fn act(&mut self, state: &Tactics) -> Option<TacticsAction> {
        let slot = self.order.next_unit(state)?;
        let plan = state.aggressive_plan(slot, &mut self.scratch);
        Some(state.action_for(slot, &plan))
    }
}

impl Agent<Tactics> for MaxAgro {
    fn choose(
        &mut self,
        state: &Tactics,
        _limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo<TacticsAction>),
    ) -> Decision<TacticsAction> {
        let action = self.act(state).unwrap_or_else(|| {
            use ply_core::Game;
            state.actions()[0]
        });
        let decision = Decision::new(action);
        report(&decision.info);
        decision
    }
}

pub fn factories() -> Vec<AgentFactory<Tactics>> {
    vec![
        AgentFactory::new(
            "max_agro",
            "the document's max_agro: every unit in turn runs at the enemy and makes the attack that deals the most damage",
            vec![ParamInfo::new(
                "order",
                "original",
                "the order the units act in: 'original' (team order) or 'reversed'",
            )],
            |params, _seed| {
                let order = match params.get_choice("order", &["original", "reversed"])? {
                    "original" => Order::Original,
                    _ => Order::Reversed,
                };
                Ok(Box::new(MaxAgro::new(order)))
            },
        ),
        factories::random(),
    ]
}

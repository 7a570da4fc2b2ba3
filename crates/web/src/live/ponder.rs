//! Pondering: while a human thinks, the AI that moves next searches on in the background
//! ([`ply_core::Agent::ponder`]: MCTS grows the tree it keeps), so its answer comes sooner
//! and is better. The agent travels with its ponder; the AI's own search takes it over when
//! the human has moved. Anything else that makes the position stale (undo, resign, pause, the
//! end) stops the ponder and drops the agent, as it does a search in flight.

use tokio::sync::oneshot;

use super::*;

/// The longest a ponder runs: a human who walks away does not hold a core for good.
const PONDER_MS: u64 = 120_000;

pub struct Pondering {
    pub player: usize,
    stop: StopFlag,
    /// The agent, once its ponder has stopped.
    done: Option<oneshot::Receiver<Box<dyn DynAgent>>>,
}

/// A ponder whose game leaves memory (evicted when idle, or the server going down) stops.
impl Drop for Pondering {
    fn drop(&mut self) {
        self.stop.stop();
    }
}

/// Where an AI's agent comes from: at hand, or from the ponder about to hand it over.
pub enum AgentSource {
    Ready(Box<dyn DynAgent>),
    Pondering(oneshot::Receiver<Box<dyn DynAgent>>),
}

impl AgentSource {
    /// The agent; a ponder that died without handing it over leaves a fresh one to build.
    pub async fn agent(self, handle: &GameHandle, player: usize) -> Result<Box<dyn DynAgent>, ApiError> {
        match self {
            AgentSource::Ready(agent) => Ok(agent),
            AgentSource::Pondering(done) => match done.await {
                Ok(agent) => Ok(agent),
                Err(_) => lock(handle).take_agent(player),
            },
        }
    }
}

impl Live {
    pub(super) fn stop_pondering(&mut self) {
        self.pondering = None;
    }

    /// The agent of `player`, taken over from its ponder if it is pondering.
    pub(super) fn agent_source(&mut self, player: usize) -> Result<AgentSource, ApiError> {
        // Dropping a ponder stops it.
        match self.pondering.take() {
            Some(mut pondering) if pondering.player == player => {
                Ok(AgentSource::Pondering(pondering.done.take().expect("taken only here")))
            }
            _ => Ok(AgentSource::Ready(self.take_agent(player)?)),
        }
    }

    /// The AI seat that moves after `human` (the next one round the table), if any.
    fn next_ai(&self, human: usize) -> Option<usize> {
        let n = self.settings.sides.len();
        (1..n).map(|k| (human + k) % n).find(|&p| self.settings.sides[p].is_ai())
    }

    /// A human is to move: the next AI ponders the position (afresh after each of the human's
    /// decisions: a turn may be several).
    pub(super) fn start_pondering(&mut self, handle: &GameHandle, human: usize) {
        let Some(player) = self.next_ai(human) else { return };
        if self.paused {
            return;
        }
        let source = match self.agent_source(player) {
            Ok(AgentSource::Ready(agent)) if !agent.ponders() => {
                self.agents[player] = Some(agent);
                return;
            }
            Ok(source) => source,
            Err(_) => return,
        };
        let stop = StopFlag::new();
        let (tx, done) = oneshot::channel();
        self.pondering = Some(Pondering { player, stop: stop.clone(), done: Some(done) });
        stop_after(stop.clone(), Duration::from_millis(PONDER_MS));
        // The AI ponders what its seat may see, as it searches.
        let state = self.seat_view(player, AI_VIEW_SEED_BASE);
        let (handle, ponders) = (handle.clone(), self.ponders.clone());
        tokio::spawn(async move {
            let Ok(mut agent) = source.agent(&handle, player).await else { return };
            // The game is not held in memory by its ponder.
            drop(handle);
            if stop.is_stopped() {
                let _ = tx.send(agent);
                return;
            }
            let pondered = tokio::task::spawn_blocking(move || {
                let _running = Running::new(&ponders);
                let limits = Limits { budget: Budget::millis(PONDER_MS), stop };
                // A ponder that fails or panics costs only its agent: the move builds a new one.
                std::panic::catch_unwind(AssertUnwindSafe(|| agent.ponder(&*state, &limits).map(|()| agent)))
            })
            .await;
            if let Ok(Ok(Ok(agent))) = pondered {
                let _ = tx.send(agent);
            }
        });
    }
}

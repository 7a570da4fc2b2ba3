//! The AI to move thinking: its agent, its budget for the turn, a search on the blocking pool that
//! records its move (or is dropped if the game moved on meanwhile), and the stops that bound every
//! search started for a request.

use super::*;

/// Counts a search as running while it lives (`/api/status`).
pub struct Running(Arc<AtomicUsize>);

impl Running {
    pub fn new(counter: &Arc<AtomicUsize>) -> Running {
        counter.fetch_add(1, Ordering::Relaxed);
        Running(counter.clone())
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Live {
    pub(super) fn stop_thinking(&mut self) {
        self.epoch += 1;
        self.stop_pondering();
        if let Some(thinking) = self.thinking.take() {
            thinking.stop.stop();
            // The agent went with the search; the next move builds a fresh one.
            self.agents[thinking.player] = None;
        }
    }

    pub fn take_agent(&mut self, player: usize) -> Result<Box<dyn DynAgent>, ApiError> {
        if let Some(agent) = self.agents[player].take() {
            return Ok(agent);
        }
        let spec = self.settings.sides[player].agent.as_deref().unwrap_or_default();
        let spec = AgentSpec::parse(spec)?;
        self.agent_builds += 1;
        let seed = self.seed_at(AGENT_SEED_BASE + player as u64 + 16 * self.agent_builds);
        let agent = self.def().new_agent(&spec, seed)?;
        self.spec_budgets[player] = agent.budget();
        Ok(agent)
    }

    pub(super) fn start_thinking(&mut self, handle: &GameHandle, player: usize) {
        let source = match self.agent_source(player) {
            Ok(source) => source,
            Err(e) => return self.fail(&e.message),
        };
        let spec_budget = match &source {
            AgentSource::Ready(agent) => agent.budget(),
            // Still pondering: its spec's budget was noted when it was built.
            AgentSource::Pondering(_) => self.spec_budgets[player],
        };
        let side_ms = self.settings.sides[player].time_ms.unwrap_or(DEFAULT_TIME_MS);
        let full = spec_budget.or(Budget::millis(side_ms));
        let budget = self.turn_budgets[player].decision(
            full,
            self.state.continues_turn(),
            self.state.decisions_left_in_turn(),
        );
        // A spec's own `iters=` or `nodes` alone would not bound the time: the side's time per
        // move does, so no search started over HTTP holds a core for good.
        let deadline = budget.time.is_none().then(|| Duration::from_millis(side_ms));
        let stop = StopFlag::new();
        self.thinking = Some(Thinking {
            player,
            stop: stop.clone(),
            started: now_ms(),
            budget_ms: budget.time.or(deadline).map(|t| t.as_millis() as u64),
            info: None,
        });
        let epoch = self.epoch;
        let secret = self.is_secret();
        let delay = Duration::from_millis(self.settings.delay_ms);
        // The AI sees only what its seat may: the rest is re-dealt for it.
        let state = self.seat_view(player, AI_VIEW_SEED_BASE);
        let (handle, id, tx, searches) = (handle.clone(), self.id, self.tx.clone(), self.searches.clone());
        tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            {
                let mut live = lock(&handle);
                if live.epoch != epoch {
                    return;
                }
                if let Some(t) = live.thinking.as_mut() {
                    t.started = now_ms();
                }
                live.publish();
            }
            // From its ponder, once that has stopped (at once: its stop flag is set).
            let mut agent = match source.agent(&handle, player).await {
                Ok(agent) => agent,
                Err(e) => {
                    let mut live = lock(&handle);
                    if live.epoch == epoch {
                        live.fail(&e.message);
                        live.publish();
                    }
                    return;
                }
            };
            if let Some(deadline) = deadline {
                stop_after(stop.clone(), deadline);
            }
            let running = Running::new(&searches);
            let limits = Limits { budget, stop };
            let search = tokio::task::spawn_blocking(move || {
                let mut last: Option<Instant> = None;
                let progress = handle.clone();
                let decision = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    agent.choose(&*state, &limits, &mut |info| {
                        if last.is_some_and(|t| t.elapsed() < INFO_INTERVAL) {
                            return;
                        }
                        last = Some(Instant::now());
                        let info = info_json(info, &*state);
                        let mut live = lock(&progress);
                        if live.epoch != epoch {
                            return;
                        }
                        if let Some(t) = live.thinking.as_mut() {
                            t.info = Some(info.clone());
                        }
                        if !secret {
                            let message =
                                json!({"type": "thinking", "id": id, "player": player, "info": info});
                            let _ = tx.send(message.to_string().into());
                        }
                    })
                }));
                // The search is over before its move is recorded: the move starts the next
                // ponder, and `/api/status` never counts both at once.
                drop(running);
                let mut live = lock(&handle);
                if live.epoch != epoch {
                    return;
                }
                live.thinking = None;
                match decision {
                    Ok(Ok(decision)) => {
                        live.agents[player] = Some(agent);
                        live.turn_budgets[player].spent(decision.info.iterations, decision.info.elapsed);
                        let info = info_json(&decision.info, &*state);
                        match live.record(&decision.action, Some(player), "ai", Some(info)) {
                            Ok(()) => live.advance(&handle),
                            Err(e) => live.fail(&format!("the AI's move {}: {}", decision.action, e.message)),
                        }
                    }
                    Ok(Err(e)) => live.fail(&format!("the AI failed: {e}")),
                    Err(_) => live.fail("the AI's search panicked"),
                }
                live.publish();
            });
            let _ = search.await;
        });
    }
}

/// Stops a search at `deadline` from now, if it is still running then.
pub fn stop_after(stop: StopFlag, deadline: Duration) {
    tokio::spawn(async move {
        tokio::time::sleep(deadline).await;
        stop.stop();
    });
}

//! A game of `ply serve` as a game record (docs/formats.md): what the arena writes of a game,
//! plus the sides, who made each action and when, and every position, for downloads and the
//! page's replays. One schema and one parser serve every record Ply writes.

use ply_arena::GameRecord;
use ply_arena::record::{ActionDetail, Position};

use crate::live::Live;
use crate::model::{ApiResult, Side, Status};

/// The record of `live` as it stands: a game still playing has no seed (the dice stay secret)
/// and no returns yet.
pub fn of(live: &Live) -> ApiResult<GameRecord> {
    let mut state = live.def().new_state(&live.settings.options)?;
    let position =
        |state: &dyn ply_arena::DynState| Position { text: state.to_text(), json: state.to_json() };
    let mut positions = vec![position(&*state)];
    for record in &live.actions {
        state.play(&record.action)?;
        positions.push(position(&*state));
    }
    let result = live.result.as_ref();
    Ok(GameRecord {
        game: live.settings.game.clone(),
        options: live.settings.options.clone(),
        index: live.series.map_or(0, |(_, index)| index.into()),
        seed: (live.status != Status::Playing).then_some(live.settings.seed),
        seats: live.settings.sides.iter().map(Side::seat).collect(),
        // Games of `ply serve` start from the start position, as their creators set them up.
        opening_plies: 0,
        actions: live.actions.iter().map(|a| a.action.clone()).collect(),
        returns: result.map(|r| r.returns.clone()).unwrap_or_default(),
        final_state: state.to_text(),
        resigned: result.and_then(|r| r.resigned),
        status: Some(live.status),
        id: Some(live.id),
        series: live.series.map(|(series, _)| series),
        sides: live.settings.sides.clone(),
        created: Some(live.created),
        updated: Some(live.updated),
        action_details: live
            .actions
            .iter()
            .map(|a| ActionDetail { player: a.player, by: a.by.clone(), ts: a.ts, info: a.info.clone() })
            .collect(),
        positions,
    })
}

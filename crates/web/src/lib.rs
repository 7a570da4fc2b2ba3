//! `ply serve`: the web UI and its API. Games are reached only through the by-name layer
//! (`ply_arena::{DynGame, DynState, DynAgent}`) and their notation; everything game-specific
//! lives in the browser, one JS module per game (docs/web-api.md).

mod api;
mod app;
mod assets;
mod hint;
mod live;
mod model;
mod series;
mod store;

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use ply_arena::DynGame;

pub use app::App;

/// The whole application: the API under `/api`, the UI everywhere else.
pub fn router(games: Vec<Box<dyn DynGame>>, data_dir: &Path) -> std::io::Result<axum::Router> {
    let app = Arc::new(App::open(games, data_dir)?);
    Ok(api::routes(app))
}

/// Serves until Ctrl-C. Creates `data_dir` (which holds `ply.sqlite3`) if needed.
pub fn serve(games: Vec<Box<dyn DynGame>>, addr: SocketAddr, data_dir: &Path) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async move {
        let router = router(games, data_dir)?;
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let bound = listener.local_addr()?;
        // Scripts (the end-to-end tests among them) wait for this line to know the server is up.
        println!("ply serve: listening on http://{bound} (data in {})", data_dir.display());
        axum::serve(listener, router)
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
    })?;
    // Searches still running on the blocking pool are dropped with the runtime.
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    Ok(())
}

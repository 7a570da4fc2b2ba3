//! `ply serve`: the web UI and its API. Games are reached only through the by-name layer
//! (`ply_arena::{DynGame, DynState, DynAgent}`) and their notation; everything game-specific
//! lives in the browser, one JS module per game (docs/web-api.md).

mod api;
mod app;
mod assets;
mod auth;
mod config;
mod datadir;
mod guard;
mod hint;
mod listener;
mod live;
mod model;
mod record;
mod series;
mod store;

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use ply_arena::DynGame;

pub use app::App;
pub use config::Config;

use datadir::DataDir;
use guard::HostPolicy;

/// The whole application with the default settings for `data_dir`: the API under `/api`, the
/// UI everywhere else.
pub fn router(games: Vec<Box<dyn DynGame>>, data_dir: &Path) -> std::io::Result<axum::Router> {
    router_with(games, &Config::new(data_dir))
}

/// The application for `config`, answering the loopback host names and the configured ones.
pub fn router_with(games: Vec<Box<dyn DynGame>>, config: &Config) -> std::io::Result<axum::Router> {
    let data = DataDir::lock(&config.data_dir)?;
    let app = Arc::new(App::open(games, data, config)?);
    Ok(api::routes(app, HostPolicy::new(None, None, &config.allowed_hosts)))
}

/// Serves on `addr` (`HOST:PORT`; a name is looked up) until Ctrl-C. Takes the data directory
/// first, so that a second server on the same directory fails before it changes anything,
/// then the address, then opens the database.
pub fn serve(games: Vec<Box<dyn DynGame>>, addr: &str, config: Config) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let _context = runtime.enter();
    let data = DataDir::lock(&config.data_dir)?;
    let listener = runtime.block_on(bind(addr))?;
    let bound = listener.local_addr()?;
    data.describe_holder(&format!("http://{bound}"))?;
    let app = Arc::new(App::open(games, data, &config)?);
    let hosts = HostPolicy::new(Some(bound), host_of(addr), &config.allowed_hosts);
    let router = api::routes(app, hosts);
    // Scripts (the end-to-end tests among them) wait for this line to know the server is up.
    println!("ply serve: listening on http://{bound} (data in {})", config.data_dir.display());
    runtime.block_on(async move {
        axum::serve(listener::JsonErrorListener(listener), router)
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
    })?;
    // Searches still running on the blocking pool are dropped with the runtime.
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    Ok(())
}

/// Listens on the first address `addr` resolves to that can be bound.
async fn bind(addr: &str) -> std::io::Result<tokio::net::TcpListener> {
    let invalid = || {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("--addr '{addr}' is not HOST:PORT (127.0.0.1:8080, localhost:8080, [::1]:8080)"),
        )
    };
    let addrs: Vec<SocketAddr> = tokio::net::lookup_host(addr).await.map_err(|_| invalid())?.collect();
    let mut last = None;
    for candidate in &addrs {
        match tokio::net::TcpListener::bind(candidate).await {
            Ok(listener) => return Ok(listener),
            Err(e) => last = Some(e),
        }
    }
    let error = last.ok_or_else(invalid)?;
    Err(std::io::Error::new(error.kind(), format!("cannot listen on {addr}: {error}")))
}

/// The host part of `HOST:PORT`.
fn host_of(addr: &str) -> Option<&str> {
    let host = addr.rsplit_once(':')?.0;
    Some(host.trim_start_matches('[').trim_end_matches(']')).filter(|h| !h.is_empty())
}

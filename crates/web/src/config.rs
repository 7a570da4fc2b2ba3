//! How a server is set up: where its data lives, which host names it answers to, how long an
//! idle game stays in memory, and what one agent from a client may take.

use std::path::PathBuf;
use std::time::Duration;

use ply_core::Caps;

#[derive(Clone, Debug)]
pub struct Config {
    /// Holds `ply.sqlite3` and `ply.lock`; created if missing.
    pub data_dir: PathBuf,
    /// Host names answered besides the loopback names and the listening address (`*`: any).
    pub allowed_hosts: Vec<String>,
    /// A game nobody has used or watched for this long leaves memory (it stays stored).
    pub idle_after: Duration,
    /// The most one agent built from a spec sent over HTTP may take.
    pub caps: Caps,
}

impl Config {
    pub fn new(data_dir: impl Into<PathBuf>) -> Config {
        Config {
            data_dir: data_dir.into(),
            allowed_hosts: Vec::new(),
            idle_after: Duration::from_secs(600),
            caps: Caps::for_this_machine(),
        }
    }
}

//! Long calls (a search, a match) run on a thread of their own while the calling thread waits
//! without the GIL, waking every 50 ms to let Python handle signals: Ctrl-C sets the call's stop
//! flag, waits for the work to wind down and raises `KeyboardInterrupt`.

use std::sync::Mutex;
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

use ply_core::StopFlag;
use pyo3::prelude::*;

use crate::errors::internal_error;

pub fn interruptible<T: Send + 'static>(
    py: Python<'_>,
    stop: &StopFlag,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (tx, rx) = channel();
    let handle = std::thread::spawn(move || {
        let _ = tx.send(work());
    });
    // A `Receiver` may not be shared with the GIL-free closure as is; the lock makes it `Sync`.
    let rx = Mutex::new(rx);
    loop {
        match py
            .detach(|| rx.lock().unwrap_or_else(|e| e.into_inner()).recv_timeout(Duration::from_millis(50)))
        {
            Ok(value) => {
                let _ = py.detach(|| handle.join());
                return Ok(value);
            }
            Err(RecvTimeoutError::Timeout) => {
                if let Err(interrupt) = py.check_signals() {
                    stop.stop();
                    let _ = py.detach(|| handle.join());
                    return Err(interrupt);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                let message = match py.detach(|| handle.join()) {
                    Err(panic) => panic
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default(),
                    Ok(()) => String::new(),
                };
                return Err(internal_error(format!("internal error in Ply: {message}")));
            }
        }
    }
}

//! The data directory, held by one server at a time: two servers on one database would mark each
//! other's games aborted and write the same game from two memories. The lock is an exclusive
//! `flock` on `<data>/ply.lock`, held as long as the process lives (the kernel drops it when the
//! process ends, however it ends), so a stale lock file never blocks a restart.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};

const LOCK_FILE: &str = "ply.lock";

pub struct DataDir {
    path: PathBuf,
    lock: File,
}

impl DataDir {
    /// Creates the directory if needed and takes its lock; fails at once, changing nothing, if
    /// another server holds it.
    pub fn lock(path: &Path) -> io::Result<DataDir> {
        let named =
            |e: io::Error, what: &str| io::Error::new(e.kind(), format!("{}: {what}: {e}", path.display()));
        if path.exists() && !path.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!(
                    "{}: not a directory (--data names the directory that holds the database)",
                    path.display()
                ),
            ));
        }
        std::fs::create_dir_all(path).map_err(|e| named(e, "cannot create the data directory"))?;
        let lock_path = path.join(LOCK_FILE);
        let mut lock = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lock_path)
            .map_err(|e| named(e, "cannot open the lock file"))?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = lock.read_to_string(&mut holder);
                let holder = holder.trim();
                let holder =
                    if holder.is_empty() { "another process".to_string() } else { holder.to_string() };
                return Err(io::Error::new(
                    io::ErrorKind::AddrInUse,
                    format!(
                        "{}: the data directory is in use by {holder}; stop that server or give another --data",
                        path.display()
                    ),
                ));
            }
            Err(TryLockError::Error(e)) => return Err(named(e, "cannot lock the data directory")),
        }
        let dir = DataDir { path: path.to_path_buf(), lock };
        dir.describe_holder("")?;
        Ok(dir)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes who holds the lock into the lock file, for the message a second server prints.
    pub fn describe_holder(&self, listening: &str) -> io::Result<()> {
        let mut file = &self.lock;
        let mut text = format!("ply serve (pid {})", std::process::id());
        if !listening.is_empty() {
            text.push_str(&format!(" listening on {listening}"));
        }
        file.set_len(0)?;
        file.seek(io::SeekFrom::Start(0))?;
        file.write_all(text.as_bytes())?;
        file.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_fails_and_names_the_directory_and_the_holder() {
        let dir = tempfile::tempdir().unwrap();
        let first = DataDir::lock(dir.path()).unwrap();
        first.describe_holder("http://127.0.0.1:1234").unwrap();
        let err = DataDir::lock(dir.path()).err().expect("the second lock is refused").to_string();
        assert!(err.contains(&dir.path().display().to_string()), "{err}");
        assert!(err.contains("in use by ply serve (pid") && err.contains("127.0.0.1:1234"), "{err}");
        drop(first);
        DataDir::lock(dir.path()).expect("free again once the first is gone");
    }

    #[test]
    fn a_file_in_place_of_the_directory_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("data");
        std::fs::write(&file, "x").unwrap();
        let err = DataDir::lock(&file).err().unwrap().to_string();
        assert!(err.contains(&file.display().to_string()) && err.contains("not a directory"), "{err}");
    }
}

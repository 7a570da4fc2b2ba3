//! What an agent's parameters cost the machine — table memory, tree memory, threads, files — so
//! that a server can refuse specs from untrusted clients before building anything: `tt=30`
//! would allocate tens of GiB, `threads=256` would take every core, and a file parameter would
//! open any path on the server.

use std::fmt::Write as _;

use crate::error::Error;
use crate::params::{ParamInfo, Params};
use crate::spec::AgentSpec;

/// The bytes of a file a [`Resource::File`] parameter names, refused unread beyond `max_bytes`
/// so that a path like /dev/zero cannot fill the memory; errors name the file as `what`.
pub fn read_file_capped(path: &str, what: &str, max_bytes: u64) -> Result<Vec<u8>, Error> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(max_bytes + 1).read_to_end(&mut bytes))
        .map_err(|e| Error::spec(format!("cannot read {what} '{path}': {e}")))?;
    if bytes.len() as u64 > max_bytes {
        return Err(Error::spec(format!("{what} '{path}' is larger than {max_bytes} bytes")));
    }
    Ok(bytes)
}

/// What a parameter's value stands for, in machine resources.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resource {
    /// The value is a power of two: a table of `2^value` entries of `entry_bytes` each.
    TableBits { entry_bytes: u64 },
    /// The value counts items of `item_bytes` each, held once per search thread (tree nodes).
    PerThreadItems { item_bytes: u64 },
    /// The value is a number of threads.
    Threads,
    /// The value names a file to read, unless it is one of the built-in names.
    File { builtin: &'static [&'static str] },
}

/// The most one agent built from an untrusted spec may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    pub memory_bytes: u64,
    pub threads: u64,
}

impl Caps {
    /// 256 MiB and the machine's cores.
    pub fn for_this_machine() -> Caps {
        let cores = std::thread::available_parallelism().map(|n| n.get() as u64).unwrap_or(1);
        Caps { memory_bytes: 256 << 20, threads: cores }
    }
}

/// Checks the resource-bearing parameters of `spec` — the values given, or the declared defaults
/// — against `caps`. Values that do not parse are left to the agent's own checks.
/// Refuses game options sent over a network that name a file: only the built-in values of a
/// [`Resource::File`] option are taken (a Risk map: "classic", never a path on the server).
pub fn check_option_files(owner: &str, declared: &[ParamInfo], options: &str) -> Result<(), Error> {
    let params = Params::parse(owner.to_string(), declared.to_vec(), options)?;
    for p in declared {
        if let Some(Resource::File { builtin }) = p.resource {
            let value = params.raw(p.name);
            if !builtin.contains(&value) {
                return Err(Error::spec(format!(
                    "{owner}: {}='{value}' names a file; this server takes only {} here",
                    p.name,
                    builtin.iter().map(|b| format!("'{b}'")).collect::<Vec<_>>().join(" or ")
                )));
            }
        }
    }
    Ok(())
}

pub fn check_caps(spec: &AgentSpec, declared: &[ParamInfo], caps: &Caps) -> Result<(), Error> {
    let params = Params::new(spec.name.clone(), declared.to_vec(), spec.params.iter().cloned())?;
    let number = |p: &ParamInfo| params.raw(p.name).trim().parse::<u64>().ok();
    let mut threads = 1;
    for p in declared.iter().filter(|p| p.resource == Some(Resource::Threads)) {
        if let Some(n) = number(p) {
            if n > caps.threads {
                return Err(Error::spec(format!(
                    "{}: {}={n} asks for more threads than this server gives one agent ({})",
                    spec.name, p.name, caps.threads
                )));
            }
            threads = threads.max(n);
        }
    }
    let mut memory: u64 = 0;
    let mut parts = String::new();
    for p in declared {
        let bytes = match (p.resource, number(p)) {
            (Some(Resource::TableBits { entry_bytes }), Some(bits)) => {
                1u64.checked_shl(bits.min(63) as u32).map_or(u64::MAX, |n| n.saturating_mul(entry_bytes))
            }
            (Some(Resource::PerThreadItems { item_bytes }), Some(n)) => {
                n.saturating_mul(item_bytes).saturating_mul(threads)
            }
            (Some(Resource::File { builtin }), _) => {
                let value = params.raw(p.name);
                if !builtin.contains(&value) {
                    return Err(Error::spec(format!(
                        "{}: {}='{value}' names a file; this server takes only {} here",
                        spec.name,
                        p.name,
                        builtin.iter().map(|b| format!("'{b}'")).collect::<Vec<_>>().join(" or ")
                    )));
                }
                continue;
            }
            _ => continue,
        };
        memory = memory.saturating_add(bytes);
        let _ = write!(
            parts,
            "{}{}={} ({})",
            if parts.is_empty() { "" } else { ", " },
            p.name,
            params.raw(p.name),
            mib(bytes)
        );
    }
    if memory > caps.memory_bytes {
        return Err(Error::spec(format!(
            "{}: {parts} would take {} of memory; this server gives one agent at most {}",
            spec.name,
            mib(memory),
            mib(caps.memory_bytes)
        )));
    }
    Ok(())
}

fn mib(bytes: u64) -> String {
    if bytes >= 1 << 30 {
        format!("{:.1} GiB", bytes as f64 / (1u64 << 30) as f64)
    } else {
        format!("{:.1} MiB", bytes as f64 / (1u64 << 20) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declared() -> Vec<ParamInfo> {
        vec![
            ParamInfo::new("tt", 10, "table").costs(Resource::TableBits { entry_bytes: 32 }),
            ParamInfo::new("threads", 1, "threads").costs(Resource::Threads),
            ParamInfo::new("nodes", 1000, "nodes").costs(Resource::PerThreadItems { item_bytes: 64 }),
            ParamInfo::new("net", "shipped", "network").costs(Resource::File { builtin: &["shipped"] }),
            ParamInfo::new("c", 1.0, "free"),
        ]
    }

    const CAPS: Caps = Caps { memory_bytes: 256 << 20, threads: 2 };

    fn check(text: &str) -> Result<(), Error> {
        check_caps(&AgentSpec::parse(text).unwrap(), &declared(), &CAPS)
    }

    #[test]
    fn defaults_and_modest_values_pass() {
        check("a").unwrap();
        check("a:tt=22,threads=2,nodes=100000,c=7").unwrap();
        check("a:tt=nonsense").unwrap();
    }

    #[test]
    fn a_huge_table_is_refused_with_its_size() {
        let err = check("a:tt=30").unwrap_err().to_string();
        assert!(err.contains("tt=30") && err.contains("32.0 GiB") && err.contains("256.0 MiB"), "{err}");
        assert!(check("a:tt=99").is_err());
    }

    #[test]
    fn tree_memory_counts_once_per_thread() {
        // 3M nodes of 64 bytes are 183 MiB: one thread fits, two do not.
        check("a:nodes=3000000").unwrap();
        assert!(check("a:nodes=3000000,threads=2").unwrap_err().to_string().contains("nodes=3000000"));
    }

    #[test]
    fn threads_beyond_the_cap_are_refused() {
        assert!(check("a:threads=256").unwrap_err().to_string().contains("threads=256"));
    }

    #[test]
    fn files_are_refused_but_builtin_names_pass() {
        check("a:net=shipped").unwrap();
        let err = check("a:net=/etc/passwd").unwrap_err().to_string();
        assert!(err.contains("'/etc/passwd' names a file") && err.contains("'shipped'"), "{err}");
    }

    #[test]
    fn unknown_parameters_are_refused_as_in_building() {
        assert!(check("a:bogus=1").unwrap_err().to_string().contains("no parameter 'bogus'"));
    }
}

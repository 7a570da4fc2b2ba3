//! What the fuzz tests of the `ply` command share.

use ply_core::AgentSpec;

/// Whether building `spec` stays small: the parameters that size tables or thread pools by
/// their value (a table of 2^tt entries, `threads`, `nodes`) are small, and no network is read
/// from a file (`net`). Other values are safe at any size.
pub fn cheap_to_build(spec: &AgentSpec) -> bool {
    spec.params.iter().all(|(key, value)| {
        let number = value.parse::<u64>().ok();
        match key.as_str() {
            "tt" => number.is_none_or(|n| n <= 16),
            "threads" => number.is_none_or(|n| n <= 2),
            "nodes" => number.is_none_or(|n| n <= 100_000),
            "net" => value == "shipped",
            _ => true,
        }
    })
}

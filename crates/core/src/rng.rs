//! Seeded randomness. Every random choice in Ply (dice in a match, an agent's playouts, a random
//! opening) draws from an [`Rng`] made from a seed, and seeds for parts of a job are derived from
//! the job's seed with [`derive_seed`], so that a run can be replayed bit for bit and splitting
//! work over threads changes nothing.

use rand::SeedableRng;

/// The one generator type of the project: fast, small, good statistical quality.
pub type Rng = rand_xoshiro::Xoshiro256PlusPlus;

pub fn rng_from_seed(seed: u64) -> Rng {
    Rng::seed_from_u64(seed)
}

/// A seed for sub-task `index` of the task seeded with `seed`, by SplitMix64 finalisation:
/// nearby inputs give unrelated outputs.
pub fn derive_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_seeds_differ_and_repeat() {
        let a: Vec<u64> = (0..100).map(|i| derive_seed(42, i)).collect();
        let b: Vec<u64> = (0..100).map(|i| derive_seed(42, i)).collect();
        assert_eq!(a, b);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 100);
        assert_ne!(derive_seed(1, 0), derive_seed(2, 0));
    }
}

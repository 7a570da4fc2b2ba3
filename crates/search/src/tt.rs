//! A transposition table: search results by position hash, so that a position reached again
//! (by another move order, or in the next iteration of deepening) is not searched again.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true value is at least the stored one (the search failed high).
    Lower,
    /// The true value is at most the stored one (the search failed low).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry<A> {
    pub key: u64,
    pub value: f64,
    pub depth: u32,
    pub bound: Bound,
    pub best: Option<A>,
    generation: u16,
}

/// One entry per slot, replaced by a deeper result or by any result of a newer search.
pub struct TranspositionTable<A> {
    slots: Vec<Option<Entry<A>>>,
    generation: u16,
}

impl<A> TranspositionTable<A> {
    /// The memory one slot takes, for [`ply_core::Resource::TableBits`].
    pub const SLOT_BYTES: u64 = std::mem::size_of::<Option<Entry<A>>>() as u64;
}

impl<A: Copy> TranspositionTable<A> {
    /// A table of `2^bits` slots.
    pub fn new(bits: u32) -> Self {
        TranspositionTable { slots: vec![None; 1 << bits], generation: 0 }
    }

    /// Starts a new search: older entries stay usable but give way to new ones.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn index(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }

    pub fn probe(&self, key: u64) -> Option<&Entry<A>> {
        self.slots[self.index(key)].as_ref().filter(|e| e.key == key)
    }

    pub fn store(&mut self, key: u64, value: f64, depth: u32, bound: Bound, best: Option<A>) {
        let generation = self.generation;
        let index = self.index(key);
        let slot = &mut self.slots[index];
        let replace = match slot {
            None => true,
            Some(old) => old.generation != generation || depth >= old.depth,
        };
        if replace {
            // Keep the old best move when the new result has none (an all-node), as it still
            // orders this position's moves well.
            let best = best.or_else(|| slot.as_ref().filter(|old| old.key == key).and_then(|old| old.best));
            *slot = Some(Entry { key, value, depth, bound, best, generation });
        }
    }

    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
    }
}

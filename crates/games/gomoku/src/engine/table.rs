//! The transposition table, shared without locks by the threads of a Lazy SMP search
//! (`smp.rs`): what one thread learns about a position, the others find there.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::board::Point;

/// What the table remembers of a position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TtEntry {
    pub score: i32,
    /// In hundredths of a ply, as the search counts depth.
    pub depth: i16,
    pub bound: u8,
    pub best: Point,
}

impl TtEntry {
    /// All of it in one word, so that one atomic store writes it whole. The empty slot's word,
    /// 0, is the default entry, as the table of plain entries it replaces was filled with.
    /// The bound takes two bits and the point the other fourteen of the last sixteen: a point
    /// of the padded board is below 2^10.
    fn pack(self) -> u64 {
        debug_assert!(self.bound < 4 && self.best < 1 << 14);
        u64::from(self.score as u32)
            | u64::from(self.depth as u16) << 32
            | u64::from(self.bound) << 48
            | u64::from(self.best) << 50
    }

    fn unpack(data: u64) -> TtEntry {
        TtEntry {
            score: data as u32 as i32,
            depth: (data >> 32) as u16 as i16,
            bound: (data >> 48) as u8 & 3,
            best: (data >> 50) as Point,
        }
    }
}

/// One entry: its position's key xored with its data, and the data. Two threads storing into a
/// slot at once can leave one's first word beside the other's second; the key read back from
/// such a pair is neither position's (but by a chance of 2^-64), so the probe misses instead of
/// handing one position the other's entry.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

pub(crate) struct SharedTable {
    slots: Box<[Slot]>,
}

impl SharedTable {
    /// The memory one entry takes, for [`ply_core::Resource::TableBits`].
    pub const ENTRY_BYTES: u64 = std::mem::size_of::<Slot>() as u64;

    /// A table of `2^bits` entries.
    pub fn new(bits: u32) -> SharedTable {
        SharedTable { slots: std::iter::repeat_with(Slot::default).take(1 << bits).collect() }
    }

    fn slot(&self, key: u64) -> &Slot {
        &self.slots[(key as usize) & (self.slots.len() - 1)]
    }

    /// Asks the processor to bring `key`'s slot into the cache, so that the probe a little
    /// later (the child node's, after a stone is placed) does not wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot: *const Slot = self.slot(key);
            // SAFETY: SSE is part of every x86_64 target, and a prefetch only hints the cache:
            // it reads nothing and cannot fault, whatever the address.
            unsafe { core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(slot.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let slot = self.slot(key);
        let data = slot.data.load(Relaxed);
        (slot.check.load(Relaxed) ^ data == key).then(|| TtEntry::unpack(data))
    }

    /// Stores `entry` for `key` unless the slot holds the same position from a deeper search.
    pub fn store(&self, key: u64, entry: TtEntry) {
        let slot = self.slot(key);
        let old = slot.data.load(Relaxed);
        if slot.check.load(Relaxed) ^ old != key || entry.depth >= TtEntry::unpack(old).depth {
            let data = entry.pack();
            slot.check.store(key ^ data, Relaxed);
            slot.data.store(data, Relaxed);
        }
    }

    /// Half of a store, its data word: a slot as two stores racing into it can leave it.
    #[cfg(test)]
    fn store_data_only(&self, key: u64, entry: TtEntry) {
        self.slot(key).data.store(entry.pack(), Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: u64 = 0x9e37_79b9_7f4a_7c15;

    #[test]
    fn an_entry_reads_back_whole_and_a_slot_is_sixteen_bytes() {
        let table = SharedTable::new(10);
        assert_eq!(table.probe(KEY), None);
        let entry = TtEntry { score: -999_990, depth: -300, bound: 2, best: 0x3edc };
        table.store(KEY, entry);
        assert_eq!(table.probe(KEY), Some(entry));
        // The same slot, another position: a miss.
        assert_eq!(table.probe(KEY ^ 1 << 40), None);
        assert_eq!(SharedTable::ENTRY_BYTES, 16);
    }

    #[test]
    fn a_torn_entry_probes_as_a_miss() {
        let table = SharedTable::new(10);
        let other = KEY ^ 1 << 40;
        table.store(KEY, TtEntry { score: 5, depth: 4, bound: 1, best: 77 });
        // The other position's store got as far as its data word.
        table.store_data_only(other, TtEntry { score: -5, depth: 9, bound: 2, best: 66 });
        assert_eq!(table.probe(KEY), None);
        assert_eq!(table.probe(other), None);
        // A miss is replaced whatever its depth: the table heals.
        table.store(KEY, TtEntry { score: 6, depth: 1, bound: 0, best: 78 });
        assert_eq!(table.probe(KEY).map(|e| e.score), Some(6));
    }

    #[test]
    fn a_shallower_search_of_the_same_position_keeps_the_deeper_entry() {
        let table = SharedTable::new(10);
        let deep = TtEntry { score: 5, depth: 6, bound: 0, best: 77 };
        table.store(KEY, deep);
        table.store(KEY, TtEntry { depth: 5, ..deep });
        assert_eq!(table.probe(KEY), Some(deep));
        table.store(KEY, TtEntry { score: 9, ..deep });
        assert_eq!(table.probe(KEY).map(|e| e.score), Some(9), "as deep replaces");
        // Another position in the slot is replaced even by a shallower one.
        let other = KEY ^ 1 << 40;
        table.store(other, TtEntry { depth: 1, ..deep });
        assert_eq!(table.probe(other).map(|e| e.depth), Some(1));
        assert_eq!(table.probe(KEY), None);
    }
}

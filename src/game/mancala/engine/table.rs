//! The transposition table: a fixed-size array of two-entry buckets keyed by the exact packed board.
//!
//! The key is the whole [`Board`] (96 bits of bins), so a hit is never a collision. Each bucket has a
//! depth-preferred slot, replaced only by a search at least as deep or by any search of a later move of the game,
//! and an always-replace slot that keeps the most recent shallow result. Values are gains from the mover's point
//! of view ([`super::board`]), which depend on the board alone, so entries stay valid from one move to the next.

use super::board::Board;

/// What a stored value says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value is exact (at the stored depth).
    Exact,
    /// The true value is at least this (the search failed high).
    Lower,
    /// The true value is at most this (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The value, a bound or exact as `bound` says.
    pub value: i32,
    /// The remaining depth it was searched to.
    pub depth: i32,
    /// The kind of bound.
    pub bound: Bound,
    /// The best (or refuting) bin found, 0-5.
    pub best: u8,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u128,
    value: i16,
    depth: i16,
    best: u8,
    bound: u8,
    age: u8,
}

/// A transposition table of `2^bits` entries.
pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
    age: u8,
}

/// Spreads the packed board over the index bits (a 64-bit multiplicative mix of both halves).
#[inline]
fn index(key: u128) -> u64 {
    let folded = (key as u64) ^ ((key >> 64) as u64).wrapping_mul(0xff51_afd7_ed55_8ccd);
    let mixed = (folded ^ (folded >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    mixed ^ (mixed >> 32)
}

impl Table {
    /// An empty table of `2^bits` entries (32 bytes each).
    pub fn new(bits: u32) -> Table {
        let size = 1usize << bits.clamp(1, 30);
        Table { entries: vec![Entry::default(); size], mask: size - 2, age: 0 }
    }

    /// Marks the entries written so far as older than anything written from now on (call once per move).
    pub fn next_age(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = Entry::default());
    }

    /// The stored result for `board`, if any.
    #[inline]
    pub fn probe(&self, board: Board) -> Option<Hit> {
        let i = index(board.0) as usize & self.mask;
        self.entries[i..i + 2].iter().find(|e| e.key == board.0 && e.key != 0).map(|e| Hit {
            value: i32::from(e.value),
            depth: i32::from(e.depth),
            bound: match e.bound {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
            best: e.best,
        })
    }

    /// Stores a result for `board` (values and depths beyond `i16` are clamped; neither occurs in Kalah).
    #[inline]
    pub fn store(&mut self, board: Board, depth: i32, value: i32, bound: Bound, best: u8) {
        let i = index(board.0) as usize & self.mask;
        let entry = Entry {
            key: board.0,
            value: value.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            depth: depth.clamp(0, i32::from(i16::MAX)) as i16,
            best,
            bound: match bound {
                Bound::Exact => 0,
                Bound::Lower => 1,
                Bound::Upper => 2,
            },
            age: self.age,
        };
        let deep = self.entries[i];
        let slot =
            if deep.key == board.0 || deep.age != self.age || i32::from(deep.depth) <= depth { i } else { i + 1 };
        self.entries[slot] = entry;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_result_is_found_and_a_shallow_one_does_not_evict_a_deep_one() {
        let mut table = Table::new(4);
        let a = Board(0x0404_0404_0404_0004_0404_0404_0404);
        table.store(a, 9, 12, Bound::Lower, 3);
        assert_eq!(table.probe(a), Some(Hit { value: 12, depth: 9, bound: Bound::Lower, best: 3 }));
        // Every key lands in the only bucket of a two-entry table.
        let mut small = Table::new(1);
        let b = Board(a.0 + 1);
        small.store(a, 9, 12, Bound::Exact, 3);
        small.store(b, 2, -4, Bound::Upper, 1);
        assert_eq!(small.probe(a).map(|h| h.depth), Some(9));
        assert_eq!(small.probe(b).map(|h| h.value), Some(-4));
        small.next_age();
        small.store(b, 1, 5, Bound::Exact, 0);
        assert_eq!(small.probe(b).map(|h| h.value), Some(5), "an old deep entry gives way");
        assert_eq!(table.probe(b), None);
    }
}

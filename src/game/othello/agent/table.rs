//! The strong agent's transposition table: one entry per slot, always replaced, keyed by a hash of the two
//! bitboards and the side to move.

use crate::game::othello::Bits;
use crate::game::Player;

/// What a stored value says about the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The value is exact.
    Exact,
    /// The true value is at least this (a beta cut).
    Lower,
    /// The true value is at most this (no move beat alpha).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    /// The full hash ([`key`]), to tell slot sharers apart.
    pub key: u64,
    /// The value for the side to move.
    pub value: i32,
    /// The depth searched below the position.
    pub depth: u8,
    /// The best move found (bit index).
    pub best: u8,
    /// What `value` says about the true value.
    pub bound: Bound,
}

/// A fixed-size table of 2^`bits` entries.
pub(crate) struct Table {
    slots: Vec<Option<Entry>>,
    mask: u64,
}

/// A 64-bit finaliser (SplitMix64's).
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The hash of `board` with `player` to move.
pub(crate) fn key(board: &Bits, player: Player) -> u64 {
    let (dark, light) = board.sides(Player::Max);
    let side = if player == Player::Max { 0x9e37_79b9_7f4a_7c15 } else { 0x632b_e59b_d9b4_e019 };
    mix(dark ^ mix(light ^ side).rotate_left(17))
}

impl Table {
    /// An empty table of 2^`bits` slots.
    pub fn new(bits: u32) -> Table {
        Table { slots: vec![None; 1 << bits], mask: (1u64 << bits) - 1 }
    }

    /// The entry stored under `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.slots.get((key & self.mask) as usize).copied().flatten().filter(|e| e.key == key)
    }

    /// Stores `entry` (replacing whatever shared its slot).
    #[inline]
    pub fn store(&mut self, entry: Entry) {
        if let Some(slot) = self.slots.get_mut((entry.key & self.mask) as usize) {
            *slot = Some(entry);
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::game::othello::{Othello, Rules};

    #[test]
    fn entries_come_back_only_under_their_own_key() {
        let game: Othello<Bits> = Othello::new(8, Rules::Standard).unwrap();
        let start = game.start();
        let (max, min) = (key(start.board(), Player::Max), key(start.board(), Player::Min));
        assert_ne!(max, min, "the side to move is part of the key");
        let mut table = Table::new(4);
        table.store(Entry { key: max, value: 7, depth: 3, best: 19, bound: Bound::Exact });
        assert_eq!(table.probe(max).map(|e| (e.value, e.best)), Some((7, 19)));
        assert!(table.probe(min).is_none());
        table.clear();
        assert!(table.probe(max).is_none());
    }
}

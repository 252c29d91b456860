//! The engine's board: the 12 bins packed one byte each into a `u128`, always seen by the side to move.
//!
//! Byte `i` is pit `i` of the mover's frame (0-5 its bins, 7-12 the opponent's, as [`Mancala::relative`] numbers
//! them); the two mancalas (bytes 6 and 13) are always 0, because what a position is worth from here on does not
//! depend on what the mancalas already hold. A move therefore returns its *gain*, the stones it moved into the
//! mover's mancala minus any swept into the opponent's, and the search adds gains up. Two positions that differ only
//! in their mancalas are then one position: the packed bins are the whole transposition key, exactly, with no side
//! to move (the board is already in the mover's frame).
//!
//! Sowing is arithmetic on the whole word (SWAR): whole laps add 1 to each of the 13 pits the sower uses, the rest
//! adds a precomputed run of ones. A byte never overflows while the game holds at most 255 stones
//! ([`Board::MAX_STONES`]), which is also why sums of bytes by multiplication are exact.

use crate::game::mancala::{Mancala, MancalaState};

/// One byte set to 1 in each of the 13 pits a sower drops into (all but the opponent's mancala, byte 13).
const LAP: u128 = {
    let mut lap = 0u128;
    let mut i = 0;
    while i < 13 {
        lap |= 1 << (8 * i);
        i += 1;
    }
    lap
};

/// The mover's six bins.
const OWN_ROW: u128 = 0xFFFF_FFFF_FFFF;
/// The opponent's six bins.
const OTHER_ROW: u128 = OWN_ROW << 56;
/// All 14 pits.
const PITS: u128 = (1 << 112) - 1;

/// `RUN[bin][r]`: ones in the `r` pits after `bin` in sowing order (skipping byte 13).
const RUN: [[u128; 13]; 6] = {
    let mut run = [[0u128; 13]; 6];
    let mut bin = 0;
    while bin < 6 {
        let mut r = 1;
        while r < 13 {
            run[bin][r] = run[bin][r - 1] | 1 << (8 * ((bin + r) % 13));
            r += 1;
        }
        bin += 1;
    }
    run
};

/// The six bins of the low 48 bits summed (exact while the total is at most 255).
#[inline]
fn row_sum(row: u128) -> i32 {
    let low = (row as u64) & 0xFFFF_FFFF_FFFF;
    (low.wrapping_mul(0x0101_0101_0101_0101) >> 56) as i32
}

/// A position in the mover's frame, mancalas zeroed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board(pub u128);

/// What a move leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// The last stone reached the mover's mancala: the same side moves again on this board (same frame).
    Again(Board),
    /// The turn passes: the board is in the opponent's frame.
    Pass(Board),
    /// A row emptied and both were swept: the game is over.
    Over,
}

impl Board {
    /// The most stones the packed board holds: one byte per pit, and the row sums must stay below 256 too.
    pub const MAX_STONES: u32 = 255;

    /// The board of `state` in its mover's frame, with the mover's lead (own mancala minus the opponent's); `None`
    /// when the game holds more than [`Board::MAX_STONES`] stones.
    pub fn from_state(state: &MancalaState) -> Option<(Board, i32)> {
        let rel = Mancala::relative(state);
        if rel.iter().map(|&x| u32::from(x)).sum::<u32>() > Self::MAX_STONES {
            return None;
        }
        let mut packed = 0u128;
        for (i, &count) in rel.iter().enumerate() {
            if i != 6 && i != 13 {
                packed |= u128::from(count) << (8 * i);
            }
        }
        Some((Board(packed), i32::from(rel[6]) - i32::from(rel[13])))
    }

    /// Stones in pit `i` (mover's frame).
    #[inline]
    pub fn pit(self, i: usize) -> u32 {
        ((self.0 >> (8 * i)) & 0xFF) as u32
    }

    /// Stones in the mover's six bins.
    #[inline]
    pub fn own_stones(self) -> i32 {
        row_sum(self.0)
    }

    /// Stones in the opponent's six bins.
    #[inline]
    pub fn other_stones(self) -> i32 {
        row_sum(self.0 >> 56)
    }

    /// The same pits seen by the other side (the two rows swapped).
    #[inline]
    pub fn flipped(self) -> Board {
        Board(((self.0 >> 56) | (self.0 << 56)) & PITS)
    }

    /// Whether either row is empty (the game is over; only a root can be such a board).
    #[inline]
    pub fn is_over(self) -> bool {
        self.0 & OWN_ROW == 0 || self.0 & OTHER_ROW == 0
    }

    /// The mover's non-empty bins as a bit mask (bit `i` for bin `i`).
    #[inline]
    pub fn moves(self) -> u8 {
        let mut mask = 0u8;
        for i in 0..6 {
            if self.pit(i) > 0 {
                mask |= 1 << i;
            }
        }
        mask
    }

    /// Whether sowing `bin` ends in the mover's mancala (an extra turn unless the game ends).
    #[inline]
    pub fn is_extra_turn(self, bin: usize) -> bool {
        (bin + self.pit(bin) as usize) % 13 == 6
    }

    /// Plays `bin` (a non-empty bin of the mover's, 0-5): the mover's gain and what follows, as the course's rules
    /// define it ([`Mancala`]).
    #[inline]
    pub fn play(self, bin: usize) -> (i32, Next) {
        let n = self.pit(bin) as usize;
        debug_assert!(bin < 6 && n > 0, "illegal move {bin}");
        let mut x = self.0 - ((n as u128) << (8 * bin));
        x += (n / 13) as u128 * LAP + RUN[bin][n % 13];
        let last = (bin + n) % 13;
        let mut gain = ((x >> 48) & 0xFF) as i32;
        x &= !(0xFF << 48);
        if last < 6 && (x >> (8 * last)) & 0xFF == 1 {
            let opposite = 12 - last;
            gain += 1 + ((x >> (8 * opposite)) & 0xFF) as i32;
            x &= !(0xFF << (8 * last) | 0xFF << (8 * opposite));
        }
        if x & OWN_ROW == 0 || x & OTHER_ROW == 0 {
            return (gain + row_sum(x) - row_sum(x >> 56), Next::Over);
        }
        if last == 6 {
            (gain, Next::Again(Board(x)))
        } else {
            (gain, Next::Pass(Board(x).flipped()))
        }
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::game::Game;
    use crate::rng::Rng;

    /// Plays random games with both the course's rules and the packed board and compares every step.
    #[test]
    fn the_packed_board_follows_the_rules_exactly() {
        let mut rng = Rng::new(7);
        for game_no in 0..3000 {
            let stones = [1, 2, 3, 4, 5, 6, 8, 13, 21][game_no % 9];
            let game = Mancala::new(stones);
            let mut state = game.start();
            while !state.over {
                let (board, lead) = Board::from_state(&state).unwrap();
                let moves: Vec<u8> = game.legal_moves(&state).collect();
                assert_eq!(board.moves().count_ones() as usize, moves.len());
                let mv = moves[rng.below(moves.len())];
                let next = game.apply(&state, mv);
                let (gain, what) = board.play(usize::from(mv));
                let mover = state.to_move;
                let lead_after =
                    i32::from(Mancala::store(&next, mover)) - i32::from(Mancala::store(&next, mover.opponent()));
                assert_eq!(lead + gain, lead_after, "gain of {mv} in {state:?}");
                match what {
                    Next::Over => assert!(next.over),
                    Next::Again(b) => {
                        assert_eq!(next.to_move, mover);
                        assert_eq!(Board::from_state(&next).unwrap().0, b);
                    }
                    Next::Pass(b) => {
                        assert_eq!(next.to_move, mover.opponent());
                        assert!(!next.over);
                        assert_eq!(Board::from_state(&next).unwrap().0, b);
                    }
                }
                state = next;
            }
        }
    }
}

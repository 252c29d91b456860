//! Mancala (Kalah) exactly as the course's Java framework plays it.
//!
//! Pits are absolute: 0-5 are player 1's bins (Max, who moves first), 6 its mancala, 7-12 player 2's bins, 13 its
//! mancala. A move is a bin index 0-5 *relative to the mover* (the framework shows every agent the board from its
//! own side, rotating by 7 when the turn passes), in increasing order.
//!
//! A move (`GameState.applyMove` in the framework):
//! 1. takes every stone of the bin and drops one in each following pit, skipping the opponent's mancala; 13 or more
//!    stones lap around and drop into the emptied starting bin too;
//! 2. last stone in the mover's own mancala and the game not over: the mover moves again (no capture, no sweep);
//! 3. "empty capture": last stone in a bin of the mover's own row that now holds exactly 1 stone: that stone and
//!    everything in the opposite bin go to the mover's mancala, even when the opposite bin is empty;
//! 4. the game is over as soon as either row is empty, whoever is to move; each side's remaining stones then go to
//!    that side's own mancala.
//!
//! [`agent`] holds the built-in agents (random, simple, strong) and [`engine`] the strong agent's own search.

pub mod agent;
pub mod engine;

use crate::game::{Game, Player};

/// Mancala with `stones` stones per bin at the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mancala {
    stones: u16,
}

/// A position: the 14 pits (absolute), whose turn it is, and whether the game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MancalaState {
    /// Pit counts: 0-5 player 1's bins, 6 its mancala, 7-12 player 2's bins, 13 its mancala.
    pub pits: [u16; 14],
    /// The side to move (player 1 is Max).
    pub to_move: Player,
    /// Whether a row has emptied (the remaining stones have then been swept).
    pub over: bool,
}

/// The legal moves of a state: the mover's non-empty bins 0-5, in increasing order.
#[derive(Clone, Copy, Debug)]
pub struct Bins {
    mask: u8,
}

impl Iterator for Bins {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        if self.mask == 0 {
            return None;
        }
        let bin = self.mask.trailing_zeros() as u8;
        self.mask &= self.mask - 1;
        Some(bin)
    }
}

/// The first pit of `player`'s row (0 for player 1, 7 for player 2).
fn base(player: Player) -> usize {
    match player {
        Player::Max => 0,
        Player::Min => 7,
    }
}

impl Mancala {
    /// The course's default: 4 stones per bin.
    pub const DEFAULT_STONES: u16 = 4;

    /// A game starting with `stones` stones in each bin (the framework treats fewer than 1 as 4; so do we).
    pub fn new(stones: u16) -> Mancala {
        Mancala { stones: if stones < 1 { Self::DEFAULT_STONES } else { stones.min(1000) } }
    }

    /// Stones per bin at the start.
    pub fn stones(&self) -> u16 {
        self.stones
    }

    /// The starting position, player 1 to move.
    pub fn start(&self) -> MancalaState {
        let mut pits = [self.stones; 14];
        pits[6] = 0;
        pits[13] = 0;
        MancalaState { pits, to_move: Player::Max, over: false }
    }

    /// The pits as the mover sees them (the framework's `state` array): its own row first.
    pub fn relative(state: &MancalaState) -> [u16; 14] {
        let b = base(state.to_move);
        std::array::from_fn(|i| state.pits[(i + b) % 14])
    }

    /// Stones in `player`'s mancala.
    pub fn store(state: &MancalaState, player: Player) -> u16 {
        state.pits[base(player) + 6]
    }
}

impl Game for Mancala {
    type State = MancalaState;
    type Move = u8;
    type Moves = Bins;

    fn to_move(&self, state: &MancalaState) -> Player {
        state.to_move
    }

    fn legal_moves(&self, state: &MancalaState) -> Bins {
        if state.over {
            return Bins { mask: 0 };
        }
        let b = base(state.to_move);
        let mask = (0..6).filter(|&i| state.pits[b + i] > 0).fold(0u8, |m, i| m | 1 << i);
        Bins { mask }
    }

    fn apply(&self, state: &MancalaState, bin: u8) -> MancalaState {
        // Work in the mover's frame, exactly as the framework does, then rotate back.
        let mut s = Mancala::relative(state);
        let bin = usize::from(bin);
        debug_assert!(bin < 6 && s[bin] > 0, "illegal move {bin}");
        let mut hand = s[bin];
        s[bin] = 0;
        let mut at = bin;
        while hand > 0 {
            at = (at + 1) % 14;
            if at == 13 {
                continue; // the opponent's mancala is skipped
            }
            s[at] += 1;
            hand -= 1;
        }
        let row_empty = |s: &[u16; 14], from: usize| s[from..from + 6].iter().all(|&x| x == 0);
        let over_now = |s: &[u16; 14]| row_empty(s, 0) || row_empty(s, 7);
        let mut again = false;
        if at == 6 && !over_now(&s) {
            again = true;
        } else {
            if at < 6 && s[at] == 1 {
                let opposite = 12 - at;
                s[6] += s[at] + s[opposite];
                s[at] = 0;
                s[opposite] = 0;
            }
            if over_now(&s) {
                for side in [0, 7] {
                    let rest: u16 = s[side..side + 6].iter().sum();
                    s[side + 6] += rest;
                    s[side..side + 6].iter_mut().for_each(|x| *x = 0);
                }
            }
        }
        let b = base(state.to_move);
        let mut pits = [0u16; 14];
        for (i, &count) in s.iter().enumerate() {
            pits[(i + b) % 14] = count;
        }
        let over = row_empty(&pits, 0) || row_empty(&pits, 7);
        let to_move = if again { state.to_move } else { state.to_move.opponent() };
        MancalaState { pits, to_move, over }
    }

    fn is_terminal(&self, state: &MancalaState) -> bool {
        state.over
    }

    fn winner(&self, state: &MancalaState) -> Option<Player> {
        let (a, b) = (Mancala::store(state, Player::Max), Mancala::store(state, Player::Min));
        match a.cmp(&b) {
            _ if !state.over => None,
            std::cmp::Ordering::Greater => Some(Player::Max),
            std::cmp::Ordering::Less => Some(Player::Min),
            std::cmp::Ordering::Equal => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(pits: [u16; 14], to_move: Player) -> MancalaState {
        MancalaState { pits, to_move, over: false }
    }

    #[test]
    fn the_specs_first_move_example_earns_another_turn() {
        let game = Mancala::new(4);
        let after = game.apply(&game.start(), 2);
        assert_eq!(after.pits, [4, 4, 0, 5, 5, 5, 1, 4, 4, 4, 4, 4, 4, 0]);
        assert_eq!(after.to_move, Player::Max);
    }

    #[test]
    fn sowing_skips_the_opponents_mancala_and_laps_into_the_start_bin() {
        let game = Mancala::new(4);
        // 13 stones from bin 0: one in each of 1-12 (skipping 13), then the 13th lands back in bin 0, which now
        // holds exactly 1: a capture of it and the opposite bin 12.
        let s = state([13, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0], Player::Max);
        let after = game.apply(&s, 0);
        assert_eq!(after.pits[13], 0, "the opponent's mancala is skipped");
        assert_eq!(after.pits[0], 0);
        assert_eq!(after.pits[12], 0);
        assert_eq!(after.pits[6], 1 + 1 + 2);
        assert_eq!(after.pits.iter().sum::<u16>(), 13 + 6);
        assert_eq!(after.to_move, Player::Min);
    }

    #[test]
    fn an_empty_capture_takes_the_stone_even_when_the_opposite_bin_is_empty() {
        let game = Mancala::new(4);
        // Bin 1 (2 stones) ends in bin 3, empty; the opposite bin 9 is empty too.
        let s = state([0, 2, 0, 0, 1, 1, 0, 3, 3, 0, 3, 3, 3, 0], Player::Max);
        let after = game.apply(&s, 1);
        assert_eq!(after.pits[3], 0);
        assert_eq!(after.pits[6], 1);
        assert_eq!(after.to_move, Player::Min);
    }

    #[test]
    fn player_two_moves_in_its_own_frame() {
        let game = Mancala::new(4);
        let s = game.apply(&game.start(), 0); // player 1 sows bin 0: 1-4 get one each, turn passes
        assert_eq!(s.to_move, Player::Min);
        let after = game.apply(&s, 2); // player 2's bin 2 is absolute pit 9: 10, 11, 12, 13
        assert_eq!(after.pits[9], 0);
        assert_eq!(after.pits[13], 1);
        assert_eq!(after.to_move, Player::Min, "its last stone reached its own mancala");
    }

    #[test]
    fn the_game_ends_when_a_row_empties_and_each_side_sweeps_its_own() {
        let game = Mancala::new(4);
        // Player 1's last stone goes to its mancala, emptying its row: no extra turn, player 2 sweeps its 6.
        let s = state([0, 0, 0, 0, 0, 1, 20, 1, 1, 1, 1, 1, 1, 20], Player::Max);
        let after = game.apply(&s, 5);
        assert!(after.over);
        assert_eq!(Mancala::store(&after, Player::Max), 21);
        assert_eq!(Mancala::store(&after, Player::Min), 26);
        assert_eq!(game.winner(&after), Some(Player::Min));
        assert_eq!(game.legal_moves(&after).count(), 0);
    }

    #[test]
    fn fewer_than_one_stone_means_four() {
        assert_eq!(Mancala::new(0).stones(), 4);
        assert_eq!(Mancala::new(3).start().pits.iter().sum::<u16>(), 36);
    }
}

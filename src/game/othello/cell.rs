//! The course's cell values (0 empty, 1 dark, 2 light) and which side owns which: the vocabulary both board
//! representations share.

use crate::game::Player;

/// Cell value of an empty square (the course's `0`).
pub const EMPTY: u8 = 0;
/// Cell value of a dark disc (the course's `1`, Max, moves first).
pub const DARK: u8 = 1;
/// Cell value of a light disc (the course's `2`, Min).
pub const LIGHT: u8 = 2;

/// The course's cell value of `player`'s discs: dark (1) for Max, light (2) for Min.
pub fn cell_of(player: Player) -> u8 {
    match player {
        Player::Max => DARK,
        Player::Min => LIGHT,
    }
}

//! Refereed Mancala: the game under the referee's loop and its text form.

pub mod board;
pub mod play;

pub use play::{legal_bin, position_words};

//! Refereed Mancala: games between agent processes and their text form.

pub mod board;
pub mod play;

pub use play::{legal_bin, play, play_prepared, position_words};

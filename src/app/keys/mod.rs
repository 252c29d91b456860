//! The answer-key commands: read a written problem's input, print its key.

pub mod hillclimb;
pub mod tree;

//! The answer-key commands: read a written problem's input, solve it, print its key.

pub mod csp;
pub mod hillclimb;
pub mod mdp;
pub mod tree;

//! The answer-key commands: read the input, solve, print the key.

pub mod csp;
pub mod mdp;

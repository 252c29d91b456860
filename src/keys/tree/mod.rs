//! `referee tree`: the answer key of a game-tree problem.
//!
//! - [`notation`]: the input notation (nested lists, labels, MAX/MIN/CHANCE, probabilities).
//! - [`solve`]: every node's minimax or expectimax value.
//! - [`order`]: the order children are searched in.
//! - [`trace`]: the alpha-beta step table (AIMA Figure 5.7, run by [`crate::search::alpha_beta`]).
//! - [`report`]: the tables; [`dot`] and [`svg`]: the pictures ([`picture`] holds what they share).
//!
//! The tree itself is a game: [`crate::game::tree`].

pub mod dot;
pub mod notation;
pub mod order;
pub mod picture;
pub mod report;
pub mod solve;
pub mod svg;
pub mod trace;

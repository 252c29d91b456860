//! Markov decision processes for written keys (`referee mdp`), in exact rational arithmetic.
//!
//! - [`parse`]: the TOML input format (documented there).
//! - [`model`]: states, actions, outcomes, policies.
//! - [`linear`]: exact Gauss-Jordan elimination.
//! - [`bellman`]: Q-values, backups, greedy policies (ties: first action in file order).
//! - [`evaluate`]: policy evaluation as a linear system, with terminal states and discount 1.
//! - [`value_iteration`], [`policy_iteration`]: the two algorithms, step by step.
//! - [`report`]: the key as tables.

pub mod bellman;
pub mod evaluate;
pub mod linear;
pub mod model;
pub mod parse;
pub mod policy_iteration;
pub mod report;
pub mod value_iteration;

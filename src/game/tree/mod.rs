//! Explicit game trees from written problems (the MAX/MIN/CHANCE trees of a homework's figure) as a [`Game`]:
//! a state is a node id, the legal moves of a node are its children, so the shared search in
//! [`crate::search`] runs on them like on any board game.
//!
//! - [`model`]: the nodes, their kinds, labels and leaf values.
//! - [`play`]: the [`Game`] view of a tree, with the order children are tried in.
//! - [`exact`]: [`Exact`], the exact-rational search value with infinite bounds.
//!
//! [`Game`]: crate::game::Game

pub mod exact;
pub mod model;
pub mod play;

pub use exact::Exact;
pub use model::{Kind, Node, Tree};
pub use play::{LeafValue, TreeGame};

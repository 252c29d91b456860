//! `referee hillclimb`: steepest-descent hill-climbing on a tour, the "swap two locations" neighbourhood.
//!
//! - [`matrix`]: the labelled distance matrix, from CSV or TOML, checked (square, symmetric, zero diagonal).
//! - [`tour`]: a tour given on the command line, and its length (open, or closed back to the start).
//! - [`climb`]: the climb itself, every neighbour of every step.
//! - [`report`]: the tables.

pub mod climb;
pub mod matrix;
pub mod report;
pub mod tour;

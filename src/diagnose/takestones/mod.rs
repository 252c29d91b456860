//! Take-Stones diagnosis: the catalog of known departures ([`Variant`]), a solver that reproduces each
//! ([`MutantSolver`]), seeded random positions ([`generate`]), shrinking ([`shrink`]), and naming the bug
//! ([`diagnose`]).

pub mod check;
pub mod diagnosis;
pub mod generate;
mod hypothesis;
pub mod locate;
mod mutant;
pub mod outcome;
pub mod proof;
pub mod shrink;
pub mod suite_gen;
mod variant;

pub use diagnosis::{diagnose, Diagnosis, Observation};
pub use mutant::{MutantSolver, Probe};
pub use variant::{Kind, Variant};

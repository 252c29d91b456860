//! Grading: a prepared suite, one submission or a whole class, into the result model.
//!
//! [`PreparedSuite`] computes every case's accepted outputs once; [`grade_submission`] lays a submission out in a
//! scratch folder, builds it, runs each case through the runner and judges it; [`class`] does that for a folder
//! of hand-ins in parallel, storing each result as it finishes.

pub mod class;
pub mod classwide;
pub mod handin;
pub mod ids;
mod parallel;
mod prepared;
pub mod python_syntax;
pub mod resume;
pub mod roster;
pub mod scratch;
mod siblings;
pub mod solution;
pub mod store;
mod submission;
pub mod workspace;

pub use parallel::for_each_parallel;
pub use prepared::PreparedSuite;
pub use submission::{build_step, fingerprint, grade_submission, signal_name, tail, Cancelled, CaseCopy, GradeConfig};

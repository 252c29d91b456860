//! Constraint problems for written keys (`referee csp`): the domains left by forward checking from a partial
//! assignment, the variable and value heuristics, and a backtracking search that records every step.
//!
//! - [`parse`]: the line-based input format (documented there).
//! - [`lex`], [`expr`]: tokens and the constraint language.
//! - [`problem`]: variables, constraints, the partial assignment.
//! - [`forward`]: forward checking.
//! - [`heuristics`]: most constrained, most constraining, least constraining value.
//! - [`search`]: backtracking with forward checking.
//! - [`report`]: the key as tables.

pub mod expr;
pub mod forward;
pub mod heuristics;
pub mod lex;
pub mod parse;
pub mod problem;
pub mod report;
pub mod search;

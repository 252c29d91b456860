//! The Othello commands. So far: the built-in agents as processes speaking the course's protocol, and `check othello`
//! (conformance of a student's search functions).

pub mod agent;
pub mod check;

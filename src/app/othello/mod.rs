//! The Othello commands. So far: the built-in agents as processes speaking the course's protocol.

pub mod agent;

//! The Mancala commands: `match`, `grade mancala`, `tournament`, and the built-in agents' `agent` process.

pub mod agent;
pub mod grade;
pub mod matches;

use crate::app::arena::Contested;
use crate::game::mancala::Mancala;
use crate::referee::spec::AgentSpec;

/// The built-in Mancala agents' names, for `builtin:NAME`.
pub const BUILTINS: [&str; 3] = ["random", "simple", "strong"];

/// Mancala with `stones` per bin as the arena plays it: students hand in Java players.
pub fn contest(stones: u16) -> Contested<Mancala> {
    Contested { game: Mancala::new(stones), student: AgentSpec::Java }
}

/// Parses an agent name for Mancala.
///
/// # Errors
/// See [`AgentSpec::parse`].
pub fn parse_agent(text: &str) -> Result<AgentSpec, String> {
    AgentSpec::parse(text, &BUILTINS, AgentSpec::Java)
}

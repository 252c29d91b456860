//! Refereeing agents: every agent is a process speaking the line protocol of `docs/agent-protocol.md`, given its
//! turns under a clock, frozen between them, and killed when it overstays. The referee never trusts an agent to
//! stop, to answer, or to answer sensibly: every failure is adjudicated as a loss with the reason in the record.
//!
//! - [`process`]: one agent process (group, sandbox, limits, lines in, stderr tail).
//! - [`protocol`]: the lines.
//! - [`agent`]: time control and adjudication of one turn, restarts; the Othello course's protocol as a dialect.
//! - [`game_loop`]: one game between two agents, for any [`game_loop::Refereed`] game.
//! - [`spec`]: `builtin:NAME`, `cmd:COMMAND`, a student's Java player ([`java_host`]) or Python agent
//!   ([`python_host`]); [`prepare_error`]: why one cannot play.
//! - [`record`]: game records; [`rating`]: Bradley-Terry ratings; [`slots`]: one game per CPU.
//! - [`mancala`]: Mancala games.
//! - [`othello`]: Othello games in the course's protocol, and conformance of students' search functions.

pub mod agent;
pub mod game_loop;
pub mod java_host;
pub mod mancala;
pub mod othello;
pub mod prepare_error;
pub mod process;
pub mod protocol;
pub mod python_host;
pub mod rating;
pub mod record;
pub mod slots;
pub mod spec;

//! Refereeing agents: every agent is a process speaking the line protocol of `docs/agent-protocol.md`, given its
//! turns under a clock, frozen between them, and killed when it overstays. The referee never trusts an agent to
//! stop, to answer, or to answer sensibly: every failure is adjudicated as a loss with the reason in the record.
//!
//! - [`process`]: one agent process (group, sandbox, limits, lines in, stderr tail).
//! - [`protocol`]: the lines.
//! - [`agent`]: time control and adjudication of one turn, restarts.
//! - [`spec`]: `builtin:NAME`, `cmd:COMMAND`, a student's Java player ([`java_host`]).
//! - [`record`]: game records.
//! - [`mancala`]: Mancala games.
//! - [`othello`]: Othello, students' Python agents (conformance of their search functions).

pub mod agent;
pub mod java_host;
pub mod mancala;
pub mod othello;
pub mod process;
pub mod protocol;
pub mod rating;
pub mod record;
pub mod slots;
pub mod spec;

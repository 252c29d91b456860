//! Integration tests: one binary, a module per subsystem.
#![allow(clippy::unwrap_used, reason = "tests fail loudly on purpose")]

mod cli;
mod java_format;
mod official;
mod oracle;
mod properties;
mod snapshots;
mod util;

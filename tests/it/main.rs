//! Integration tests: one binary, a module per subsystem.

mod cli;
mod java_format;
mod official;
mod oracle;
mod properties;
mod snapshots;
mod util;

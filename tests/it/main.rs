//! Integration tests: one binary, a module per subsystem.
#![allow(clippy::unwrap_used, reason = "tests fail loudly on purpose")]

mod check;
mod clap_errors;
mod cli;
mod containment;
mod diagnose;
mod gen;
mod grade;
mod grade_messages;
mod gradescope;
mod html_report;
mod java_format;
mod keys_csp;
mod keys_hillclimb;
mod keys_mdp;
mod keys_tree;
mod locate;
mod mancala;
mod mancala_agents;
mod official;
mod oracle;
mod othello;
mod othello_agents;
mod othello_causes;
mod othello_check;
mod othello_referee;
mod othello_shared;
mod properties;
mod referee;
mod referee_grade;
mod render;
mod sandbox;
mod shard;
mod snapshots;
mod util;
mod variants;

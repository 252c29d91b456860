//! Arguments of the answer-key commands for constraint problems and MDPs (`referee csp`, `referee mdp`).

use clap::Args;

use crate::keys::table::Format;

/// `referee csp`.
#[derive(Debug, Clone, Args)]
#[command(after_help = "Input (one statement per line, # comments):\n  A B C in {0, 1, 2}\n  E in 0..2\n  \
E > C\n  |C - G| == 1\n  assign G = 0")]
pub struct CspArgs {
    /// The problem file, or - for stdin.
    #[arg(value_name = "FILE")]
    pub file: std::path::PathBuf,
    /// Start from this assignment instead of the file's `assign` lines: A=1,B=2 ('' for none).
    #[arg(long)]
    pub assign: Option<String>,
    /// Also print every step of a backtracking search with forward checking.
    #[arg(long)]
    pub solve: bool,
    /// The most search steps to run (the answers are 'unknown' past it).
    #[arg(long, default_value_t = 10_000)]
    pub max_steps: usize,
    /// Terminal text or markdown.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// `referee mdp`.
#[derive(Debug, Clone, Args)]
#[command(after_help = "Input: TOML with discount, [states.NAME] tables (each key an action: a list of \
{ to, p, reward }; no keys = terminal) and an optional [policy]. See README.")]
pub struct MdpArgs {
    /// The MDP file (TOML), or - for stdin.
    #[arg(value_name = "FILE")]
    pub file: std::path::PathBuf,
    /// Value-iteration backups: the table shows V0 to VK.
    #[arg(long, value_name = "K", default_value_t = 3)]
    pub iterations: usize,
    /// The most policy-iteration steps (default: until the policy is stable, at most 100; 0 skips it).
    #[arg(long, value_name = "N")]
    pub policy_iteration_steps: Option<usize>,
    /// Terminal text or markdown.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

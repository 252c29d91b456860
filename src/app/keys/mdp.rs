//! `referee mdp FILE.toml`: policy evaluation, value iteration, policy iteration and the optimal policy.

use std::io::Write;

use crate::cli::keys_solvers::MdpArgs;
use crate::keys::mdp::{parse::parse, report};

/// Policy-iteration steps when --policy-iteration-steps is not given.
pub const DEFAULT_ROUNDS: usize = 100;

/// The most value-iteration backups a key may ask for.
pub const MAX_ITERATIONS: usize = 1000;

/// Runs the command; returns the exit code.
pub fn run(args: &MdpArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    const PROGRAM: &str = "referee mdp";
    if args.iterations > MAX_ITERATIONS {
        return super::fail(PROGRAM, err, &format!("--iterations: at most {MAX_ITERATIONS}, not {}", args.iterations));
    }
    super::run(PROGRAM, &args.file, out, err, |name, text| {
        let mdp = parse(text).map_err(|e| format!("{name}: {e}"))?;
        let options = report::Options {
            iterations: args.iterations,
            policy_rounds: args.policy_iteration_steps.unwrap_or(DEFAULT_ROUNDS),
            format: args.format,
        };
        Ok(report::render(&mdp, options))
    })
}

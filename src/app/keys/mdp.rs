//! `referee mdp FILE.toml`: policy evaluation, value iteration, policy iteration and the optimal policy.

use std::io::Write;

use crate::cli::exit;
use crate::cli::keys_solvers::MdpArgs;
use crate::keys::mdp::{parse::parse, report};
use crate::keys::source::read;

/// Policy-iteration steps when --policy-iteration-steps is not given.
pub const DEFAULT_ROUNDS: usize = 100;

/// The most value-iteration backups a key may ask for.
pub const MAX_ITERATIONS: usize = 1000;

/// Runs the command; returns the exit code.
pub fn run(args: &MdpArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    if args.iterations > MAX_ITERATIONS {
        return fail(err, &format!("--iterations: at most {MAX_ITERATIONS}, not {}", args.iterations));
    }
    let (name, text) = match read(&args.file) {
        Ok(read) => read,
        Err(e) => return fail(err, &e),
    };
    let mdp = match parse(&text) {
        Ok(m) => m,
        Err(e) => return fail(err, &format!("{name}: {e}")),
    };
    let options = report::Options {
        iterations: args.iterations,
        policy_rounds: args.policy_iteration_steps.unwrap_or(DEFAULT_ROUNDS),
        format: args.format,
    };
    let text = report::render(&mdp, options);
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => exit::SUCCESS,
        Err(e) => {
            let _ = writeln!(err, "referee mdp: cannot write the key: {e}");
            exit::INTERNAL
        }
    }
}

fn fail(err: &mut dyn Write, message: &str) -> u8 {
    let _ = writeln!(err, "referee mdp: {message}");
    exit::USAGE
}

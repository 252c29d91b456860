//! `referee csp FILE`: forward checking, heuristics and (with --solve) the search, for a written key.

use std::io::Write;

use crate::cli::keys_solvers::CspArgs;
use crate::keys::csp::{parse::parse, report};

/// Runs the command; returns the exit code.
pub fn run(args: &CspArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    super::run("referee csp", &args.file, out, err, |name, text| {
        let mut problem = parse(text).map_err(|e| format!("{name}: {e}"))?;
        if let Some(assign) = &args.assign {
            problem.set_assignment(assign).map_err(|e| format!("--assign: {e}"))?;
        }
        let analysis = report::analyse(&problem, args.max_steps);
        Ok(report::render(&problem, &analysis, args.solve, args.format))
    })
}

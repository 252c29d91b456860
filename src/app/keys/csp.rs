//! `referee csp FILE`: forward checking, heuristics and (with --solve) the search, for a written key.

use std::io::Write;

use crate::cli::exit;
use crate::cli::keys_solvers::CspArgs;
use crate::keys::csp::{parse::parse, report};
use crate::keys::source::read;

/// Runs the command; returns the exit code.
pub fn run(args: &CspArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let (name, text) = match read(&args.file) {
        Ok(read) => read,
        Err(e) => return fail(err, &e),
    };
    let mut problem = match parse(&text) {
        Ok(p) => p,
        Err(e) => return fail(err, &format!("{name}: {e}")),
    };
    if let Some(assign) = &args.assign {
        if let Err(e) = problem.set_assignment(assign) {
            return fail(err, &format!("--assign: {e}"));
        }
    }
    let analysis = report::analyse(&problem, args.max_steps);
    let text = report::render(&problem, &analysis, args.solve, args.format);
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => exit::SUCCESS,
        Err(e) => {
            let _ = writeln!(err, "referee csp: cannot write the key: {e}");
            exit::INTERNAL
        }
    }
}

fn fail(err: &mut dyn Write, message: &str) -> u8 {
    let _ = writeln!(err, "referee csp: {message}");
    exit::USAGE
}

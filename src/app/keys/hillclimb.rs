//! `referee hillclimb MATRIX --tour ...`: a hill-climbing answer key.

use std::io::Write;

use crate::cli::HillclimbArgs;
use crate::keys::hillclimb::matrix::{self, Notation};
use crate::keys::hillclimb::{climb, report, tour};

const PROGRAM: &str = "referee hillclimb";

/// Builds the key: `name` is the file name for messages (`None` for stdin), `text` the matrix.
///
/// # Errors
/// One line: `NAME: line L, column C: message` for a malformed matrix, or what is wrong with `--tour`.
pub fn key(name: &str, file: Option<&str>, text: &str, args: &HillclimbArgs) -> Result<String, String> {
    let m = matrix::parse(text, Notation::guess(file, text)).map_err(|e| format!("{name}: {e}"))?;
    let start = tour::parse(&args.tour, &m)?;
    let climb = climb::climb(&m, &start, args.closed);
    Ok(report::render(&m, &climb, args.closed, args.format))
}

/// Runs the command; returns the exit code.
pub fn run(args: &HillclimbArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let file = (args.matrix.as_os_str() != "-").then(|| args.matrix.display().to_string());
    super::run(PROGRAM, &args.matrix, out, err, |name, text| key(name, file.as_deref(), text, args))
}

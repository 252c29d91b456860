//! `referee hillclimb MATRIX --tour ...`: a hill-climbing answer key.

use std::io::{self, Write};

use crate::cli::{exit, HillclimbArgs};
use crate::keys::hillclimb::matrix::{self, Notation};
use crate::keys::hillclimb::{climb, report, tour};
use crate::keys::source;

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
    let (name, text) = match source::read(&args.matrix) {
        Ok(read) => read,
        Err(e) => {
            let _ = writeln!(err, "{PROGRAM}: {e}");
            return exit::USAGE;
        }
    };
    let file = (args.matrix.as_os_str() != "-").then(|| name.clone());
    let text = match key(&name, file.as_deref(), &text, args) {
        Ok(text) => text,
        Err(e) => {
            let _ = writeln!(err, "{PROGRAM}: {e}");
            return exit::USAGE;
        }
    };
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => exit::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => exit::SUCCESS,
        Err(e) => {
            let _ = writeln!(err, "{PROGRAM}: {e}");
            exit::INTERNAL
        }
    }
}

//! The answer-key commands: read a written problem's input, solve it, print its key.

pub mod csp;
pub mod hillclimb;
pub mod mdp;
pub mod tree;

use std::io::{self, Write};
use std::path::Path;

use crate::cli::exit;
use crate::keys::source;

/// Prints `PROGRAM: message` (one line) and returns the exit code for bad input.
pub fn fail(program: &str, err: &mut dyn Write, message: &str) -> u8 {
    let _ = writeln!(err, "{program}: {message}");
    exit::USAGE
}

/// Writes a finished key to `out` and returns the exit code; a reader that went away (`| head`) is not an error.
pub fn emit(program: &str, text: &str, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => exit::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => exit::SUCCESS,
        Err(e) => {
            let _ = writeln!(err, "{program}: cannot write the key: {e}");
            exit::INTERNAL
        }
    }
}

/// One key command whole: reads `input` (a file, or `-` for stdin), builds the key with `build(name, text)`
/// (`name` is what messages call the input) and prints it. A read or build error is one line and [`exit::USAGE`].
pub fn run(
    program: &str,
    input: &Path,
    out: &mut dyn Write,
    err: &mut dyn Write,
    build: impl FnOnce(&str, &str) -> Result<String, String>,
) -> u8 {
    let key = source::read(input).and_then(|(name, text)| build(&name, &text));
    match key {
        Ok(text) => emit(program, &text, out, err),
        Err(e) => fail(program, err, &e),
    }
}

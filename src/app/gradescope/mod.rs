//! `referee gradescope`: an autograder bundle made from a grade command ([`bundle`]), and the grading step its
//! `run_autograder` runs in the container ([`autograde`]). The two shell scripts written into the zip are
//! `setup.sh` and `run_autograder` beside this file.

pub mod autograde;
pub mod bundle;

use std::io::Write;

use crate::cli::GradescopeCommand;

/// Runs `referee gradescope ...`; returns the exit code.
pub fn run(command: &GradescopeCommand, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    match command {
        GradescopeCommand::Bundle(args) => bundle::run(args, out, err),
        GradescopeCommand::Run(args) => autograde::run(args, out, err),
    }
}

//! `referee exercise`: per-student written problems ([`crate::exercise`]) made into sheets and a key
//! ([`make`]), answer files graded into the class machinery's results and report ([`grade`]), and an answer
//! file's form checked before hand-in ([`check`]); [`bench`] times both on a synthetic class.

pub mod bench;
pub mod check;
pub mod grade;
pub mod make;

use std::io::Write;

use crate::cli::ExerciseCommand;
use crate::exercise::Kind;

/// Runs `referee exercise ...`; returns the exit code.
pub fn run(command: &ExerciseCommand, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    match command {
        ExerciseCommand::Make(args) => make::run(args, out, err),
        ExerciseCommand::Grade(args) => grade::run(args, out, err),
        ExerciseCommand::Check(args) => check::run(args, out, err),
    }
}

/// The kinds asked, each once, in the order given.
pub fn kinds(given: &[Kind]) -> Vec<Kind> {
    let mut out: Vec<Kind> = Vec::new();
    for k in given {
        if !out.contains(k) {
            out.push(*k);
        }
    }
    out
}

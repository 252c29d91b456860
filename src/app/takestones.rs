//! `takestones N K T1 .. TK DEPTH` and `referee takestones ...`.

use std::io::{self, Write};

use super::with_stack;
use crate::cli::{exit, TakeStonesArgs};
use crate::game::takestones::PositionError;
use crate::reference::takestones::{parse_args, solve, Options, Request, SolveError};

/// Builds the solver request from the command line, with the accepted first-move violation if there was one.
///
/// # Errors
/// The one-line description of what is wrong with the arguments.
pub fn request(args: &TakeStonesArgs) -> Result<(Request, Option<PositionError>), String> {
    let parsed = parse_args(&args.numbers, args.strict).map_err(|e| e.to_string())?;
    let options = Options { composite: args.composite, rounding: args.rounding, negative_zero: args.negative_zero };
    Ok((Request { position: parsed.position, depth: parsed.depth, edition: args.edition, options }, parsed.warning))
}

/// Runs the solver: the edition's output on `out`, one line on `err` for anything wrong. Returns the exit code.
pub fn run(program: &str, args: &TakeStonesArgs, out: &mut (dyn Write + Send), err: &mut dyn Write) -> u8 {
    let (request, warning) = match request(args) {
        Ok(parsed) => parsed,
        Err(message) => {
            let _ = writeln!(err, "{program}: {message}");
            return exit::USAGE;
        }
    };
    // The search recurses once per ply: give it room for the longest possible game (or the depth limit).
    let plies = if request.depth == 0 { request.position.n() as usize + 2 } else { request.depth as usize + 2 };
    let stack = (plies * 2048).max(8 << 20);
    let Some(result) = with_stack(stack, || solve(&request, out).and_then(|_| out.flush().map_err(SolveError::Io)))
    else {
        let _ = writeln!(err, "{program}: internal error: the solver stopped unexpectedly");
        return exit::INTERNAL;
    };
    match result {
        Ok(()) => {
            if let Some(w) = warning {
                let _ = writeln!(
                    err,
                    "{program}: warning: {w} (accepted, as the course's own tests do; --strict rejects it)"
                );
            }
            exit::SUCCESS
        }
        Err(e @ SolveError::NoLegalMove { .. }) => {
            let _ = out.flush();
            let _ = writeln!(err, "{program}: {e}");
            exit::GAME_OVER
        }
        // The reader went away (`takestones ... | head`): nothing left to tell anyone.
        Err(SolveError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => exit::SUCCESS,
        Err(e) => {
            let _ = writeln!(err, "{program}: {e}");
            exit::INTERNAL
        }
    }
}

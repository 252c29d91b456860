//! `referee match othello A B` and `referee tournament othello`: the shared arena commands on Othello.

use std::io::Write;

use crate::app::arena;
use crate::cli::{exit, OthelloMatchArgs, OthelloTournamentArgs};

use super::BUILTINS;

/// Runs `referee match othello`; returns the exit code.
pub fn run(args: &OthelloMatchArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    if let Err(code) = crate::app::sandbox::gate(&args.arena.sandbox, "referee match othello", err) {
        return code;
    }
    match super::arena(&args.othello, &args.arena) {
        Ok((contest, arena)) => arena::matches::run(&contest, &BUILTINS, &args.common, &arena, out, err),
        Err(e) => {
            let _ = writeln!(err, "referee match othello: {e}");
            exit::USAGE
        }
    }
}

/// Runs `referee tournament othello`; returns the exit code.
pub fn tournament(args: &OthelloTournamentArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let sharded = crate::app::shard::Shard::parse_option(args.common.shard.as_deref());
    if let Err(e) = sharded.and_then(|s| crate::app::shard::require_seed(s, args.arena.seed)) {
        let _ = writeln!(err, "referee tournament othello: {e}");
        return exit::USAGE;
    }
    if let Err(code) = crate::app::sandbox::gate(&args.arena.sandbox, "referee tournament othello", err) {
        return code;
    }
    match super::arena(&args.othello, &args.arena) {
        Ok((contest, arena)) => arena::tournament::run(&contest, &BUILTINS, &args.common, &arena, out, err),
        Err(e) => {
            let _ = writeln!(err, "referee tournament othello: {e}");
            exit::USAGE
        }
    }
}

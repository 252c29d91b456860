//! `referee match mancala A B` and `referee tournament mancala`: the shared arena commands on Mancala.

use std::io::Write;

use crate::app::arena::{self, Arena};
use crate::cli::{exit, MancalaMatchArgs, MancalaTournamentArgs};

use super::BUILTINS;

/// Runs `referee match mancala`; returns the exit code.
pub fn run(args: &MancalaMatchArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    if let Err(code) = crate::app::sandbox::gate(&args.arena.sandbox, "referee match mancala", err) {
        return code;
    }
    let seed = crate::app::seed_or_now(args.arena.seed);
    match Arena::new(&args.arena, seed, "mancala") {
        Ok(arena) => arena::matches::run(&super::contest(args.stones), &BUILTINS, &args.common, &arena, out, err),
        Err(e) => {
            let _ = writeln!(err, "referee match mancala: {e}");
            exit::USAGE
        }
    }
}

/// Runs `referee tournament mancala`; returns the exit code.
pub fn tournament(args: &MancalaTournamentArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let sharded = crate::app::shard::Shard::parse_option(args.common.shard.as_deref());
    if let Err(e) = sharded.and_then(|s| crate::app::shard::require_seed(s, args.arena.seed)) {
        let _ = writeln!(err, "referee tournament mancala: {e}");
        return exit::USAGE;
    }
    if let Err(code) = crate::app::sandbox::gate(&args.arena.sandbox, "referee tournament mancala", err) {
        return code;
    }
    let seed = crate::app::seed_or_now(args.arena.seed);
    match Arena::new(&args.arena, seed, "mancala") {
        Ok(arena) => arena::tournament::run(&super::contest(args.stones), &BUILTINS, &args.common, &arena, out, err),
        Err(e) => {
            let _ = writeln!(err, "referee tournament mancala: {e}");
            exit::USAGE
        }
    }
}

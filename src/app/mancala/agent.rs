//! `referee agent mancala NAME`: a built-in agent speaking the agent protocol on stdin/stdout, so the referee
//! plays it exactly like any student's program (and students can spar with it through `cmd:`).

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use crate::cli::exit;
use crate::game::mancala::agent::{Brain, Builtin};
use crate::game::mancala::MancalaState;
use crate::game::Player;
use crate::referee::protocol::{self, Command};

/// Time kept back from each move for writing the answer and the pipe (the referee's tolerance covers the rest).
fn margin(millis: u64) -> Duration {
    Duration::from_millis((millis / 20).clamp(5, 100))
}

/// The position a `go` line carries: 14 pit counts from the mover's point of view.
///
/// # Errors
/// What is wrong with the words.
pub fn parse_position(words: &[String]) -> Result<MancalaState, String> {
    if words.len() != 14 {
        return Err(format!("expected 14 pit counts, got {}", words.len()));
    }
    let mut pits = [0u16; 14];
    for (pit, word) in pits.iter_mut().zip(words) {
        *pit = word.parse().map_err(|_| format!("pit count '{word}' is not a number"))?;
    }
    let over = pits[0..6].iter().all(|&p| p == 0) || pits[7..13].iter().all(|&p| p == 0);
    Ok(MancalaState { pits, to_move: Player::Max, over })
}

/// Runs built-in agent `name` on `input`/`out` until `quit` or the end of input; returns the exit code.
pub fn run(name: &str, seed: u64, input: &mut dyn BufRead, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let Some(kind) = Builtin::parse(name) else {
        let known: Vec<&str> = Builtin::ALL.iter().map(|b| b.name()).collect();
        let _ = writeln!(err, "referee agent mancala: unknown agent '{name}' (known: {})", known.join(", "));
        return exit::USAGE;
    };
    let mut brain: Option<Brain> = None;
    let mut line = String::new();
    loop {
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) => return exit::SUCCESS,
            Ok(_) => {}
            Err(e) => {
                let _ = writeln!(err, "referee agent mancala: reading stdin: {e}");
                return exit::INTERNAL;
            }
        }
        let command = match protocol::parse_command(line.trim_end()) {
            Ok(c) => c,
            Err(message) => {
                let _ = writeln!(err, "referee agent mancala: {message}");
                return exit::USAGE;
            }
        };
        let written = match command {
            Command::Hello(hello) => {
                if hello.game != "mancala" {
                    let _ = writeln!(err, "referee agent mancala: asked to play '{}'", hello.game);
                    return exit::USAGE;
                }
                let stones = hello.params.first().and_then(|s| s.parse().ok()).unwrap_or(4);
                brain = Some(Brain::new(kind, stones, seed ^ u64::from(hello.seat)));
                writeln!(out, "name builtin:{}", kind.name())
            }
            Command::Go { millis, position } => {
                let start = Instant::now();
                let state = match parse_position(&position) {
                    Ok(s) => s,
                    Err(message) => {
                        let _ = writeln!(err, "referee agent mancala: {message}");
                        return exit::USAGE;
                    }
                };
                let brain = brain.get_or_insert_with(|| Brain::new(kind, 4, seed));
                let deadline = start + Duration::from_millis(millis).saturating_sub(margin(millis));
                let mut failed = None;
                let mut report = |bin: u8, info: &str| {
                    let r = writeln!(out, "move {bin}")
                        .and_then(|()| writeln!(out, "info {info}"))
                        .and_then(|()| out.flush());
                    if let Err(e) = r {
                        failed.get_or_insert(e);
                    }
                };
                let chosen = brain.think(&state, deadline, &mut report);
                match (failed, chosen) {
                    (Some(e), _) => Err(e),
                    (None, Some(bin)) => writeln!(out, "move {bin}").and_then(|()| writeln!(out, "done")),
                    (None, None) => writeln!(out, "done"),
                }
            }
            // This agent answers every `go` with `done` before its time is up, so a `stop` it reads here crossed
            // that `done` on the way: answering it would end its next turn before it started.
            Command::Stop => Ok(()),
            Command::Quit => return exit::SUCCESS,
        };
        if written.and_then(|()| out.flush()).is_err() {
            // The referee went away: nothing left to do.
            return exit::SUCCESS;
        }
    }
}

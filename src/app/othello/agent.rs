//! `referee agent othello NAME`: a built-in Othello agent speaking the course's own game-manager protocol on
//! stdin/stdout, so it can play against students' agents under the course's `othello_game.py` or the referee.
//!
//! The protocol (`othello-ground-truth.md`): the agent prints its name; reads its color line (`1` dark, `2` light,
//! or the later course's `color,limit,minimax,caching,ordering`, of which only the color is used); then for each of
//! its turns reads `SCORE d l` and the board as a Python literal and answers `i j` (column row). `FINAL d l` or the
//! end of input ends it.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use crate::cli::{exit, OthelloAgentArgs};
use crate::game::othello::agent::{Brain, Builtin};
use crate::game::othello::literal::parse_board;
use crate::game::othello::{Grid, Othello, Rules};
use crate::game::Player;

/// Runs the agent on `input`/`out` until `FINAL` or the end of input; returns the exit code.
pub fn run(args: &OthelloAgentArgs, input: &mut dyn BufRead, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let fail = |err: &mut dyn Write, code: u8, message: String| {
        let _ = writeln!(err, "referee agent othello: {message}");
        code
    };
    let Some(kind) = Builtin::parse(&args.name) else {
        let known: Vec<&str> = Builtin::ALL.iter().map(|b| b.name()).collect();
        return fail(err, exit::USAGE, format!("unknown agent '{}' (known: {})", args.name, known.join(", ")));
    };
    let rules = match args.rules.as_str() {
        "framework" => Rules::Framework,
        "standard" => Rules::Standard,
        other => return fail(err, exit::USAGE, format!("--rules '{other}': expected framework or standard")),
    };
    let Ok(budget) = crate::app::parse_seconds(&args.time, "--time", false) else {
        return fail(err, exit::USAGE, format!("--time '{}' is not a time like 1, 0.5 or 500ms", args.time));
    };
    let mut brain = Brain::new(kind, rules, args.seed);
    if writeln!(out, "builtin:{}", kind.name()).and_then(|()| out.flush()).is_err() {
        return exit::SUCCESS;
    }
    let mut lines = input.lines();
    let mut next = |what: &str| -> Result<Option<String>, String> {
        match lines.next() {
            None => Ok(None),
            Some(Ok(line)) => Ok(Some(line.trim().to_string())),
            Some(Err(e)) => Err(format!("reading the {what}: {e}")),
        }
    };
    let color = match next("color line") {
        Ok(Some(line)) => line,
        Ok(None) => return exit::SUCCESS,
        Err(e) => return fail(err, exit::INTERNAL, e),
    };
    let me = match color.split(',').next().map(str::trim) {
        Some("1") => Player::Max,
        Some("2") => Player::Min,
        _ => return fail(err, exit::USAGE, format!("color line '{color}': expected 1 or 2 first")),
    };
    loop {
        let score = match next("SCORE line") {
            Ok(Some(line)) => line,
            Ok(None) => return exit::SUCCESS,
            Err(e) => return fail(err, exit::INTERNAL, e),
        };
        if score.starts_with("FINAL") {
            return exit::SUCCESS;
        }
        if !score.starts_with("SCORE") {
            return fail(err, exit::USAGE, format!("expected 'SCORE d l', got '{score}'"));
        }
        let start = Instant::now();
        let board = match next("board") {
            Ok(Some(line)) => line,
            Ok(None) => return exit::SUCCESS,
            Err(e) => return fail(err, exit::INTERNAL, e),
        };
        let grid: Grid = match parse_board(&board) {
            Ok(g) => g,
            Err(e) => return fail(err, exit::USAGE, e.to_string()),
        };
        let state = match Othello::<Grid>::new(grid.size(), rules).and_then(|game| game.state(&grid, me)) {
            Ok(s) => s,
            Err(e) => return fail(err, exit::USAGE, e.to_string()),
        };
        let deadline = start + budget.mul_f64(0.9).saturating_sub(Duration::from_millis(20));
        let chosen = brain.think(&state, deadline, &mut |_, info| {
            let _ = writeln!(err, "{info}");
        });
        let Some(mv) = chosen else {
            return fail(err, exit::USAGE, "asked to move in a position with no legal move".into());
        };
        if writeln!(out, "{mv}").and_then(|()| out.flush()).is_err() {
            return exit::SUCCESS;
        }
    }
}

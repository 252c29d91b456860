//! The Take-Stones reference solver: one alpha-beta search, two course editions.
//!
//! - **Stats** (Fall 2019): doubles, terminal +-1.0, heuristic negated on Min's turn, window (-inf, +inf), six lines
//!   (`Move`, `Value`, visited, evaluated, max depth, average effective branching factor).
//! - **Trace** (Spring 2017): ints, terminal +-100, never negated, window (-1000, 1000), a line triple per node as it
//!   returns, then `NEXT MOVE`.
//!
//! Points the official files leave open are [`Options`] with the defaults of the ground-truth notes: the composite
//! count reads all available stones, numbers round like Java's `%.1f`, and `-0.0` prints as `0.0`.
//!
//! A root with no legal move has no answer: [`solve`] returns [`SolveError::NoLegalMove`] having printed nothing
//! (stats) or only the root's trace entry (trace), which is what the 2017 skeleton printed before it failed.

mod args;
mod heuristic;
mod stats;
mod trace;

pub use args::{parse_args, parse_numbers, ArgError, Parsed};
pub use heuristic::{classify, LeafClass, StatsEval, TraceEval};
pub use stats::write_stats;
pub use trace::TraceWriter;

use std::io::{self, Write};

use crate::game::takestones::{LargeBoard, Position, SmallBoard, Stones};
use crate::game::Player;
use crate::reference::number::{NegativeZero, Rounding};
use crate::search::{alpha_beta, Counters, Interrupted, Limits};

/// Which edition of the assignment: they share the search and differ in evaluation and output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Edition {
    /// Fall 2019: six stat lines.
    #[default]
    Stats,
    /// Spring 2017: the node-by-node alpha/beta trace.
    Trace,
}

/// Which stones the composite-last-move rule counts (the spec's wording allows both; public solutions use both).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum CompositeCount {
    /// Every available multiple of the largest prime factor (what the official 2017 trace proves).
    #[default]
    AllAvailable,
    /// Only the legal moves that are multiples of it.
    LegalMoves,
}

/// The solver's choices on what the spec leaves open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Options {
    /// Composite-count reading.
    pub composite: CompositeCount,
    /// Rounding of printed doubles (stats edition).
    pub rounding: Rounding,
    /// Printing of a negative zero value (stats edition).
    pub negative_zero: NegativeZero,
}

/// One run of the student program: a position, a depth (0 = to the end of the game), an edition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The position searched.
    pub position: Position,
    /// The depth limit; 0 searches to end-game states.
    pub depth: u32,
    /// Which edition's evaluation and output.
    pub edition: Edition,
    /// Readings of the open points.
    pub options: Options,
}

impl Request {
    /// A request with the default edition and options.
    pub fn new(position: Position, depth: u32) -> Request {
        Request { position, depth, edition: Edition::default(), options: Options::default() }
    }

    fn limits(&self) -> Limits {
        if self.depth == 0 {
            Limits::unlimited()
        } else {
            Limits::depth(self.depth)
        }
    }
}

/// What the search found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Solution {
    /// The stone to take.
    pub best: u32,
    /// The root's value (stats: a double; trace: an int, converted).
    pub value: f64,
    /// Visited / evaluated / max depth.
    pub counters: Counters,
}

/// Why no answer was printed.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The side to move has no legal stone: the game is already over.
    #[error("no legal move at the root: {loser} is to move and cannot take a stone, so {} has already won", loser.opponent())]
    NoLegalMove {
        /// The side to move, who has lost.
        loser: Player,
    },
    /// Writing the output failed.
    #[error("cannot write the output: {0}")]
    Io(#[from] io::Error),
}

/// Solves `request` and writes its edition's output to `out`, on the fast board when `n` allows.
///
/// # Errors
/// [`SolveError::NoLegalMove`] for a finished game, [`SolveError::Io`] when `out` fails.
pub fn solve(request: &Request, out: &mut dyn Write) -> Result<Solution, SolveError> {
    let n = request.position.n();
    match SmallBoard::new(n) {
        Some(board) => solve_on(&board, request, out),
        None => solve_on(&LargeBoard::new(n), request, out),
    }
}

/// Solves `request` and returns its output as text.
///
/// # Errors
/// As [`solve`].
pub fn solve_to_string(request: &Request) -> Result<(String, Solution), SolveError> {
    let mut out = Vec::new();
    let solution = solve(request, &mut out)?;
    Ok((String::from_utf8_lossy(&out).into_owned(), solution))
}

/// Solves `request` on a given board (both boards must give the same output; tests hold them to it).
///
/// # Errors
/// As [`solve`].
pub fn solve_on<B: Stones>(board: &B, request: &Request, out: &mut dyn Write) -> Result<Solution, SolveError> {
    let root = board.root(&request.position);
    let composite = request.options.composite;
    match request.edition {
        Edition::Stats => {
            let (solution, value) = stats_search(board, &root, request.limits(), composite)?;
            write_stats(out, &solution, value, request.options)?;
            Ok(solution)
        }
        Edition::Trace => {
            let mut counters = Counters::default();
            let mut trace = TraceWriter::new(board, &mut *out);
            let eval = TraceEval { composite };
            let result =
                alpha_beta(board, &root, &eval, request.limits(), (-1000, 1000), &mut (&mut counters, &mut trace));
            let written = trace.finish();
            let result = match result {
                Ok(result) => result,
                Err(Interrupted) => {
                    return Err(SolveError::Io(written.err().unwrap_or_else(|| io::ErrorKind::Other.into())))
                }
            };
            written?;
            let best = result.best.ok_or(SolveError::NoLegalMove { loser: board.to_move(&root) })?;
            let after = board.apply(&root, best);
            writeln!(out, "NEXT MOVE")?;
            writeln!(out, "{best}")?;
            trace::write_stones(out, &board.available(&after))?;
            Ok(Solution { best, value: f64::from(result.value), counters })
        }
    }
}

/// The stats edition's search without output: the solution and the exact double value. Used by the benchmark.
///
/// # Errors
/// [`SolveError::NoLegalMove`] for a finished game.
pub fn stats_search<B: Stones>(
    board: &B,
    root: &B::State,
    limits: Limits,
    composite: CompositeCount,
) -> Result<(Solution, f64), SolveError> {
    let mut counters = Counters::default();
    let eval = StatsEval { composite };
    let result = alpha_beta(board, root, &eval, limits, (f64::NEG_INFINITY, f64::INFINITY), &mut counters)
        .map_err(|Interrupted| SolveError::Io(io::ErrorKind::Interrupted.into()))?;
    let best = result.best.ok_or(SolveError::NoLegalMove { loser: board.to_move(root) })?;
    Ok((Solution { best, value: result.value, counters }, result.value))
}

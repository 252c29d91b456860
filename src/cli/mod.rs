//! Command-line definitions (clap) for the two binaries. Only definitions: what each command does lives in
//! [`crate::app`], so tests call the same code without a process.

pub mod exit;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::reference::number::{NegativeZero, Rounding};
use crate::reference::takestones::{CompositeCount, Edition};

/// `takestones`: the reference Take-Stones program, with the student program's arguments.
#[derive(Debug, Parser)]
#[command(
    name = "takestones",
    version,
    about = "The reference Take-Stones solver (UW CS540): same arguments and output as the student program",
    after_help = exit::HELP
)]
pub struct TakeStonesCli {
    /// The position and options.
    #[command(flatten)]
    pub args: TakeStonesArgs,
}

/// A Take-Stones position and the solver's readings of the spec's open points.
#[derive(Debug, Clone, Args)]
pub struct TakeStonesArgs {
    /// Which edition's output: `stats` (Fall 2019, six lines) or `trace` (Spring 2017, node trace).
    #[arg(long, value_enum, default_value_t)]
    pub edition: Edition,
    /// Which stones the composite-last-move rule counts.
    #[arg(long, value_enum, default_value_t)]
    pub composite: CompositeCount,
    /// How doubles are rounded (stats edition): like Java's %.1f, or like DecimalFormat.
    #[arg(long, value_enum, default_value_t)]
    pub rounding: Rounding,
    /// How a negative zero value prints (stats edition).
    #[arg(long, value_enum, default_value_t)]
    pub negative_zero: NegativeZero,
    /// Reject a first move that breaks the first-move rule (by default it is accepted with a warning, because the
    /// course's own test case `10 3 4 2 6 4` starts with stone 4).
    #[arg(long)]
    pub strict: bool,
    /// N K T1 .. TK DEPTH: stones, number taken, the taken stones in order, depth limit (0 = to the end).
    #[arg(value_name = "N K T1 .. TK DEPTH", allow_negative_numbers = true, num_args = 0..)]
    pub numbers: Vec<String>,
}

/// `referee`: grading, refereeing and the reference solvers.
#[derive(Debug, Parser)]
#[command(name = "referee", version, about = "Grades game-search homework and referees game-playing agents", after_help = exit::HELP)]
pub struct RefereeCli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The `referee` subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve a Take-Stones position exactly as the student program must (same arguments, same output).
    Takestones(TakeStonesArgs),
    /// Check the reference solvers against the official course test files built into this binary.
    Verify(VerifyArgs),
    /// Measure search speed and print the numbers.
    Bench(BenchArgs),
}

/// `referee verify`.
#[derive(Debug, Clone, Args)]
pub struct VerifyArgs {
    /// Only this edition's cases (both by default).
    #[arg(long, value_enum)]
    pub edition: Option<Edition>,
}

/// What `referee bench` measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BenchTarget {
    /// Full Take-Stones searches `N 0 0` (stats edition), nodes per second.
    Takestones,
}

/// Which Take-Stones board the benchmark runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BoardChoice {
    /// The u128 bitmask board (N <= 127).
    Small,
    /// The general board (any N).
    Large,
}

/// `referee bench`.
#[derive(Debug, Clone, Args)]
pub struct BenchArgs {
    /// What to measure.
    #[arg(value_enum, default_value = "takestones")]
    pub target: BenchTarget,
    /// The smallest N searched.
    #[arg(long, default_value_t = 28)]
    pub from: u32,
    /// The largest N searched.
    #[arg(long, default_value_t = 40)]
    pub to: u32,
    /// Which board.
    #[arg(long, value_enum, default_value = "small")]
    pub board: BoardChoice,
}

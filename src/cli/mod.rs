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
    /// Grade one submission (--dir) or a class folder (--submissions) against a suite.
    Grade(Box<GradeArgs>),
    /// Self-check a program against the reference on the official cases and seeded random positions; the first
    /// divergence is shrunk to the smallest position that shows it and the bug is named when it is a known one.
    Check(CheckArgs),
    /// Generate a test suite that tells every known bug apart from the reference, with expected outputs.
    Gen(GenArgs),
    /// Check the reference solvers against the official course test files built into this binary.
    Verify(VerifyArgs),
    /// Measure search speed and print the numbers.
    Bench(BenchArgs),
}

/// When to color terminal output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum ColorChoice {
    /// When stdout is a terminal and `NO_COLOR` is unset.
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// `referee grade`.
#[derive(Debug, Clone, Args)]
#[command(after_help = "Exit codes: 0 every case passed, 1 some case did not pass, 2 usage or suite error, \
3 harness error (never the student's fault), 130 interrupted (a class run resumes where it stopped).")]
pub struct GradeArgs {
    /// The suite: a course folder with testcase.txt, a suite .toml (or a folder with suite.toml), or
    /// builtin:takestones-stats-2019 / builtin:takestones-trace-2017.
    #[arg(long)]
    pub suite: String,
    /// Command per case, run without a shell: {dir} is the submission's folder, {args} the case's arguments.
    /// Example: 'java -cp {dir} TakeStones {args}'.
    #[arg(long)]
    pub cmd: Option<String>,
    /// Build step run once per submission in its scratch copy, e.g. "sh -c 'javac -d {dir} {dir}/*.java'".
    #[arg(long)]
    pub build: Option<String>,
    /// Run --cmd and --build through `sh -c` (values shell-quoted).
    #[arg(long)]
    pub shell: bool,
    /// One submission: its folder or zip (default: the current folder).
    #[arg(long, conflicts_with = "submissions")]
    pub dir: Option<std::path::PathBuf>,
    /// A class: a folder holding one folder or zip per student (`netid-HW2-P3.zip`, `netidHW2P3.zip`, ...).
    #[arg(long)]
    pub submissions: Option<std::path::PathBuf>,
    /// Where a class run writes its results (default: ./referee-results).
    #[arg(long, requires = "submissions")]
    pub out: Option<std::path::PathBuf>,
    /// Re-grade every student, ignoring results of earlier runs in --out.
    #[arg(long, requires = "submissions")]
    pub fresh: bool,
    /// Runs at once (students for a class, cases for one submission); default: all cores.
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
    /// Report format for one submission (a class run writes all of them).
    #[arg(long, value_enum)]
    pub format: Option<crate::harness::render::Format>,
    /// Per-case wall-clock limit, overriding the suite's (default 10s, the course's).
    #[arg(long)]
    pub timeout: Option<String>,
    /// Wall-clock limit of the build step (default 120s).
    #[arg(long)]
    pub build_timeout: Option<String>,
    /// Memory limit per run (data segment; default 2GiB, enough for a JVM).
    #[arg(long)]
    pub memory: Option<String>,
    /// Bytes kept of stdout and of stderr per run; more is cut and the run stopped (default 8MiB).
    #[arg(long)]
    pub output_limit: Option<String>,
    /// Also accept these spec-silent readings (computed by the reference): composite, rounding, negative-zero.
    #[arg(long, value_enum, value_delimiter = ',')]
    pub accept: Vec<crate::harness::suite::Reading>,
    /// Color: auto, always, never.
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorChoice,
    /// Run submissions as the grader's own user even when it is root (by default root runs them as `nobody`).
    #[arg(long)]
    pub run_as_self: bool,
    /// Where scratch folders go (default: the system temp folder).
    #[arg(long)]
    pub work: Option<std::path::PathBuf>,
}

/// Games `referee check` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckGame {
    /// Take-Stones (UW CS540 alpha-beta).
    Takestones,
}

/// `referee check`.
#[derive(Debug, Clone, Args)]
#[command(after_help = "Exit codes: 0 no divergence, 1 a divergence (shrunk and diagnosed above), 2 usage error, \
3 the program could not be started.")]
pub struct CheckArgs {
    /// The game.
    #[arg(value_enum)]
    pub game: CheckGame,
    /// How to run your program: {dir} is --dir, {args} the case's arguments, e.g. 'java -cp {dir} TakeStones {args}'.
    #[arg(long)]
    pub cmd: String,
    /// Your program's folder (default: the current folder).
    #[arg(long, default_value = ".")]
    pub dir: std::path::PathBuf,
    /// Which edition's output your program prints.
    #[arg(long, value_enum, default_value_t)]
    pub edition: Edition,
    /// Seed of the random positions (printed on every run, so any failure can be replayed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Random positions after the official cases.
    #[arg(long, default_value_t = 200)]
    pub cases: usize,
    /// Largest number of stones in a random position.
    #[arg(long, default_value_t = 30)]
    pub max_stones: u32,
    /// Per-run wall-clock limit.
    #[arg(long, default_value = "10s")]
    pub timeout: String,
    /// Run --cmd through `sh -c`.
    #[arg(long)]
    pub shell: bool,
}

/// How `referee gen` lays a suite out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Layout {
    /// The course's own: `testcase.txt` plus `outputN.txt` (in the layout of the chosen edition).
    #[default]
    Course,
    /// A native `suite.toml` with the outputs beside it, accepting the spec-silent readings.
    Native,
}

/// `referee gen`.
#[derive(Debug, Clone, Args)]
pub struct GenArgs {
    /// The game.
    #[arg(value_enum)]
    pub game: CheckGame,
    /// The edition whose output the suite expects.
    #[arg(long, value_enum, default_value_t)]
    pub edition: Edition,
    /// Number of cases.
    #[arg(long, default_value_t = 20)]
    pub count: usize,
    /// Seed (printed, so the same suite can be made again).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Folder to write (created; existing files of the same names are replaced).
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Course layout or native TOML.
    #[arg(long, value_enum, default_value_t)]
    pub layout: Layout,
    /// Largest number of stones.
    #[arg(long, default_value_t = 30)]
    pub max_stones: u32,
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
    /// Grading overhead: a class of trivial Python submissions graded vs the same commands run bare.
    Harness,
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
    /// Harness: students in the class.
    #[arg(long, default_value_t = 40)]
    pub students: usize,
    /// Harness: parallel jobs for the second measurement.
    #[arg(long, default_value_t = 2)]
    pub jobs: usize,
    /// Harness: the submissions' language.
    #[arg(long, value_enum, default_value = "python")]
    pub lang: BenchLang,
}

/// The language of the harness benchmark's trivial submissions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BenchLang {
    /// A Python script (about 12 ms per run).
    Python,
    /// A compiled Java class (about 100 ms per run, the course's language).
    Java,
}

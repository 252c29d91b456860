//! Command-line definitions (clap) for the two binaries. Only definitions: what each command does lives in
//! [`crate::app`], so tests call the same code without a process.

mod deploy;
mod exercise;
pub mod exit;
pub mod keys_solvers;
mod keys_tree;
mod othello;
mod platforms;

pub use deploy::{BundleArgs, GradescopeCommand, GradescopeVisibility, MergeArgs, RunArgs};
pub use exercise::{ExerciseCheckArgs, ExerciseCommand, ExerciseGradeArgs, ExerciseMakeArgs};
pub use keys_solvers::{CspArgs, MdpArgs};
pub use keys_tree::{HillclimbArgs, TreeArgs};
pub use othello::{OthelloGradeArgs, OthelloMatchArgs, OthelloOptions, OthelloRules, OthelloTournamentArgs};
pub use platforms::{Classroom50Args, PrairielearnArgs};

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::harness::model::Points;
use crate::reference::number::{NegativeZero, Rounding};
use crate::reference::takestones::{CompositeCount, Edition};

/// `takestones`: the reference Take-Stones program, with the student program's arguments.
#[derive(Debug, Parser)]
#[command(
    name = "takestones",
    version,
    about = "The reference Take-Stones solver (UW CS540): same arguments and output as the student program"
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
#[command(name = "referee", version, about = "Grades game-search homework and referees game-playing agents")]
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
    /// Grade one submission (--dir) or a class folder (--submissions) against a suite; `grade mancala` plays a
    /// class's agents against the built-in ones instead.
    Grade(Box<GradeArgs>),
    /// Self-check a program against the reference on the official cases (or the TA's --suite, judged as `grade`
    /// judges it) and seeded random positions; the first divergence is shrunk to the smallest position that shows
    /// it and the bug is named when it is a known one.
    /// `check othello --agent FILE` calls an Othello module's search functions and compares every answer.
    Check(CheckArgs),
    /// Generate a test suite that tells every known bug apart from the reference, with expected outputs.
    Gen(GenArgs),
    /// Check the reference solvers against the official course test files built into this binary.
    Verify(VerifyArgs),
    /// Measure search speed and print the numbers.
    Bench(BenchArgs),
    /// Count the leaves of a game's tree to each depth from its start (a check of move generation).
    #[command(subcommand)]
    Perft(PerftGame),
    /// Print each sandbox layer untrusted code runs under on this machine, in force or not, and why.
    Sandbox,
    /// Play agents against each other under a clock and print every move and the winner.
    #[command(subcommand)]
    Match(MatchGame),
    /// Round-robin tournament of a class's agents, with ratings and the course's bands.
    #[command(subcommand)]
    Tournament(TournamentGame),
    /// Run a built-in agent on stdin/stdout with the agent protocol (docs/agent-protocol.md).
    #[command(subcommand)]
    Agent(AgentGame),
    /// Answer key for a constraint problem: domains after forward checking, the heuristics' picks, the search.
    Csp(CspArgs),
    /// Answer key for an MDP: exact policy evaluation, value iteration, policy iteration, the optimal policy.
    Mdp(MdpArgs),
    /// Answer key of a game tree: every node's minimax/expectimax value, the alpha-beta step table, pictures.
    Tree(TreeArgs),
    /// Answer key of hill-climbing on a tour (swap two locations): every step's neighbours until a local minimum.
    Hillclimb(HillclimbArgs),
    /// Put the --out folders of a `--shard` run's parts together into one, as one unsharded run would have written.
    Merge(MergeArgs),
    /// Gradescope: `gradescope bundle` makes an autograder.zip from the grade command you already use.
    #[command(subcommand)]
    Gradescope(GradescopeCommand),
    /// PrairieLearn's external grader: grade /grade/student against the question's suite, write
    /// /grade/results/results.json.
    Prairielearn(PrairielearnArgs),
    /// Written problems, a different one for every student: `exercise make` the sheets and the key, `exercise
    /// grade` the answer files (misconceptions named), `exercise check` an answer file's form.
    #[command(subcommand)]
    Exercise(ExerciseCommand),
    /// How alike a class's hand-ins are, the course's template left out: pairs.csv, clusters.csv, students.csv
    /// and report.html with the shared fragments side by side. It shows similarity; it accuses no one.
    Similar(SimilarArgs),
}

/// `referee similar`.
#[derive(Debug, Clone, Args)]
pub struct SimilarArgs {
    /// The class folder: one folder or .zip per student, as for `grade`.
    #[arg(long)]
    pub submissions: std::path::PathBuf,
    /// The course's template (starter code) as a folder or .zip: what it holds is never counted as shared.
    #[arg(long)]
    pub template: Option<std::path::PathBuf>,
    /// Which source files are compared; `auto` takes the language most hand-ins have.
    #[arg(long, value_enum, default_value = "auto")]
    pub lang: SimilarLang,
    /// Where the results go (created).
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Pairs below this similarity (0 to 1) are not listed [default: 0.25].
    #[arg(long)]
    pub floor: Option<f64>,
    /// Pairs at or above this similarity link students into clusters [default: 0.5].
    #[arg(long)]
    pub cluster: Option<f64>,
    /// Tokens per k-gram [default: 15].
    #[arg(long)]
    pub k: Option<usize>,
    /// Winnowing window in k-grams [default: 8].
    #[arg(long)]
    pub window: Option<usize>,
}

/// The languages `referee similar` compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SimilarLang {
    /// `.java` files.
    Java,
    /// `.py` files.
    Python,
    /// The language most hand-ins have.
    Auto,
}

/// `referee perft GAME`.
#[derive(Debug, Subcommand)]
pub enum PerftGame {
    /// Othello under standard rules (a side with no move passes, one ply; a finished game is a leaf).
    Othello(PerftArgs),
}

/// `referee perft othello`.
#[derive(Debug, Clone, Args)]
pub struct PerftArgs {
    /// The deepest depth counted (every depth from 1 is printed).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: u32,
    /// Squares a side: 4, 6 or 8.
    #[arg(long, default_value_t = 8)]
    pub size: usize,
}

/// `referee match GAME`.
#[derive(Debug, Subcommand)]
pub enum MatchGame {
    /// Mancala: `referee match mancala A B`, seats alternating game by game.
    Mancala(MancalaMatchArgs),
    /// Othello: `referee match othello A B`, the course's game-manager protocol, seats alternating.
    Othello(OthelloMatchArgs),
}

/// `referee tournament GAME`.
#[derive(Debug, Subcommand)]
pub enum TournamentGame {
    /// Mancala: every pair of a class's players, both seats.
    Mancala(MancalaTournamentArgs),
    /// Othello: every pair of a class's agents, both colors.
    Othello(OthelloTournamentArgs),
}

/// `referee agent GAME`.
#[derive(Debug, Subcommand)]
pub enum AgentGame {
    /// A built-in Mancala agent: random, simple or strong.
    Mancala(AgentArgs),
    /// A built-in Othello agent (random, greedy or strong) speaking the course's game-manager protocol.
    Othello(OthelloAgentArgs),
}

/// `referee agent othello NAME`.
#[derive(Debug, Clone, Args)]
pub struct OthelloAgentArgs {
    /// random, greedy or strong.
    pub name: String,
    /// Seed of the random agent.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Time to think per move (the course protocol does not send it): seconds or a duration.
    #[arg(long, default_value = "1")]
    pub time: String,
    /// framework (the game ends when the side to move is stuck; the course's) or standard (pass).
    #[arg(long, default_value = "framework")]
    pub rules: String,
}

/// `referee agent mancala NAME`.
#[derive(Debug, Clone, Args)]
pub struct AgentArgs {
    /// random, simple or strong.
    pub name: String,
    /// Seed of the random agent.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// `--sandbox` and the options beside it, shared by every command that runs untrusted code.
#[derive(Debug, Clone, Args)]
pub struct SandboxArgs {
    /// best-effort: use every sandbox layer this machine offers and warn about the others; require: refuse (exit
    /// 3) before running anything unless all are in force (see `referee sandbox`).
    #[arg(long = "sandbox", value_enum, default_value = "best-effort")]
    pub policy: crate::harness::runner::layers::Policy,
    /// Use only these sandbox layers (comma-separated: landlock, network, pid, ipc, mount, seccomp, cgroup; or
    /// none), to see how grading behaves on a machine that offers no more (a Docker container, an old kernel).
    #[arg(long = "sandbox-layers", value_name = "LIST")]
    pub layers: Option<String>,
    /// A folder runs may also read and execute (repeatable), beyond their own folder, the system and the
    /// toolchain the command uses.
    #[arg(long = "allow-read", value_name = "DIR")]
    pub allow_read: Vec<std::path::PathBuf>,
    /// An environment variable runs also get (repeatable): NAME passes on the grader's value, NAME=VALUE sets one.
    /// Runs otherwise start from PATH, the locale, TZ and JAVA_HOME only.
    #[arg(long = "env", value_name = "NAME[=VALUE]")]
    pub env: Vec<String>,
}

/// How agents are run: clock, Java, sandbox.
#[derive(Debug, Clone, Args)]
pub struct ArenaOptions {
    /// Time per move, in seconds (`10`, `0.5`) or as a duration (`500ms`); the course's is 10.
    #[arg(long, default_value = "10")]
    pub time: String,
    /// Extra time after `stop` in which a last move still counts (the framework's half second).
    #[arg(long, default_value = "0.5")]
    pub tolerance: String,
    /// Time an agent has to start (a JVM, an import) before its first move; never charged.
    #[arg(long, default_value = "30")]
    pub startup: String,
    /// Seed of the random agent (printed, so a match can be replayed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// The `java` that runs students' players (e.g. a Java 21 JDK's bin/java).
    #[arg(long, default_value = "java")]
    pub java: String,
    /// The `javac` that compiles them.
    #[arg(long, default_value = "javac")]
    pub javac: String,
    /// Run agents as the referee's own user even when it is root (by default root runs them as dedicated users).
    #[arg(long)]
    pub run_as_self: bool,
    /// The sandbox policy.
    #[command(flatten)]
    pub sandbox: SandboxArgs,
    /// Where compiled players and game folders go (default: a temporary folder).
    #[arg(long)]
    pub work: Option<std::path::PathBuf>,
}

/// `referee match mancala`.
#[derive(Debug, Clone, Args)]
#[command(after_help = "Agents: builtin:random, builtin:simple, builtin:strong, cmd:COMMAND (any program speaking \
docs/agent-protocol.md), or a path to a student's xxxPlayer.java (or its folder or zip), run unchanged through the \
Java host.")]
pub struct MancalaMatchArgs {
    /// The agents and the games.
    #[command(flatten)]
    pub common: MatchArgs,
    /// Stones per bin at the start (the course uses 4, sometimes 3 or 5).
    #[arg(long, default_value_t = 4)]
    pub stones: u16,
    /// Clock and runtime.
    #[command(flatten)]
    pub arena: ArenaOptions,
}

/// What every `referee match GAME` takes: two agents and how many games.
#[derive(Debug, Clone, Args)]
pub struct MatchArgs {
    /// The first agent (seat 1 in odd games).
    pub a: String,
    /// The second agent.
    pub b: String,
    /// Games to play; seats alternate.
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// Print only each game's result line, not every move.
    #[arg(long, short)]
    pub quiet: bool,
    /// Also write the game records as JSON to this file.
    #[arg(long)]
    pub json: Option<std::path::PathBuf>,
}

/// `referee grade GAME`.
#[derive(Debug, Clone, Subcommand)]
pub enum GradeGame {
    /// Mancala agents (xxxPlayer.java) against builtin:random and builtin:simple, the course's rubric.
    Mancala(MancalaGradeArgs),
    /// Othello agents (<uni>_ai.py): games against builtin:random in both colors.
    Othello(OthelloGradeArgs),
}

/// The class a game's `grade` command grades, and where its results go.
#[derive(Debug, Clone, Args)]
pub struct ClassArgs {
    /// A class: one folder or zip per student holding its agent (xxxPlayer.java for Mancala, <uni>_ai.py for
    /// Othello).
    #[arg(long)]
    pub submissions: std::path::PathBuf,
    /// Where the results go (default: ./referee-results).
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Re-grade every student, ignoring earlier results in --out.
    #[arg(long)]
    pub fresh: bool,
    /// Games at once (each pinned to its own core; default: all cores).
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
    /// Run only part K of N (`--shard 2/10`): students dealt round-robin by sorted id; each part writes its own
    /// --out, and `referee merge` puts them together.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// A known-correct agent (folder or zip), graded first the same way: unless it gets full marks, no student is
    /// graded (exit 3, naming its first failing case).
    #[arg(long, value_name = "DIR")]
    pub solution: Option<std::path::PathBuf>,
    /// What student-facing reports show of each case (feedback, Gradescope, JUnit): full (the arguments, the
    /// moves, the reference's answer to a conformance call), actual-only (never the reference's answer), none
    /// (the verdict and cause names). report.html, report.json and the gradebook keep everything.
    #[arg(long, value_enum, default_value_t)]
    pub show: crate::harness::model::Show,
}

/// `referee grade mancala`.
#[derive(Debug, Clone, Args)]
#[command(after_help = "Rubric (the course's): beating builtin:random earns half the points; beating builtin:simple \
in either seat earns all of them. Each opponent is played in both seats for every --stones value; an agent beats an \
opponent when it wins at least one game against it for every stones value.")]
pub struct MancalaGradeArgs {
    /// The class and where its results go.
    #[command(flatten)]
    pub class: ClassArgs,
    /// Stones per bin; several values (`3,4,5`) play every opponent at each.
    #[arg(long, value_delimiter = ',', default_value = "4")]
    pub stones: Vec<u16>,
    /// Points for the assignment (a decimal >= 0, at most 9 decimals).
    #[arg(long, default_value = "100", value_parser = Points::parse_rubric)]
    pub points: Points,
    /// Clock and runtime.
    #[command(flatten)]
    pub arena: ArenaOptions,
}

/// `referee tournament mancala`.
#[derive(Debug, Clone, Args)]
#[command(after_help = "Every pair plays twice (each agent in each seat). Ratings are Bradley-Terry maximum \
likelihood with standard errors (draws count half), on the Elo scale anchored at 1500 mean. Bands follow the course: \
top 10% and the next 15%.")]
pub struct MancalaTournamentArgs {
    /// The class and the entrants.
    #[command(flatten)]
    pub common: TournamentArgs,
    /// Stones per bin.
    #[arg(long, default_value_t = 4)]
    pub stones: u16,
    /// Clock and runtime.
    #[command(flatten)]
    pub arena: ArenaOptions,
}

/// What every `referee tournament GAME` takes.
#[derive(Debug, Clone, Args)]
pub struct TournamentArgs {
    /// A class: one folder or zip per student holding its agent.
    #[arg(long)]
    pub submissions: std::path::PathBuf,
    /// Also enter these agents (e.g. builtin:simple) as reference points; they get no band.
    #[arg(long = "with", value_delimiter = ',')]
    pub with: Vec<String>,
    /// Where the results go (default: ./referee-tournament).
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Games at once (each pinned to its own core; default: all cores).
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
    /// Run only part K of N (`--shard 2/10`): the games dealt round-robin in schedule order; each part writes its own
    /// --out (needs --seed), and `referee merge` puts them together.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
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
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct GradeArgs {
    /// Grade game-playing agents by matches instead of output against a suite.
    #[command(subcommand)]
    pub game: Option<GradeGame>,
    /// The suite: a course folder with testcase.txt, a suite .toml (or a folder with suite.toml), or
    /// builtin:takestones-stats-2019 / builtin:takestones-trace-2017.
    #[arg(long, required = true)]
    pub suite: Option<String>,
    /// Command per case, run without a shell: {dir} is the submission's folder, {args} the case's arguments.
    /// Example: 'java -cp {dir} TakeStones {args}'.
    #[arg(long)]
    pub cmd: Option<String>,
    /// Build step run once per submission in its scratch copy, e.g. --shell --build 'javac -d {dir} {dir}/*.java'
    /// (the * needs --shell).
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
    /// Run only part K of N (`--shard 2/10`): students dealt round-robin by sorted id; each part writes its own
    /// --out, and `referee merge` puts them together.
    #[arg(long, requires = "submissions", value_name = "K/N")]
    pub shard: Option<String>,
    /// A known-correct hand-in (folder or zip), graded first with the same command, suite and sandbox: unless it
    /// gets full marks, no student is graded (exit 3, naming its first failing case).
    #[arg(long, value_name = "DIR")]
    pub solution: Option<std::path::PathBuf>,
    /// After K timeouts, the rest of a student's cases are not run (each marked "not run: timed out K times"), so
    /// a program that hangs costs K timeouts, not one per case.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_timeouts: Option<u32>,
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
    /// What one run may write (its folder's growth, and its private /tmp with the mount layer); past it the run
    /// is stopped and the case fails as over its disk budget (default 256MiB).
    #[arg(long, value_name = "SIZE")]
    pub disk_limit: Option<String>,
    /// Also accept these spec-silent readings (computed by the reference): composite, rounding, negative-zero.
    #[arg(long, value_enum, value_delimiter = ',')]
    pub accept: Vec<crate::harness::suite::Reading>,
    /// Color: auto, always, never.
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorChoice,
    /// Run submissions as the grader's own user even when it is root (by default root runs each submission as
    /// an unprivileged uid of its own, from 600000, group nogroup).
    #[arg(long)]
    pub run_as_self: bool,
    /// The sandbox policy.
    #[command(flatten)]
    pub sandbox: SandboxArgs,
    /// Where scratch folders go (default: the system temp folder).
    #[arg(long)]
    pub work: Option<std::path::PathBuf>,
    /// What student-facing reports show of a case (feedback, Gradescope, JUnit, Classroom 50, PrairieLearn):
    /// full (arguments, expected and printed output), actual-only (never the expected output), none (the verdict
    /// and cause names). Outranks the suite's `show`; report.html, report.json and the gradebook keep everything.
    #[arg(long, value_enum)]
    pub show: Option<crate::harness::model::Show>,
    /// Show cases marked after-due-date at once on platforms with no due-date gate (Classroom 50, PrairieLearn,
    /// the feedback files, JUnit). Without it they are hidden there: only their status and points are shown.
    #[arg(long)]
    pub show_after_due_date: bool,
    /// Classroom 50's identity fields.
    #[command(flatten)]
    pub classroom50: Classroom50Args,
}

/// Games `referee gen` knows (and `referee check`, which also knows [`CheckTarget::Othello`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckGame {
    /// Take-Stones (UW CS540 alpha-beta).
    Takestones,
}

/// Games `referee check` knows (`gen` knows only [`CheckGame`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckTarget {
    /// Take-Stones (UW CS540 alpha-beta): runs your program (--cmd) on cases.
    Takestones,
    /// Othello (the course's Python agent): calls your module's search functions (--agent).
    Othello,
}

/// `referee check`.
#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// The game.
    #[arg(value_enum)]
    pub game: CheckTarget,
    /// takestones: how to run your program: {dir} is --dir, {args} the case's arguments, e.g.
    /// 'java -cp {dir} TakeStones {args}'.
    #[arg(long)]
    pub cmd: Option<String>,
    /// takestones: your program's folder (default: the current folder).
    #[arg(long, default_value = ".")]
    pub dir: std::path::PathBuf,
    /// takestones: the suite your TA grades with (as `referee grade --suite` takes it): its cases run first and
    /// its accepted readings and comparison judge every output; without it, the official cases and every
    /// spec-silent reading accepted.
    #[arg(long)]
    pub suite: Option<String>,
    /// takestones: build step run once in --dir before the cases, as `referee grade --build` runs it, e.g.
    /// 'javac -d {dir} {dir}/*.java' (with --shell for the *).
    #[arg(long)]
    pub build: Option<String>,
    /// takestones: wall-clock limit of the build step (default 120s).
    #[arg(long)]
    pub build_timeout: Option<String>,
    /// takestones: which edition's output your program prints (a --suite with a [reference] decides it).
    #[arg(long, value_enum, default_value_t)]
    pub edition: Edition,
    /// Seed of the random positions (printed on every run, so any failure can be replayed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Random positions after the official (takestones, default 200) or fixed (othello, default 60) cases.
    #[arg(long)]
    pub cases: Option<usize>,
    /// takestones: largest number of stones in a random position.
    #[arg(long, default_value_t = 30)]
    pub max_stones: u32,
    /// Wall-clock limit per run (takestones) or per function call (othello).
    #[arg(long, default_value = "10s")]
    pub timeout: String,
    /// takestones: run --cmd and --build through `sh -c` (values shell-quoted).
    #[arg(long)]
    pub shell: bool,
    /// othello: your agent module (e.g. `hy2574_ai.py`); it is imported, never run.
    #[arg(long)]
    pub agent: Option<std::path::PathBuf>,
    /// othello: the Python 3 that imports it.
    #[arg(long, default_value = "/usr/bin/python3")]
    pub python: String,
    /// othello: also write the full report (every failing call) as JSON to this file.
    #[arg(long)]
    pub json: Option<std::path::PathBuf>,
    /// othello: run your code as your own user even as root (by default root runs it as an unprivileged uid from
    /// 600000).
    #[arg(long)]
    pub run_as_self: bool,
    /// With each located cause, print its proof: takestones, the changed component and every case the changed
    /// reference reproduced; othello, the replaced function and the answers it reproduced, function by function.
    #[arg(long)]
    pub explain: bool,
    /// The sandbox policy.
    #[command(flatten)]
    pub sandbox: SandboxArgs,
}

/// How `referee gen` lays a suite out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Layout {
    /// The course's own: `testcase.txt` plus `outputN.txt` (in the layout of the chosen edition).
    #[default]
    Course,
    /// A native `suite.toml` with the outputs beside it.
    Native,
}

/// A spec-silent reading `referee gen --accept` can name, or `none`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AcceptChoice {
    /// The composite rule counting legal moves only.
    Composite,
    /// HALF_EVEN rounding (DecimalFormat).
    Rounding,
    /// `-0.0` kept.
    NegativeZero,
    /// No reading: only the reference's default output passes.
    None,
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
    /// Spec-silent readings the suite accepts besides the reference's default output (written into it, so
    /// `grade` and `check --suite` judge alike): composite, rounding, negative-zero, or none.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_values_t = [AcceptChoice::Composite, AcceptChoice::Rounding, AcceptChoice::NegativeZero]
    )]
    pub accept: Vec<AcceptChoice>,
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
    /// Mancala engines: nodes per second and the depth `strong` and `simple` complete in --seconds from the opening.
    Mancala,
    /// Othello's strong engine on 8x8: nodes per second and depth in --seconds, and exact endgame solving times.
    Othello,
    /// The model of scale: per-student cost of a real Java Take-Stones class (--students, -j --jobs) and per-game
    /// cost of Othello between Python agents, turned into times for 1,500 students and a 300-player tournament.
    Scale,
    /// Written problems: `exercise make` and `exercise grade` on a synthetic class of --students (the target is
    /// 1,500), -j --jobs, and how many of their variants and answer keys are distinct.
    Exercise,
    /// `referee similar` on a generated class of --students (the target is 1,500) Java hand-ins of about 300
    /// lines, some of them disguised copies: time, peak memory, pairs.
    Similar,
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
    /// Seconds per search (`bench mancala`, `bench othello`).
    #[arg(long, default_value_t = 1.0)]
    pub seconds: f64,
}

/// The language of the harness benchmark's trivial submissions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BenchLang {
    /// A Python script (about 12 ms per run).
    Python,
    /// A compiled Java class (about 100 ms per run, the course's language).
    Java,
}

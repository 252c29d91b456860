//! Arguments of the commands that take grading off one machine: `merge` (the parts of a `--shard` run) and
//! `gradescope` (an autograder bundle, and the step its `run_autograder` calls).

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

use crate::harness::model::Points;

/// `referee merge`.
#[derive(Debug, Clone, Args)]
#[command(after_help = "Each folder is the --out of one `--shard K/N` run (its shard.json says which part of which \
run). The merged folder holds what one unsharded run writes: results, Gradescope files, feedback, gradebook, JUnit, \
report, games; for a tournament the standings and ratings computed over every game. A folder given twice counts \
once; merging again rewrites the same files.")]
pub struct MergeArgs {
    /// The shards' --out folders.
    #[arg(required = true, num_args = 1..)]
    pub shards: Vec<PathBuf>,
    /// Where the merged results go (a new folder, or one an earlier merge wrote).
    #[arg(long)]
    pub out: PathBuf,
}

/// `referee gradescope ...`.
#[derive(Debug, Clone, Subcommand)]
pub enum GradescopeCommand {
    /// Make autograder.zip (setup.sh, run_autograder, this referee binary, the suite, config.json) from the
    /// arguments you give `referee grade`.
    Bundle(BundleArgs),
    /// Grade the submission under the autograder root and write results/results.json (what run_autograder runs).
    Run(RunArgs),
}

/// Who sees a Gradescope result (the specification's values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GradescopeVisibility {
    /// Shown at once.
    Visible,
    /// Never shown to the student.
    Hidden,
    /// Shown after the due date.
    #[value(name = "after_due_date", alias = "after-due-date")]
    AfterDueDate,
    /// Shown once grades are published.
    #[value(name = "after_published", alias = "after-published")]
    AfterPublished,
}

/// `referee gradescope bundle`.
#[derive(Debug, Clone, Args)]
#[command(after_help = "GRADE-ARGS are what follows `referee grade` in the command you use, minus the class and \
output options (--dir, --submissions, --out, --format, -j, --fresh, --shard), which the autograder supplies: \
`--suite S --build B --cmd C [limits] [--accept ...]` for a suite, `mancala [--stones ...] [--points P] ...` or \
`othello [--games G] [--size 6] ...` for an agent, `exercise --seed S --kind K,...` for written problems (each \
student graded on their own variant; --id-field says which submission_metadata.json field is their id). A `--` \
before them is optional.\n\
Examples:\n  referee gradescope bundle --out autograder.zip -- --suite builtin:takestones-stats-2019 --shell \\\n    \
--build 'javac -d {dir} {dir}/*.java' --cmd 'java -cp {dir} TakeStones {args}'\n  referee gradescope bundle --out \
othello.zip -- othello --games 2 --size 6 --time 2 --seed 7\n\
Without --solution, what the arguments show to be wrong is refused: a shell pattern or operator in --cmd/--build \
without --shell, a --cmd without {args} for a suite whose cases have arguments, game options `grade` would refuse.")]
pub struct BundleArgs {
    /// The zip to write.
    #[arg(long, default_value = "autograder.zip")]
    pub out: PathBuf,
    /// Scale every score so the assignment is worth this many points (suite assignments; the game graders take
    /// their own --points).
    #[arg(long, value_parser = Points::parse_rubric)]
    pub points: Option<Points>,
    /// Visibility of the whole result (default: Gradescope's assignment setting).
    #[arg(long, value_enum)]
    pub visibility: Option<GradescopeVisibility>,
    /// Who sees run_autograder's own output (the grader's log).
    #[arg(long, value_enum, default_value = "hidden")]
    pub stdout_visibility: GradescopeVisibility,
    /// More Ubuntu packages for setup.sh to install (comma-separated), besides the JDK and/or python3 the command
    /// needs.
    #[arg(long, value_delimiter = ',')]
    pub packages: Vec<String>,
    /// The referee binary to ship (default: this one). It must run on Gradescope's Ubuntu 22.04/24.04 images.
    #[arg(long)]
    pub binary: Option<PathBuf>,
    /// `exercise` assignments: the field of submission_metadata.json's first user holding the id the sheets were
    /// made for: email (the default), email-login (the part before the @, such as a NetID), sid, name or id.
    #[arg(long, value_parser = ["email", "email-login", "sid", "name", "id"])]
    pub id_field: Option<String>,
    /// A known-correct hand-in (folder or zip), graded now with the grade arguments: unless it gets full marks the
    /// zip is not written (exit 3). It is shipped too, with its result, so the autograder can tell a broken set-up
    /// on Gradescope from a student's fault.
    #[arg(long, value_name = "DIR")]
    pub solution: Option<PathBuf>,
    /// The `referee grade` arguments of the assignment.
    #[arg(value_name = "GRADE-ARGS", required = true, num_args = 1.., trailing_var_arg = true)]
    #[arg(allow_hyphen_values = true)]
    pub grade: Vec<String>,
}

/// `referee gradescope run`.
#[derive(Debug, Clone, Args)]
#[command(after_help = "Reads ROOT/source/config.json (written by `gradescope bundle`), grades ROOT/submission \
and writes ROOT/results/results.json in Gradescope's format, also when grading fails (the result then says why).")]
pub struct RunArgs {
    /// The autograder root (holding source/, submission/, results/); default $AUTOGRADER_ROOT or /autograder.
    #[arg(long)]
    pub root: Option<PathBuf>,
}

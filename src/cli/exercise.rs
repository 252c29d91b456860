//! Arguments of `referee exercise`: per-student variants of the written problems, made, graded and checked.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::ColorChoice;
use crate::exercise::Kind;
use crate::harness::model::Points;

/// `referee exercise ...`.
#[derive(Debug, Clone, Subcommand)]
pub enum ExerciseCommand {
    /// Make every student's sheet (Markdown, and HTML with the figures), answer template, and the class key.
    Make(ExerciseMakeArgs),
    /// Grade answer files against each student's own variants: a class folder (--submissions) or one (--dir).
    Grade(ExerciseGradeArgs),
    /// Check the form of an answer file (every part present and readable); it never says whether an answer is
    /// right.
    Check(ExerciseCheckArgs),
}

/// `referee exercise make`.
#[derive(Debug, Clone, Args)]
#[command(after_help = "Writes OUT/students/<id>/sheet.md, sheet.html and answers.txt for each student, and \
OUT/key.md and OUT/key.csv for the TA. A student's problems are a pure function of the seed, the id, the kind and \
the generator version: the same command makes the same files, and grading needs only the seed. Keep the seed from \
students (with it, referee makes the key).")]
pub struct ExerciseMakeArgs {
    /// The problems, in the order the sheet asks them: alphabeta, expectimax, mdp, csp, hillclimb
    /// (comma-separated).
    #[arg(long, value_enum, value_delimiter = ',', required = true)]
    pub kind: Vec<Kind>,
    /// The students: a roster file (one id a line, or a CSV with an id column such as Canvas's export), or ids
    /// separated by commas.
    #[arg(long, value_name = "ROSTER|ID,ID,...")]
    pub ids: String,
    /// The roster's column that holds the ids (by default: id, netid, SIS Login ID, login, username, uni, sid,
    /// student id or email, the first the header has).
    #[arg(long, value_name = "NAME")]
    pub id_column: Option<String>,
    /// The class's seed (any number; the same for make and grade, kept secret).
    #[arg(long)]
    pub seed: u64,
    /// Where the sheets and the key go.
    #[arg(long)]
    pub out: PathBuf,
    /// Students at once (default: all cores).
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
}

/// `referee exercise grade`.
#[derive(Debug, Clone, Args)]
#[command(after_help = "A hand-in is a folder or zip holding the filled-in answer template (any .txt file with \
sections such as [alphabeta]), or the answer file itself (alice.txt); ids follow `referee grade`'s rules. A class \
run writes what `referee grade` writes (results/, gradescope/, feedback/, gradebook.csv, junit.xml, report.json, \
report.html), resumes, and takes --shard for `referee merge`. A hand-in is graded against the sheet of the id its \
answer file's `variant =` lines fit among the roster's (--ids), its name as it is and its safe id. A hand-in that \
cannot be graded (an answer file made for another variant: check --seed; a loose file that is no answer file) gets \
a row that says why, with no score.")]
#[command(group(clap::ArgGroup::new("what").required(true).args(["dir", "submissions"])))]
pub struct ExerciseGradeArgs {
    /// The seed the sheets were made with.
    #[arg(long)]
    pub seed: u64,
    /// The problems the sheets asked (as given to make).
    #[arg(long, value_enum, value_delimiter = ',', required = true)]
    pub kind: Vec<Kind>,
    /// Points per problem (default 10; a decimal above 0, at most 9 decimals); each part's share is fixed by its
    /// problem.
    #[arg(long, value_parser = Points::parse_rubric)]
    pub points: Option<Points>,
    /// One hand-in: a folder, a zip or an answer file.
    #[arg(long, conflicts_with = "submissions")]
    pub dir: Option<PathBuf>,
    /// With --dir: the student's id (default: from the hand-in's name, as for a class).
    #[arg(long, requires = "dir")]
    pub id: Option<String>,
    /// The roster the sheets were made for (as given to make: a file, or ids separated by commas): a hand-in
    /// named as make named its folder (`bob_smith` for `bob smith`) is graded against that id's sheet. Without it
    /// an id is the hand-in's name as it is.
    #[arg(long, value_name = "ROSTER|ID,ID,...", conflicts_with = "id")]
    pub ids: Option<String>,
    /// The roster's column that holds the ids (as for make).
    #[arg(long, value_name = "NAME", requires = "ids")]
    pub id_column: Option<String>,
    /// A class: one folder, zip or answer .txt file per student.
    #[arg(long)]
    pub submissions: Option<PathBuf>,
    /// Where a class run writes its results (default: ./referee-results).
    #[arg(long, requires = "submissions")]
    pub out: Option<PathBuf>,
    /// Re-grade every student, ignoring results of earlier runs in --out.
    #[arg(long, requires = "submissions")]
    pub fresh: bool,
    /// Run only part K of N (`--shard 2/10`): students dealt round-robin by sorted id; `referee merge` puts the
    /// parts together.
    #[arg(long, requires = "submissions", value_name = "K/N")]
    pub shard: Option<String>,
    /// Students at once (default: all cores).
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
    /// Report format for one hand-in (a class run writes all of them).
    #[arg(long, value_enum)]
    pub format: Option<crate::harness::render::Format>,
    /// Color: auto, always, never.
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorChoice,
}

/// `referee exercise check`.
#[derive(Debug, Clone, Args)]
#[command(after_help = "Checks that every part of every problem has exactly one answer, written so it can be read \
(numbers, labels, sets, windows, lists as the template says), read exactly as grading reads it: each readable \
answer is printed as it will be graded. Whether a label names a node of your tree is checked when graded.")]
pub struct ExerciseCheckArgs {
    /// The problems on your sheet (the template's first lines name them).
    #[arg(long, value_enum, value_delimiter = ',', required = true)]
    pub kind: Vec<Kind>,
    /// Your answer file.
    #[arg(long)]
    pub answers: PathBuf,
}

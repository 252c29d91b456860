//! Arguments of the platforms `referee grade` writes for besides Gradescope: Classroom 50's identity fields
//! (`--format classroom50`) and PrairieLearn's external grader (`referee prairielearn`).

use std::path::PathBuf;

use clap::Args;

/// What identifies a Classroom 50 submission in its `result.json`. Each flag falls back to the environment
/// variable the Classroom 50 runner sets for an autograder (named in its help); `--format classroom50` refuses to
/// start, naming both, when one it needs is in neither.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Classroom 50 (--format classroom50)")]
pub struct Classroom50Args {
    /// The classroom's short name (default: $CLASSROOM).
    #[arg(long)]
    pub classroom: Option<String>,
    /// The assignment's slug (default: $ASSIGNMENT).
    #[arg(long)]
    pub assignment: Option<String>,
    /// The repository owner graded (default: $OWNER, then $USERNAME).
    #[arg(long)]
    pub owner: Option<String>,
    /// individual, group or team (team is written as group, the schema's word; default: $ASSIGNMENT_TYPE, then
    /// individual).
    #[arg(long)]
    pub assignment_type: Option<String>,
    /// The submit/... tag graded (default: $SUBMISSION_TAG).
    #[arg(long)]
    pub submission_tag: Option<String>,
    /// Link to the graded commit (default: $COMMIT_URL, then one made from $GITHUB_SERVER_URL,
    /// $GITHUB_REPOSITORY and $GITHUB_SHA).
    #[arg(long)]
    pub commit_url: Option<String>,
    /// Link to the submission's release (default: $RELEASE_URL, then the commit link).
    #[arg(long)]
    pub release_url: Option<String>,
    /// Link to the review diff (default: $REVIEW_URL, then the commit link).
    #[arg(long)]
    pub review_url: Option<String>,
    /// When it was submitted, YYYY-MM-DDTHH:MM:SSZ (default: now; the runner replaces it with the commit's time).
    #[arg(long)]
    pub submitted_at: Option<String>,
    /// Also write the student's feedback (Markdown, as `show` allows) to this file: the runner publishes a
    /// `release-body.md` beside result.json as the release's text.
    #[arg(long)]
    pub release_body: Option<PathBuf>,
}

/// `referee prairielearn`.
#[derive(Debug, Clone, Args)]
#[command(after_help = "PrairieLearn's external grader: reads ROOT/data/data.json and the files in ROOT/student, \
grades them against the suite in ROOT/tests (or ROOT/serverFilesCourse, or --suite) with the `referee grade` \
arguments given after the options, and writes ROOT/results/results.json: score in [0, 1], one test per case with \
points, under PrairieLearn's 1 MB limit. A build error, or a problem of the grader's own, is written as \
`gradable: false` with `format_errors`, so the student loses no attempt. ROOT is --root, else $PRAIRIELEARN_ROOT, \
else /grade.\nExample info.json entrypoint: [\"/usr/local/bin/referee\", \"prairielearn\", \"--shell\", \"--build\", \
\"javac -d {dir} {dir}/*.java\", \"--cmd\", \"java -cp {dir} TakeStones {args}\"]")]
pub struct PrairielearnArgs {
    /// The job's root (holding data/, student/, tests/, results/).
    #[arg(long)]
    pub root: Option<PathBuf>,
    /// The suite, as `grade --suite` takes it; a relative path is under ROOT (default: tests/ when it holds a
    /// suite, else serverFilesCourse/).
    #[arg(long)]
    pub suite: Option<String>,
    /// The rest of the `referee grade` arguments: --cmd, --build, --shell, --timeout, --show, ...
    #[arg(value_name = "GRADE-ARGS", num_args = 0.., trailing_var_arg = true, allow_hyphen_values = true)]
    pub grade: Vec<String>,
}

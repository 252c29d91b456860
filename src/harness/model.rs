//! The one result model: what a grading run found, computed once by the comparer and only formatted by renderers.
//!
//! `RunReport` -> `SubmissionResult` (one student) -> `CaseResult` (one case). Serialized as JSON (`--format json`,
//! and the per-student files of a class run), so its shape is a versioned contract: [`SCHEMA_VERSION`].

use serde::{Deserialize, Serialize};

pub use super::cause::{Cause, CauseKind};

/// Version of the JSON shape below; bumped on any incompatible change.
pub const SCHEMA_VERSION: u32 = 1;

/// How a case ended. Only [`Status::Passed`] earns full credit; only [`Status::HarnessError`] is our fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// The output matched (under the suite's comparison policy and accepted readings).
    Passed,
    /// The program finished normally but printed something else.
    Failed,
    /// Still running at the wall-clock limit; the whole process tree was killed.
    Timeout,
    /// Killed by a signal it did not ask for (segfault, abort, CPU or memory limit).
    Crashed,
    /// Exited with a nonzero code.
    NonzeroExit,
    /// Printed more than the output cap; killed there.
    OutputLimit,
    /// The submission's build step failed, so it never ran.
    BuildError,
    /// The grader could not run the case (a missing interpreter, an unreadable file): never blamed on the student.
    HarnessError,
}

impl Status {
    /// Whether the case passed.
    pub fn is_pass(self) -> bool {
        self == Status::Passed
    }

    /// The word reports use.
    pub fn label(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed => "failed",
            Status::Timeout => "timeout",
            Status::Crashed => "crashed",
            Status::NonzeroExit => "nonzero exit",
            Status::OutputLimit => "output limit",
            Status::BuildError => "build error",
            Status::HarnessError => "harness error",
        }
    }
}

/// Who sees a case's result (Gradescope's visibility values).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Visibility {
    /// Always shown.
    #[default]
    Visible,
    /// Never shown to the student.
    Hidden,
    /// Shown once the due date has passed.
    AfterDueDate,
}

/// A captured stream: text (invalid UTF-8 replaced), whether the cap cut it, and its raw size.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Captured {
    /// The bytes as text (`U+FFFD` for invalid UTF-8).
    pub text: String,
    /// Whether the output cap cut it short.
    pub truncated: bool,
    /// How many bytes were kept.
    pub bytes: usize,
    /// Whether the bytes were not valid UTF-8.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub invalid_utf8: bool,
}

/// The first place the output differs from the closest accepted expected output.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FirstDifference {
    /// 1-based line number (after normalization).
    pub line: usize,
    /// The expected line (`None`: the expected output had ended).
    pub expected: Option<String>,
    /// The printed line (`None`: the output had ended).
    pub actual: Option<String>,
}

/// One case of one submission.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseResult {
    /// The case's name.
    pub name: String,
    /// The program's arguments.
    pub args: Vec<String>,
    /// How it ended.
    pub status: Status,
    /// Points earned.
    pub score: f64,
    /// Points available.
    pub max_score: f64,
    /// Who sees it.
    pub visibility: Visibility,
    /// The case's tags.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// One line on what happened ("exit code 3", "killed by SIGSEGV", "no output after 10 s").
    pub detail: String,
    /// The spec-silent reading the output matched, when it was not the reference default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reading: Option<String>,
    /// Which known bug (or accepted reading) reproduces a wrong output, when the diagnosis could tell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diagnosis: Option<String>,
    /// Why the case failed (or which reading it passed under), in the shared cause vocabulary.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub causes: Vec<Cause>,
    /// Lines matched / lines expected, when the suite gives per-line credit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines_matched: Option<(usize, usize)>,
    /// Where the output first differs (failed cases).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difference: Option<FirstDifference>,
    /// The expected output (the reference default reading).
    pub expected: String,
    /// What the program printed.
    pub stdout: Captured,
    /// What it printed on stderr.
    pub stderr: Captured,
    /// Wall-clock time of the run.
    pub elapsed_ms: u64,
}

impl CaseResult {
    /// A visible case named `name` with `status`, worth `max_score` and scored 0, with nothing run or compared yet:
    /// the base that builders fill in.
    pub fn new(name: String, status: Status, max_score: f64) -> CaseResult {
        CaseResult {
            name,
            args: Vec::new(),
            status,
            score: 0.0,
            max_score,
            visibility: Visibility::Visible,
            tags: Vec::new(),
            detail: String::new(),
            reading: None,
            diagnosis: None,
            causes: Vec::new(),
            lines_matched: None,
            difference: None,
            expected: String::new(),
            stdout: Captured::default(),
            stderr: Captured::default(),
            elapsed_ms: 0,
        }
    }
}

/// The build step of a submission.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BuildResult {
    /// Whether it succeeded.
    pub ok: bool,
    /// The command that ran.
    pub command: String,
    /// What went wrong, with the compiler's message (empty when it succeeded).
    pub message: String,
    /// Wall-clock time.
    pub elapsed_ms: u64,
}

/// Everything about one submission (one student).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SubmissionResult {
    /// The student id (from the folder or zip name), or `submission` for a single one.
    pub id: String,
    /// Where it came from.
    pub source: String,
    /// The build step, when there was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build: Option<BuildResult>,
    /// One result per case, in suite order.
    pub cases: Vec<CaseResult>,
    /// Sum of case scores.
    pub score: f64,
    /// Sum of case maxima.
    pub max_score: f64,
    /// Identifies the grading run that produced this result (class runs resume by it).
    pub run: String,
    /// Fingerprint of the suite and commands graded against; a resumed run re-grades on a mismatch.
    pub fingerprint: String,
}

impl SubmissionResult {
    /// Whether every case passed.
    pub fn all_passed(&self) -> bool {
        self.cases.iter().all(|c| c.status.is_pass())
    }

    /// Whether any case was the grader's fault.
    pub fn has_harness_error(&self) -> bool {
        self.cases.iter().any(|c| c.status == Status::HarnessError)
    }
}

/// A whole grading run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    /// [`SCHEMA_VERSION`].
    pub schema: u32,
    /// The suite's name.
    pub suite: String,
    /// One entry per submission, sorted by id.
    pub submissions: Vec<SubmissionResult>,
}

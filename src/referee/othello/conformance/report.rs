//! The check's result: per function how many calls agreed, and every call that did not, with its board.

use serde::Serialize;

use super::function::{Form, Function};
use super::proof::Proof;
use crate::harness::cause::Cause;

/// Everything one check found (serialized as `--json` writes it).
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The student's file as given.
    pub file: String,
    /// The module name it was imported under.
    pub module: String,
    /// Python's version.
    pub python: String,
    /// Seed of the random cases (`--seed` replays them).
    pub seed: u64,
    /// Number of fixed cases.
    pub fixed_cases: usize,
    /// Number of random cases.
    pub random_cases: usize,
    /// The per-call wall-clock limit, in seconds.
    pub timeout_seconds: f64,
    /// What importing the module raised or why it failed; the check fails when there is one.
    pub import_problem: Option<String>,
    /// Whether the import failed so badly that nothing could be called.
    pub import_fatal: bool,
    /// One entry per template function, in [`Function::ALL`] order (empty when the import was fatal).
    pub functions: Vec<FunctionReport>,
    /// Wall-clock seconds the check took.
    pub seconds: f64,
}

/// The calls of one function.
#[derive(Clone, Debug, Serialize)]
pub struct FunctionReport {
    /// The function.
    pub function: Function,
    /// How it was called.
    pub form: Form,
    /// Its signature as Python shows it, when it exists.
    pub signature: Option<String>,
    /// Calls planned.
    pub total: usize,
    /// Calls answered right.
    pub agreed: usize,
    /// Calls answered wrong.
    pub mismatches: usize,
    /// Calls that raised (or killed Python).
    pub errors: usize,
    /// Calls that overstayed the timeout.
    pub timeouts: usize,
    /// Calls not made after [`super::MAX_TIMEOUTS`] timeouts of this function.
    pub skipped: usize,
    /// Every call that did not agree (skipped ones excepted), in order.
    pub failures: Vec<Failure>,
    /// Why it disagrees (or which accepted reading it follows), when the cause catalog could tell.
    pub causes: Vec<Cause>,
    /// The proof behind its `wrong-on-its-own` cause: the reference with this function replaced by the student's
    /// reproduces every answer observed ([`super::proof`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<Proof>,
    /// What differs and how to look, when isolation found it wrong but nothing is proven: never a named cause.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub symptoms: Vec<String>,
}

/// How a call went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// A wrong answer.
    Mismatch,
    /// An exception, or Python died.
    Error,
    /// No answer in time.
    Timeout,
}

/// One call that did not agree.
#[derive(Clone, Debug, Serialize)]
pub struct Failure {
    /// What went wrong.
    pub kind: FailureKind,
    /// The call as Python source with the board written `board`.
    pub call: String,
    /// Which case (`fixed 3`, `random 12`).
    pub case: String,
    /// The board as the course's Python literal (paste it to replay).
    pub board: String,
    /// The board drawn (`X` dark, `O` light).
    pub drawing: String,
    /// The right answer.
    pub expected: String,
    /// The student's answer, exception or `timeout`.
    pub got: String,
}

impl FunctionReport {
    /// Whether the function counts against the check: missing, or some call not agreed. An unsupported
    /// signature is reported but not held against it (nothing was called).
    pub fn failed(&self) -> bool {
        match self.form {
            Form::Missing => true,
            Form::Unsupported => false,
            Form::WithLimit | Form::WithoutLimit => self.agreed < self.total,
        }
    }
}

impl Report {
    /// Whether everything agreed: a clean import, every function present and every call right.
    pub fn passed(&self) -> bool {
        self.import_problem.is_none() && !self.functions.iter().any(FunctionReport::failed)
    }
}

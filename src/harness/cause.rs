//! Causes: why a case failed, in one vocabulary for every game, so every renderer words them alike and a class
//! summary can count them.
//!
//! A [`Cause`] names one explanation of a wrong answer: a known [`CauseKind::Bug`] that reproduces it, a
//! [`CauseKind::AcceptedReading`] of something the spec leaves open, or a [`CauseKind::LocatedComponent`] when no
//! known bug fits but probing pinned the difference to one part of the program (its evaluation, its counters, its
//! tie-break). Diagnosers fill [`crate::harness::model::CaseResult::causes`]; renderers only format it.
//!
//! Grading asks a [`Diagnose`] for the causes of each failed case. The harness defines the trait and the diagnosis
//! layer implements it; whoever grades registers it ([`register`]), so the harness never reaches up into the
//! diagnosis. Without one registered, failed cases carry no causes.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::harness::suite::{Reading, ReferenceSpec};

/// Names the known bugs a wrong output shows, for a suite whose reference knows them.
pub trait Diagnose: Send + Sync {
    /// The causes of `stdout` on the case with arguments `args`, in a suite with `reference` that accepts the
    /// spec-silent readings `accept` (empty when nothing is known).
    fn causes(&self, reference: &ReferenceSpec, args: &[String], stdout: &[u8], accept: &[Reading]) -> Vec<Cause>;
}

static DIAGNOSIS: OnceLock<&'static dyn Diagnose> = OnceLock::new();

/// Registers the diagnosis grading asks (the first registration stays; later ones change nothing).
pub fn register(diagnosis: &'static dyn Diagnose) {
    let _ = DIAGNOSIS.set(diagnosis);
}

/// The registered diagnosis, if any.
pub fn registered() -> Option<&'static dyn Diagnose> {
    DIAGNOSIS.get().copied()
}

/// What sort of explanation a [`Cause`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CauseKind {
    /// A known bug that reproduces every wrong answer.
    Bug,
    /// A convention the spec leaves open; the answer is accepted under it.
    AcceptedReading,
    /// No known bug fits, but probing located the difference to one component.
    LocatedComponent,
}

impl CauseKind {
    /// The words reports use.
    pub fn label(self) -> &'static str {
        match self {
            CauseKind::Bug => "bug",
            CauseKind::AcceptedReading => "accepted reading",
            CauseKind::LocatedComponent => "located",
        }
    }
}

/// One explanation of a case's outcome.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Cause {
    /// A stable kebab-case name (`depth-limit-off-by-one`, `evaluation`), the key class summaries count by.
    pub name: String,
    /// Bug, accepted reading or located component.
    pub kind: CauseKind,
    /// One sentence for the student.
    pub sentence: String,
    /// What shows it: a state and the two values, the command that reproduces it (one line each).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<String>,
}

impl Cause {
    /// A cause with no evidence yet.
    pub fn new(name: impl Into<String>, kind: CauseKind, sentence: impl Into<String>) -> Cause {
        Cause { name: name.into(), kind, sentence: sentence.into(), evidence: Vec::new() }
    }

    /// The same cause with one more line of evidence.
    pub fn with_evidence(mut self, line: impl Into<String>) -> Cause {
        self.evidence.push(line.into());
        self
    }

    /// `name (kind): sentence`, the head line every renderer prints.
    pub fn headline(&self) -> String {
        format!("{} ({}): {}", self.name, self.kind.label(), self.sentence)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_serialize_in_kebab_case_and_round_trip() {
        let cause = Cause::new("x", CauseKind::LocatedComponent, "s.").with_evidence("e");
        let json = serde_json::to_string(&cause).unwrap();
        assert!(json.contains(r#""kind":"located-component""#), "{json}");
        assert_eq!(serde_json::from_str::<Cause>(&json).unwrap(), cause);
        let bare = serde_json::to_string(&Cause::new("y", CauseKind::AcceptedReading, "s.")).unwrap();
        assert!(!bare.contains("evidence"), "{bare}");
        assert_eq!(Cause::new("y", CauseKind::Bug, "it.").headline(), "y (bug): it.");
    }
}

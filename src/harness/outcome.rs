//! How one hand-in ended (issue 33, item 2): every hand-in of a class ends in exactly one [`Outcome`], and every
//! renderer and exit code derives from it.
//!
//! - [`Outcome::Graded`]: a score, out of a maximum (a build error or a crash is a graded 0: the student's);
//! - [`Outcome::NotGraded`]: no score, with the reason (an answer file for another variant, a loose file that is
//!   no answer file, a class in which every hand-in failed the same way): the gradebook's score cell is empty and
//!   no platform file holds a score for it, never a 0;
//! - [`Outcome::GraderFailure`]: the grader could not grade it (a harness error): nothing final is written for
//!   that student, and the run exits 3.

use super::model::{Points, Status, SubmissionResult};

/// How one hand-in ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome<'a> {
    /// Graded: `score` of `max`.
    Graded {
        /// Points earned.
        score: Points,
        /// Points available.
        max: Points,
    },
    /// Not graded, for the reason given; no score.
    NotGraded(&'a str),
    /// The grader failed (the first harness error's detail); no score.
    GraderFailure(&'a str),
}

impl Outcome<'_> {
    /// The outcome of `s`: a harness error in any case is the grader's failure, else a reason not to grade makes
    /// it not graded, else it is graded.
    pub fn of(s: &SubmissionResult) -> Outcome<'_> {
        if let Some(case) = s.cases.iter().find(|c| c.status == Status::HarnessError) {
            return Outcome::GraderFailure(&case.detail);
        }
        match &s.not_graded {
            Some(reason) => Outcome::NotGraded(reason),
            None => Outcome::Graded { score: s.score, max: s.max_score },
        }
    }

    /// The score, only when graded.
    pub fn score(self) -> Option<Points> {
        match self {
            Outcome::Graded { score, .. } => Some(score),
            _ => None,
        }
    }

    /// Whether it was graded.
    pub fn is_graded(self) -> bool {
        matches!(self, Outcome::Graded { .. })
    }

    /// The short word for reports: `graded`, `not graded`, `grader failure`.
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Graded { .. } => "graded",
            Outcome::NotGraded(_) => "not graded",
            Outcome::GraderFailure(_) => "grader failure",
        }
    }

    /// Why there is no score, as given (for a format that escapes its own text, such as the gradebook):
    /// `not graded: REASON` or `not graded: the grader failed (DETAIL); not a fault of the hand-in`; `None` when
    /// graded.
    pub fn reason(self) -> Option<String> {
        match self {
            Outcome::Graded { .. } => None,
            Outcome::NotGraded(reason) => Some(format!("not graded: {reason}")),
            Outcome::GraderFailure(detail) => {
                Some(format!("not graded: the grader failed ({detail}); not a fault of the hand-in"))
            }
        }
    }

    /// [`Outcome::reason`] with its hidden characters shown as `\u{..}` ([`crate::visible::visible`]): the line
    /// people read.
    pub fn reason_line(self) -> Option<String> {
        self.reason().map(|r| crate::visible::visible(&r))
    }

    /// `score / max` by the display rule when graded (with `spaced`, `score / max`, else `score/max`), otherwise
    /// `not graded` or `not graded (grader failure)`.
    pub fn score_text(self, spaced: bool) -> String {
        match self {
            Outcome::Graded { score, max } => crate::harness::points::pair(score, max, spaced),
            Outcome::NotGraded(_) => "not graded".into(),
            Outcome::GraderFailure(_) => "not graded (grader failure)".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes.
    use super::*;
    use crate::harness::model::CaseResult;

    fn result(status: Status, not_graded: Option<&str>) -> SubmissionResult {
        let mut case = CaseResult::new("c".into(), status, Points::whole(2));
        case.detail = "python3: not found".into();
        SubmissionResult {
            id: "a".into(),
            source: String::new(),
            build: None,
            cases: vec![case],
            score: Points::ZERO,
            max_score: Points::whole(2),
            run: String::new(),
            fingerprint: String::new(),
            handin: String::new(),
            sandbox: Vec::new(),
            not_graded: not_graded.map(String::from),
        }
    }

    #[test]
    fn each_hand_in_has_exactly_one_outcome_and_only_a_graded_one_has_a_score() {
        let graded = result(Status::Failed, None);
        assert_eq!(Outcome::of(&graded), Outcome::Graded { score: Points::ZERO, max: Points::whole(2) });
        assert_eq!(Outcome::of(&graded).score_text(true), "0 / 2");
        let not = result(Status::Failed, Some("for variant B"));
        assert_eq!(Outcome::of(&not), Outcome::NotGraded("for variant B"));
        assert_eq!(Outcome::of(&not).score(), None);
        assert_eq!(Outcome::of(&not).reason_line().as_deref(), Some("not graded: for variant B"));
        // The grader's failure wins over a reason not to grade: it is what the TA must fix first.
        let failed = result(Status::HarnessError, Some("for variant B"));
        assert_eq!(Outcome::of(&failed), Outcome::GraderFailure("python3: not found"));
        assert!(!Outcome::of(&failed).is_graded() && Outcome::of(&failed).score().is_none());
    }
}

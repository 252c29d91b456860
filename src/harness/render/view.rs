//! What students see of a case, decided once (issue 33, item 3): every student-facing renderer (Gradescope,
//! Classroom 50, PrairieLearn, JUnit, Markdown feedback) asks [`StudentView::reveal`] and applies the answer.
//!
//! The rules:
//! - a case is never more visible than the TA chose: its own visibility (a suite's `visibility`), and the
//!   submission-wide visibility the TA gave a platform (Gradescope's top-level `visibility`, set by
//!   `gradescope bundle --visibility`), whichever is later; Gradescope lets a test override the top level, so every
//!   test is written at least that late;
//! - later means: visible, then after the due date, then after grades are published, then hidden;
//! - a platform without a due-date gate (Classroom 50, PrairieLearn, a feedback file, a JUnit report) cannot hold a
//!   result back until a date: a case to be shown later is hidden there, unless the TA says it may be shown at once
//!   ([`StudentView::show_later`]).
//!
//! What is shown of a visible case is the case's [`Show`](crate::harness::model::Show) (`excerpt::case_lines`).

use crate::harness::model::{CaseResult, Visibility};

/// When students may see a case, from soonest to latest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reveal {
    /// At once.
    #[default]
    Visible,
    /// Once the assignment's due date has passed.
    AfterDueDate,
    /// Once the grades are published.
    AfterPublished,
    /// Never.
    Hidden,
}

impl Reveal {
    /// Gradescope's spelling.
    pub fn gradescope(self) -> &'static str {
        match self {
            Reveal::Visible => "visible",
            Reveal::AfterDueDate => "after_due_date",
            Reveal::AfterPublished => "after_published",
            Reveal::Hidden => "hidden",
        }
    }

    /// Reads Gradescope's spelling (`visible`, `after_due_date`, `after_published`, `hidden`).
    pub fn from_gradescope(name: &str) -> Option<Reveal> {
        [Reveal::Visible, Reveal::AfterDueDate, Reveal::AfterPublished, Reveal::Hidden]
            .into_iter()
            .find(|r| r.gradescope() == name)
    }

    /// Whether nothing but the case's status and points may be shown now.
    pub fn is_hidden(self) -> bool {
        self == Reveal::Hidden
    }
}

/// The TA's student-view choices for a platform, applied to every case the same way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StudentView {
    /// The submission-wide visibility (Gradescope's top-level `visibility`): no case is shown sooner.
    pub floor: Reveal,
    /// Whether, on a platform without a due-date gate, a case to be shown later is shown at once (the TA's
    /// explicit choice; off by default: such a case is hidden there).
    pub show_later: bool,
}

impl StudentView {
    /// Every case as its own visibility says, on a platform with a due-date gate (the default).
    pub const DEFAULT: StudentView = StudentView { floor: Reveal::Visible, show_later: false };

    /// When a platform shows `case`: `gated` says whether it can hold a result back until a date (Gradescope).
    pub fn reveal(&self, case: &CaseResult, gated: bool) -> Reveal {
        let own = match case.visibility {
            Visibility::Visible => Reveal::Visible,
            Visibility::AfterDueDate => Reveal::AfterDueDate,
            Visibility::Hidden => Reveal::Hidden,
        };
        let latest = own.max(self.floor);
        match latest {
            Reveal::AfterDueDate | Reveal::AfterPublished if !gated => {
                if self.show_later {
                    Reveal::Visible
                } else {
                    Reveal::Hidden
                }
            }
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes.
    use super::*;
    use crate::harness::model::Status;

    fn case(visibility: Visibility) -> CaseResult {
        CaseResult { visibility, ..CaseResult::new("c".into(), Status::Passed, 1.0) }
    }

    #[test]
    fn a_case_is_never_shown_sooner_than_the_ta_chose() {
        let all = [Reveal::Visible, Reveal::AfterDueDate, Reveal::AfterPublished, Reveal::Hidden];
        for floor in all {
            for show_later in [false, true] {
                let view = StudentView { floor, show_later };
                for v in [Visibility::Visible, Visibility::AfterDueDate, Visibility::Hidden] {
                    let gated = view.reveal(&case(v), true);
                    assert!(gated >= floor, "{floor:?} {v:?}");
                    let ungated = view.reveal(&case(v), false);
                    assert!(matches!(ungated, Reveal::Visible | Reveal::Hidden));
                    if v == Visibility::Hidden || floor == Reveal::Hidden {
                        assert_eq!((gated, ungated), (Reveal::Hidden, Reveal::Hidden));
                    }
                    if !show_later && (v != Visibility::Visible || floor != Reveal::Visible) {
                        assert_eq!(ungated, Reveal::Hidden, "{floor:?} {v:?}");
                    }
                }
            }
        }
        for r in all {
            assert_eq!(Reveal::from_gradescope(r.gradescope()), Some(r));
        }
    }
}

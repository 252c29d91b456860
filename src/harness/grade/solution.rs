//! A TA's known-correct hand-in (`--solution DIR`), graded first with the same command, suite and sandbox as the
//! class: unless it gets full marks, the grader is set up wrong (a command, a build step, a suite, a limit, the
//! machine) and no student may be graded with it. This module says whether it did, and if not, how it failed, in
//! the words a TA needs to fix the setup.

use super::ids::printable;
use crate::harness::model::{CaseResult, Status, SubmissionResult};
use crate::harness::render::format_points;

/// `Ok` when `result` (the solution's) has every point and every scored case passed; otherwise one line that says
/// what it got and how its first failing case went wrong.
///
/// # Errors
/// The line, for the TA.
pub fn full_marks(result: &SubmissionResult) -> Result<(), String> {
    let failing = result.cases.iter().find(|c| c.max_score.is_positive() && !c.status.is_pass());
    let short = result.score < result.max_score;
    match failing {
        None if !short && result.max_score.is_positive() => Ok(()),
        None => Err(format!(
            "the solution gets {} / {}, not full marks",
            format_points(result.score),
            format_points(result.max_score)
        )),
        Some(case) => Err(format!(
            "the solution gets {} / {}, not full marks; its first failing case is {}",
            format_points(result.score),
            format_points(result.max_score),
            describe(result, case)
        )),
    }
}

/// `'official-2': nonzero exit (exit code 1); stderr: ...`, with the line that shows what went wrong.
fn describe(result: &SubmissionResult, case: &CaseResult) -> String {
    let first = |text: &str| text.lines().find(|l| !l.trim().is_empty()).map(str::to_string);
    let telling = match case.status {
        Status::BuildError => result.build.as_ref().and_then(|b| {
            let mut lines = b.message.lines().filter(|l| !l.trim().is_empty());
            let head = lines.next()?.to_string();
            Some(match lines.next() {
                Some(next) => format!("{head} {next}"),
                None => head,
            })
        }),
        Status::Failed => case.difference.as_ref().map(|d| {
            format!(
                "line {}: expected {:?}, printed {:?}",
                d.line,
                d.expected.as_deref().unwrap_or("(end of output)"),
                d.actual.as_deref().unwrap_or("(end of output)")
            )
        }),
        _ => first(&case.stderr.text).map(|l| format!("stderr: {l}")),
    };
    let mut line = format!("'{}': {} ({})", case.name, case.status.label(), case.detail);
    if let Some(telling) = telling {
        line.push_str("; ");
        line.push_str(&telling);
    }
    printable(&line)
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::harness::model::{Captured, FirstDifference};

    fn result(cases: Vec<CaseResult>) -> SubmissionResult {
        SubmissionResult {
            id: "solution".into(),
            source: String::new(),
            build: None,
            score: cases.iter().map(|c| c.score).sum(),
            max_score: cases.iter().map(|c| c.max_score).sum(),
            cases,
            run: String::new(),
            fingerprint: String::new(),
            handin: String::new(),
            sandbox: Vec::new(),
            not_graded: None,
        }
    }

    #[test]
    fn only_every_point_is_full_marks() {
        let passed = CaseResult {
            score: crate::harness::model::Points::from_f64(1.0),
            ..CaseResult::new("a".into(), Status::Passed, 1.0)
        };
        assert_eq!(full_marks(&result(vec![passed.clone()])), Ok(()));
        let crashed = CaseResult {
            detail: "exit code 1".into(),
            stderr: Captured {
                text: "\nError: Could not find or load main class TakeStones\n".into(),
                ..Captured::default()
            },
            ..CaseResult::new("b".into(), Status::NonzeroExit, 1.0)
        };
        assert_eq!(
            full_marks(&result(vec![passed.clone(), crashed])).unwrap_err(),
            "the solution gets 1 / 2, not full marks; its first failing case is 'b': nonzero exit (exit code 1); \
             stderr: Error: Could not find or load main class TakeStones"
        );
        let wrong = CaseResult {
            detail: "output differs from line 3".into(),
            difference: Some(FirstDifference { line: 3, expected: Some("x".into()), actual: None }),
            ..CaseResult::new("c".into(), Status::Failed, 1.0)
        };
        assert!(full_marks(&result(vec![wrong]))
            .unwrap_err()
            .ends_with("line 3: expected \"x\", printed \"(end of output)\""));
        assert!(full_marks(&result(Vec::new())).is_err(), "a solution worth nothing shows nothing");
    }
}

//! The conformance part of `grade othello`: `referee check othello` run on the student's file, one case per search
//! function, the points split evenly among the functions that can be checked.

use crate::app::arena::cases::{captured, case};
use crate::harness::model::{CaseResult, FirstDifference, Points, Status, SubmissionResult};
use crate::referee::othello::conformance::function::Form;
use crate::referee::othello::conformance::render;
use crate::referee::othello::conformance::report::{Failure, FailureKind};
use crate::referee::othello::conformance::{self, Options};
use std::path::Path;

/// Adds the conformance cases worth `points` for the student's agent `file` (as laid out for play, or `None` when
/// it could not be) to `result`, and their points to its score.
pub fn add_check(result: &mut SubmissionResult, file: Option<&Path>, options: &Options, points: Points) {
    let whole = "search functions agree with the reference".to_string();
    let report = match file.map(|f| conformance::run(f, options)) {
        Some(Ok(report)) => report,
        Some(Err(e)) => {
            let status = match e {
                conformance::HarnessError::Input(_) => Status::BuildError,
                conformance::HarnessError::Setup(_) => Status::HarnessError,
            };
            result.cases.push(case(whole, Vec::new(), status, Points::ZERO, points, e.to_string()));
            return total(result);
        }
        None => {
            let status = if result.has_harness_error() { Status::HarnessError } else { Status::BuildError };
            result.cases.push(case(
                whole,
                Vec::new(),
                status,
                Points::ZERO,
                points,
                "not checked: it cannot run".into(),
            ));
            return total(result);
        }
    };
    let counted = report.functions.iter().filter(|f| f.form != Form::Unsupported).count();
    let each = points.share(1, counted as u64);
    let fatal = report.import_fatal;
    for f in &report.functions {
        let name = format!("conformance: {}", f.function.name());
        let (status, score, max, detail) = match f.form {
            Form::Unsupported => {
                (Status::Passed, Points::ZERO, Points::ZERO, "not checked (a signature the check cannot call)".into())
            }
            Form::Missing if fatal => {
                (Status::Failed, Points::ZERO, each, "the module could not be imported".to_string())
            }
            Form::Missing => (Status::Failed, Points::ZERO, each, "missing from the module".to_string()),
            _ if f.failed() => (
                Status::Failed,
                Points::ZERO,
                each,
                format!(
                    "{} of {} calls agree ({} wrong, {} errors, {} timeouts)",
                    f.agreed, f.total, f.mismatches, f.errors, f.timeouts
                ),
            ),
            _ => (Status::Passed, each, each, format!("all {} calls agree", f.total)),
        };
        let mut c = case(name, Vec::new(), status, score, max, detail);
        if let Some(first) = f.failures.first().filter(|_| status == Status::Failed) {
            first_failure(&mut c, first, f.failures.len());
        } else if status == Status::Failed {
            let mut text = String::new();
            render::function(&mut text, f, false);
            c.stdout = captured(&text);
        }
        c.causes = f.causes.clone();
        result.cases.push(c);
    }
    if counted == 0 {
        let why = report.import_problem.clone().unwrap_or_else(|| "no function could be checked".into());
        result.cases.push(case(whole, Vec::new(), Status::Failed, Points::ZERO, points, why));
    }
    total(result);
}

/// Shows the first failing call of a function as a compared case, so every report words it as it words a wrong
/// output (and honours `show`): the board drawn, the call with the board's literal, and the answer the student's function gave as its output, the
/// same with the reference's answer as the expected output, differing on the answer's line.
fn first_failure(c: &mut CaseResult, first: &Failure, count: usize) {
    // The call and the board's literal stand next to the answer, so the diff's context lines show them.
    let mut head = String::new();
    for line in first.drawing.lines() {
        head.push_str(&format!("  {line}\n"));
    }
    head.push_str(&format!("{} [{}] with board = {}\n", first.call, first.case, first.board));
    let got = match first.kind {
        FailureKind::Mismatch => format!("returned: {}", first.got),
        FailureKind::Error => format!("raised: {}", first.got),
        FailureKind::Timeout => format!("no answer: {}", first.got),
    };
    let expected = format!("returned: {}", first.expected);
    let line = head.lines().count() + 1;
    c.tags.retain(|t| t != crate::harness::render::markdown::RECORD_TAG);
    c.detail = format!("{}; the first of {count} failing calls is shown", c.detail);
    c.stdout = captured(&format!("{head}{got}\n"));
    c.expected = format!("{head}{expected}\n");
    c.difference = Some(FirstDifference { line, expected: Some(expected), actual: Some(got) });
}

fn total(result: &mut SubmissionResult) {
    result.score = result.cases.iter().map(|c| c.score).sum();
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::harness::model::Show;
    use crate::harness::render::{gradescope, RenderOptions};

    fn failed_function() -> CaseResult {
        let detail = "109 of 122 calls agree (13 wrong, 0 errors, 0 timeouts)".to_string();
        let mut c = case(
            "conformance: alphabeta_min_node".into(),
            Vec::new(),
            Status::Failed,
            Points::ZERO,
            Points::whole(1),
            detail,
        );
        let failure = Failure {
            kind: FailureKind::Mismatch,
            call: "alphabeta_min_node(board, 2, 1, -inf, inf, 3, 3)".into(),
            case: "random 17".into(),
            board: "[[0, 1], [2, 0]]".into(),
            drawing: ". X\nO .".into(),
            expected: "-4".into(),
            got: "-2".into(),
        };
        first_failure(&mut c, &failure, 13);
        c
    }

    fn gradescope_output(c: CaseResult) -> String {
        let s = SubmissionResult {
            id: "s".into(),
            source: "s".into(),
            build: None,
            score: Points::ZERO,
            max_score: Points::from_f64(1.0),
            cases: vec![c],
            run: "r".into(),
            fingerprint: "f".into(),
            handin: String::new(),
            sandbox: Vec::new(),
            not_graded: None,
        };
        let mut out = Vec::new();
        gradescope::render_submission(&s, &RenderOptions::default(), &mut out).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        v["tests"][0]["output"].as_str().unwrap().to_string()
    }

    #[test]
    fn gradescope_shows_the_first_failing_call_its_board_and_the_expected_answer() {
        let text = gradescope_output(failed_function());
        for part in ["alphabeta_min_node(board, 2, 1", "random 17", "board = [[0, 1], [2, 0]]", "-returned: -4"] {
            assert!(text.contains(part), "{part} missing:\n{text}");
        }
        assert!(text.contains("+returned: -2") && text.contains("first of 13 failing calls"), "{text}");
    }

    #[test]
    fn under_actual_only_the_expected_answer_stays_hidden() {
        let text = gradescope_output(CaseResult { show: Show::ActualOnly, ..failed_function() });
        assert!(text.contains("returned: -2") && text.contains("board = [[0, 1], [2, 0]]"), "{text}");
        assert!(!text.contains("-4"), "{text}");
    }
}

//! The conformance part of `grade othello`: `referee check othello` run on the student's file, one case per search
//! function, the points split evenly among the functions that can be checked.

use crate::app::arena::cases::{captured, case};
use crate::harness::model::{Status, SubmissionResult};
use crate::referee::othello::conformance::function::Form;
use crate::referee::othello::conformance::render;
use crate::referee::othello::conformance::{self, Options};
use std::path::Path;

/// Adds the conformance cases worth `points` for the student's agent `file` (as laid out for play, or `None` when
/// it could not be) to `result`, and their points to its score.
pub fn add_check(result: &mut SubmissionResult, file: Option<&Path>, options: &Options, points: f64) {
    let whole = "search functions agree with the reference".to_string();
    let report = match file.map(|f| conformance::run(f, options)) {
        Some(Ok(report)) => report,
        Some(Err(e)) => {
            let status = match e {
                conformance::HarnessError::Input(_) => Status::BuildError,
                conformance::HarnessError::Setup(_) => Status::HarnessError,
            };
            result.cases.push(case(whole, Vec::new(), status, 0.0, points, e.to_string()));
            return total(result);
        }
        None => {
            let status = if result.has_harness_error() { Status::HarnessError } else { Status::BuildError };
            result.cases.push(case(whole, Vec::new(), status, 0.0, points, "not checked: it cannot run".into()));
            return total(result);
        }
    };
    let counted = report.functions.iter().filter(|f| f.form != Form::Unsupported).count();
    let each = if counted == 0 { 0.0 } else { points / counted as f64 };
    let fatal = report.import_fatal;
    for f in &report.functions {
        let name = format!("conformance: {}", f.function.name());
        let (status, score, max, detail) = match f.form {
            Form::Unsupported => (Status::Passed, 0.0, 0.0, "not checked (a signature the check cannot call)".into()),
            Form::Missing if fatal => (Status::Failed, 0.0, each, "the module could not be imported".to_string()),
            Form::Missing => (Status::Failed, 0.0, each, "missing from the module".to_string()),
            _ if f.failed() => (
                Status::Failed,
                0.0,
                each,
                format!(
                    "{} of {} calls agree ({} wrong, {} errors, {} timeouts)",
                    f.agreed, f.total, f.mismatches, f.errors, f.timeouts
                ),
            ),
            _ => (Status::Passed, each, each, format!("all {} calls agree", f.total)),
        };
        let mut c = case(name, Vec::new(), status, score, max, detail);
        if status == Status::Failed {
            let mut text = String::new();
            render::function(&mut text, f, false);
            c.stdout = captured(&text);
        }
        c.causes = f.causes.clone();
        result.cases.push(c);
    }
    if counted == 0 {
        let why = report.import_problem.clone().unwrap_or_else(|| "no function could be checked".into());
        result.cases.push(case(whole, Vec::new(), Status::Failed, 0.0, points, why));
    }
    total(result);
}

fn total(result: &mut SubmissionResult) {
    result.score = result.cases.iter().map(|c| c.score).sum();
}

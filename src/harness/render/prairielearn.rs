//! PrairieLearn's external-grader `results.json` (`--format prairielearn`, and what `referee prairielearn`
//! writes to `/grade/results/results.json`).
//!
//! # Format
//!
//! PrairieLearn's documented results ("External Grading", *Grading results*), with the fields this grader fills:
//!
//! ```text
//! {
//!   "gradable": true,                 // false for a build error or a grader fault: no attempt is charged
//!   "score": 0.75,                    // the submission's points over its maximum, in [0, 1]
//!   "message": "...",                 // one line: points and counts by status
//!   "output": "...",                  // absent unless there is more to say (a hidden-tests note)
//!   "tests": [                        // one per case, suite order, names made unique (" (2)", ...)
//!     {"name": "official-2", "points": 0.0, "max_points": 1.0,
//!      "message": "failed: output differs from line 2",
//!      "output": "..."}               // as the case's `show` allows (never the expected text unless `full`)
//!   ]
//! }
//! ```
//!
//! Not gradable (a build error, or the grader's own problem), the file is
//! `{"gradable": false, "format_errors": ["..."], "message": "...", "tests": []}` with the compiler's message (or the
//! grader's) in `format_errors`: PrairieLearn then marks the submission invalid and charges no attempt.
//!
//! PrairieLearn refuses results over 1 MB; [`render_submission`] shortens the tests' `output` (to an even share
//! of [`OUTPUT_BUDGET`], then to nothing) until the file fits under [`MAX_BYTES`].

use std::io::{self, Write};

use serde_json::{json, Value};

use super::excerpt;
use super::view::StudentView;
use super::RenderOptions;
use crate::harness::model::{CaseResult, RunReport, Status, SubmissionResult};

/// PrairieLearn's limit on `results.json`.
pub const MAX_BYTES: usize = 1_000_000;

/// Bytes of test output spread over the tests when the whole file would not fit.
pub const OUTPUT_BUDGET: usize = 600_000;

/// Lines of a compiler's message a not-gradable result quotes.
const BUILD_LINES: usize = 40;

/// Writes each submission's results, one after another.
///
/// # Errors
/// Only the writer's errors.
pub fn render(report: &RunReport, options: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    for s in &report.submissions {
        render_submission(s, options, out)?;
    }
    Ok(())
}

/// Writes `results.json` for `s` (format in the module docs), pretty-printed, newline-terminated, under
/// [`MAX_BYTES`].
///
/// # Errors
/// Only the writer's errors.
pub fn render_submission(s: &SubmissionResult, options: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    let value = results(s, &options.view);
    let bytes = fit(value)?;
    out.write_all(&bytes)
}

/// The `results.json` of a run that could not grade at all (`why` says what went wrong): not gradable, so the
/// student loses nothing.
pub fn grader_fault(why: &str) -> Value {
    json!({
        "gradable": false,
        "format_errors": [format!(
            "The autograder could not grade this submission: {why}. This is not a fault in your submission and \
             costs you no attempt; please tell the course staff."
        )],
        "message": "not graded: a problem of the autograder's own",
        "tests": [],
    })
}

fn results(s: &SubmissionResult, view: &StudentView) -> Value {
    if let Some(build) = s.build.as_ref().filter(|b| !b.ok) {
        let (lines, omitted) = excerpt::head_lines(&build.message, BUILD_LINES);
        let mut errors = vec![format!(
            "Your submission could not be built, so no test ran ($ {}):",
            crate::visible::visible(&build.command)
        )];
        errors.push(lines.join("\n"));
        if omitted > 0 {
            errors.push(format!("({omitted} more lines)"));
        }
        return json!({
            "gradable": false,
            "format_errors": errors,
            "message": "not graded: the build failed",
            "tests": [],
        });
    }
    if s.has_harness_error() {
        let first = s.cases.iter().find(|c| c.status == Status::HarnessError).map_or("", |c| c.detail.as_str());
        return grader_fault(&format!("it could not run a test ({})", excerpt::tame(first)));
    }
    if let crate::harness::outcome::Outcome::NotGraded(_) = s.outcome() {
        // No score: PrairieLearn's "not gradable" charges no attempt and records nothing.
        return json!({
            "gradable": false,
            "format_errors": [s.outcome().reason_line().unwrap_or_default()],
            "message": "not graded",
            "tests": [],
        });
    }
    let score = s.score.proportion(s.max_score);
    let passed = s.cases.iter().filter(|c| c.status.is_pass()).count();
    let message = format!(
        "{} points: {} of {} tests passed ({}).",
        excerpt::points(s.score, s.max_score, true),
        passed,
        s.cases.len(),
        excerpt::status_counts(&s.cases)
    );
    let tests: Vec<Value> =
        s.cases.iter().zip(excerpt::unique_names(&s.cases)).map(|(case, name)| test(case, name, view)).collect();
    let mut value = json!({ "gradable": true, "score": score, "message": message, "tests": tests });
    // PrairieLearn has no due-date gate: the student view decides what is hidden.
    if s.cases.iter().any(|c| view.reveal(c, false).is_hidden()) {
        value["output"] = json!("Some tests are hidden: their points count, their details are not shown.");
    }
    value
}

fn test(case: &CaseResult, name: String, view: &StudentView) -> Value {
    let (message, output) = if view.reveal(case, false).is_hidden() {
        (format!("a hidden test: {}", case.status.label()), String::new())
    } else {
        let mut lines = excerpt::case_lines(case, true);
        // The first line that says how it ended is the message; the rest is the output.
        let at = lines.iter().position(|l| l.starts_with(case.status.label())).unwrap_or(0);
        let message = if lines.is_empty() { case.status.label().to_string() } else { lines.remove(at) };
        (message, lines.join("\n"))
    };
    json!({
        "name": if name.is_empty() { "(unnamed case)".to_string() } else { name },
        "points": case.score,
        "max_points": case.max_score,
        "message": message,
        "output": output,
    })
}

/// `value` serialized, its tests' outputs shortened until it fits under [`MAX_BYTES`].
fn fit(mut value: Value) -> io::Result<Vec<u8>> {
    let serialize = |v: &Value| -> io::Result<Vec<u8>> {
        let mut bytes = super::json_text::to_vec_pretty(v)?;
        bytes.push(b'\n');
        Ok(bytes)
    };
    let bytes = serialize(&value)?;
    if bytes.len() <= MAX_BYTES {
        return Ok(bytes);
    }
    let count = value["tests"].as_array().map_or(0, Vec::len).max(1);
    for share in [OUTPUT_BUDGET / count, 0] {
        if let Some(tests) = value["tests"].as_array_mut() {
            for t in tests.iter_mut() {
                if let Some(text) = t["output"].as_str() {
                    t["output"] = json!(shorten(text, share));
                }
            }
        }
        let bytes = serialize(&value)?;
        if bytes.len() <= MAX_BYTES {
            return Ok(bytes);
        }
    }
    // Only names and messages are left, and they still do not fit: say so rather than write a file PrairieLearn
    // refuses.
    serialize(&grader_fault("its results were larger than PrairieLearn accepts"))
}

/// At most `max` bytes of `text` (at a character boundary), with a note when it was cut.
fn shorten(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    if max == 0 {
        return "(output left out: the results must stay under PrairieLearn's 1 MB)".to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}\n(cut here: the results must stay under PrairieLearn's 1 MB)", &text[..end])
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn oversized_results_are_cut_to_fit() {
        let mut tests = Vec::new();
        for i in 0..40 {
            tests.push(json!({"name": format!("t{i}"), "points": 0, "max_points": 1, "message": "failed",
                "output": "x".repeat(60_000)}));
        }
        let bytes = fit(json!({"gradable": true, "score": 0.0, "tests": tests})).unwrap();
        assert!(bytes.len() <= MAX_BYTES, "{}", bytes.len());
        let v: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(v["tests"].as_array().unwrap().len(), 40);
        assert!(v["tests"][0]["output"].as_str().unwrap().contains("cut here"));
    }

    #[test]
    fn shortening_keeps_characters_whole() {
        assert_eq!(shorten("ééé", 3), "é\n(cut here: the results must stay under PrairieLearn's 1 MB)");
        assert_eq!(shorten("abc", 5), "abc");
    }
}

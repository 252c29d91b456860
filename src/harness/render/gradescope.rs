//! Gradescope's autograder `results.json` (`--format gradescope`), one object per submission.
//!
//! # Format
//!
//! Gradescope's published autograder specification ("Autograder Specifications", *Output format*), with the
//! fields this grader fills:
//!
//! ```text
//! {
//!   "score": 2.849,                   // the submission's score: exact, by the JSON rule of `harness::points`
//!   "execution_time": 2.513,          // seconds of build + all cases, in milliseconds (fractional seconds,
//!                                     // never 0 once anything ran: a 0.4 ms run is 0.001); absent under --redact
//!   "output": "...",                  // summary: score, counts by status, the build error, a note that some
//!                                     // tests are hidden (hidden or after the due date), a grader-error note
//!   "output_format": "text",          // declared, so the summary is shown as plain text
//!   "tests": [                        // one per case, suite order
//!     {
//!       "name": "official-2",           // the case's name; a repeated one gets " (2)", " (3)", ...
//!       "score": 0.0,
//!       "max_score": 1.0,
//!       "status": "failed",           // "passed" only for a passed case (a partly credited case is "failed")
//!       "output": "...",              // as the case's `show` allows: arguments, status and detail, reading,
//!                                     // lines matched, causes, the start of the diff (invisible characters
//!                                     // shown) or the program's own lines, output notes, stderr tail; a
//!                                     // record's text (a game's moves, a conformance check's first failing call)
//!       "tags": ["official"],         // absent when the case has none
//!       "visibility": "visible"       // visible | hidden | after_due_date | after_published: the student
//!                                     // view's (`view::StudentView`), never sooner than the top level
//!     }
//!   ]
//! }
//! ```
//!
//! A hand-in without a score ([`crate::harness::outcome::Outcome`]: not graded, or the grader failed) is written
//! with no `score` and no tests, its `output` saying why: Gradescope has nothing to record as a grade (the
//! autograder writes no `results.json` for it at all, `app::gradescope::autograde`).
//!
//! Text is plain (Gradescope's default `text` output format, shown in a `<pre>`). What a test's `output` quotes
//! follows the case's [`crate::harness::model::Show`] (`excerpt::case_lines`): under `actual-only` and `none` the
//! expected output never appears. The sandbox layers are the TA's concern and stay out. When the build failed, every
//! case already carries the `build error` status from the runner, so every test is `failed`, and the compiler's
//! message goes in the top-level `output`. Several submissions render as consecutive objects; the class runner
//! writes one file each with [`render_submission`].

use std::io::{self, Write};

use serde::Serialize;

use super::excerpt;
use super::view::{Reveal, StudentView};
use super::RenderOptions;
use crate::harness::model::{CaseResult, Points, RunReport, Status, SubmissionResult};

/// Writes one `results.json` object per submission, one after another.
///
/// # Errors
///
/// Only the writer's errors.
pub fn render(report: &RunReport, options: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    for submission in &report.submissions {
        render_submission(submission, options, out)?;
    }
    Ok(())
}

/// Writes the `results.json` of one submission (format in the module docs), pretty-printed, newline-terminated.
///
/// # Errors
///
/// Only the writer's errors.
pub fn render_submission(s: &SubmissionResult, options: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    if let Some(reason) = s.outcome().reason_line() {
        // No score, and no scored test Gradescope could add one up from: what it records is not a grade.
        let results = Results {
            score: None,
            execution_time: None,
            output: format!(
                "{reason}\n\nThis is not a grade: the course staff will look at this submission. Please tell them if \
                 you think it should have been graded."
            ),
            output_format: "text",
            tests: Vec::new(),
        };
        super::json_text::to_writer_pretty(&mut *out, &results)?;
        return writeln!(out);
    }
    let results = Results {
        score: Some(s.score),
        execution_time: (!options.redact).then(|| execution_seconds(s)),
        output: summary(s, &options.view),
        output_format: "text",
        tests: s
            .cases
            .iter()
            .zip(excerpt::unique_names(&s.cases))
            .map(|(c, name)| Test::new(c, name, &options.view))
            .collect(),
    };
    super::json_text::to_writer_pretty(&mut *out, &results)?;
    writeln!(out)
}

#[derive(Serialize)]
struct Results<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<Points>,
    #[serde(skip_serializing_if = "Option::is_none")]
    execution_time: Option<f64>,
    output: String,
    /// Declared, so Gradescope shows the summary as plain text (its default for the top level is HTML-ish).
    output_format: &'static str,
    tests: Vec<Test<'a>>,
}

#[derive(Serialize)]
struct Test<'a> {
    name: String,
    score: Points,
    max_score: Points,
    status: &'static str,
    output: String,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    tags: &'a [String],
    visibility: &'static str,
}

impl<'a> Test<'a> {
    fn new(case: &'a CaseResult, name: String, view: &StudentView) -> Test<'a> {
        Test {
            name,
            score: case.score,
            max_score: case.max_score,
            status: if case.status.is_pass() { "passed" } else { "failed" },
            output: excerpt::case_lines(case, true).join("\n"),
            tags: &case.tags,
            // Never sooner than the TA chose (a test's visibility overrides the top level on Gradescope).
            visibility: view.reveal(case, true).gradescope(),
        }
    }
}

/// Build plus case times, in whole seconds rounded to nearest (the specification's example is an integer).
/// Gradescope's field is seconds: the milliseconds measured, as fractional seconds. A run that took under a
/// millisecond counts as one, so a submission that ran is never reported as taking no time.
fn execution_seconds(s: &SubmissionResult) -> f64 {
    let build = s.build.as_ref().map_or(0, |b| b.elapsed_ms);
    let total = s.cases.iter().fold(build, |sum, c| sum.saturating_add(c.elapsed_ms));
    let ran = s.build.is_some() || !s.cases.is_empty();
    let ms = if ran { total.max(1) } else { total };
    ms as f64 / 1000.0
}

/// The top-level summary: score and counts, then the build error, the hidden-tests note and the grader-error note
/// when there is one.
fn summary(s: &SubmissionResult, view: &StudentView) -> String {
    let mut text = format!(
        "Score: {}. {} of {} cases passed ({}).",
        excerpt::points(s.score, s.max_score, true),
        s.cases.iter().filter(|c| c.status.is_pass()).count(),
        s.cases.len(),
        excerpt::status_counts(&s.cases)
    );
    if let Some(build) = s.build.as_ref().filter(|b| !b.ok) {
        text.push_str(&format!(
            "\n\nThe build failed, so no case ran.\n$ {}\n{}",
            crate::visible::visible(&build.command),
            excerpt::head_lines(&build.message, usize::MAX).0.join("\n")
        ));
    }
    let hidden = s.cases.iter().filter(|c| view.reveal(c, true) == Reveal::Hidden).count();
    let later = s
        .cases
        .iter()
        .filter(|c| matches!(view.reveal(c, true), Reveal::AfterDueDate | Reveal::AfterPublished))
        .count();
    let published = s.cases.iter().any(|c| view.reveal(c, true) == Reveal::AfterPublished);
    let when = if published { "the grades are published" } else { "after the due date" };
    if hidden + later > 0 {
        let which = match (hidden, later) {
            (_, 0) => String::new(),
            (0, _) => format!(" (until {when})"),
            _ => format!(" ({hidden} always, {later} until {when})"),
        };
        text.push_str(&format!(
            "\n\nSome tests are hidden: {} of the {}{which}. The score counts their points, so the tests you can see \
             may not add up to it.",
            hidden + later,
            s.cases.len()
        ));
    }
    let harness_errors = s.cases.iter().filter(|c| c.status == Status::HarnessError).count();
    if harness_errors > 0 {
        text.push_str(&format!(
            "\n\nThe grader could not run {harness_errors} case(s) (harness error). That is not a fault in your \
             submission; please tell the course staff."
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::harness::model::{BuildResult, Captured, FirstDifference, Visibility};

    fn case(status: Status) -> CaseResult {
        CaseResult {
            name: "c".into(),
            args: vec!["3".into(), "0".into(), "0".into()],
            status,
            score: Points::ZERO,
            max_score: Points::from_f64(2.0),
            visibility: Visibility::AfterDueDate,
            show: crate::harness::model::Show::Full,
            tags: vec!["t".into()],
            detail: "line 2 differs".into(),
            reading: None,
            diagnosis: None,
            causes: Vec::new(),
            lines_matched: None,
            difference: Some(FirstDifference { line: 2, expected: Some("x\t".into()), actual: Some("x ".into()) }),
            expected: "a\nx\t\n".into(),
            stdout: Captured { text: "a\nx \n".into(), bytes: 5, ..Captured::default() },
            stderr: Captured::default(),
            elapsed_ms: 1600,
        }
    }

    fn submission(build: Option<BuildResult>) -> SubmissionResult {
        SubmissionResult {
            id: "a".into(),
            source: "a".into(),
            build,
            cases: vec![case(Status::Failed)],
            score: Points::ZERO,
            max_score: Points::from_f64(2.0),
            run: "r".into(),
            fingerprint: "f".into(),
            handin: String::new(),
            sandbox: Vec::new(),
            not_graded: None,
        }
    }

    #[test]
    fn a_sub_second_run_is_never_zero_seconds() {
        let mut s = submission(None);
        s.cases[0].elapsed_ms = 120;
        assert_eq!(value(&s, false)["execution_time"], 0.12);
        s.cases[0].elapsed_ms = 0;
        assert_eq!(value(&s, false)["execution_time"], 0.001);
    }

    fn value(s: &SubmissionResult, redact: bool) -> serde_json::Value {
        let mut out = Vec::new();
        render_submission(
            s,
            &RenderOptions { color: false, redact, view: crate::harness::render::view::StudentView::DEFAULT },
            &mut out,
        )
        .unwrap();
        serde_json::from_slice(&out).unwrap()
    }

    #[test]
    fn fields_follow_the_specification() {
        let v = value(&submission(None), false);
        assert_eq!(v["score"], 0.0);
        assert_eq!(v["execution_time"], 1.6);
        let test = &v["tests"][0];
        assert_eq!(test["status"], "failed");
        assert_eq!(test["max_score"], 2.0);
        assert_eq!(test["visibility"], "after_due_date");
        assert_eq!(test["tags"][0], "t");
        assert_eq!(
            test["output"],
            "arguments: 3 0 0\nfailed: line 2 differs\ndiff (- expected, + actual); the first difference that counts \
             is at line 2:\n@@ -1,2 +1,2 @@\n a\n-x→\n+x·"
        );
    }

    #[test]
    fn repeated_names_are_made_unique_and_the_sandbox_stays_out() {
        let mut s = submission(None);
        s.cases = vec![case(Status::Passed), case(Status::Failed), case(Status::Failed)];
        s.cases[2].name = "c (2)".into();
        s.sandbox = vec!["landlock".into(), "network".into()];
        let v = value(&s, true);
        let names: Vec<&str> = v["tests"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["c", "c (3)", "c (2)"]);
        assert!(!v["output"].as_str().unwrap().contains("landlock"), "{}", v["output"]);
    }

    #[test]
    fn redaction_drops_the_time_and_a_failed_build_is_summarized() {
        let build = BuildResult {
            ok: false,
            command: "javac A.java".into(),
            message: "A.java:1: error\n".into(),
            elapsed_ms: 5,
        };
        let v = value(&submission(Some(build)), true);
        assert!(v.get("execution_time").is_none());
        let output = v["output"].as_str().unwrap();
        assert!(output.contains("$ javac A.java\nA.java:1: error"), "{output}");
    }
}

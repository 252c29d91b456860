//! One class, every output (issue 33, item 8): for generated classes (random rubric points with shares such as 50/7,
//! partial credit, every status, every `show` and visibility, and the TA's student-view choices), every format
//! states the same score per student, exactly: text for people writes the one display rule (`points::pair`), the
//! machine formats give back the exact value (JSON) or its exact nine-decimal cut (CSV, JUnit), full marks read as
//! full marks exactly when they are, everywhere; and nothing the student view hides, and no expected output a case's
//! `show` withholds, appears in a student-facing file. A hand-in without a score (not graded, or the grader failed:
//! issue 33, item 2) has none in any format: an empty gradebook cell, `null` in JSON, `not graded` for people, no
//! Gradescope or PrairieLearn score and no Classroom 50 file.

use proptest::prelude::*;
use referee::harness::model::{Points, RunReport, SubmissionResult, Visibility};
use referee::harness::points::pair;
use referee::harness::render::classroom50::{self, Identity};
use referee::harness::render::view::{Reveal, StudentView};
use referee::harness::render::{csv, gradescope, markdown, prairielearn, render, Format, RenderOptions};
use serde_json::Value;

use crate::arbitrary;

fn view() -> impl Strategy<Value = StudentView> {
    let floor =
        prop::sample::select(vec![Reveal::Visible, Reveal::AfterDueDate, Reveal::AfterPublished, Reveal::Hidden]);
    (floor, any::<bool>()).prop_map(|(floor, show_later)| StudentView { floor, show_later })
}

/// A class whose every case prints, and expects, a token of its own, so a leak is found by a plain search.
fn class() -> impl Strategy<Value = RunReport> {
    arbitrary::report().prop_map(|mut report| {
        for (i, s) in report.submissions.iter_mut().enumerate() {
            for (j, case) in s.cases.iter_mut().enumerate() {
                case.stdout.text = format!("PRINTED-{i}-{j}\n");
                case.expected = format!("EXPECTED-{i}-{j}\n");
            }
        }
        report
    })
}

fn identity() -> Identity {
    Identity { classroom: "c".into(), assignment: "a".into(), owner: "o".into(), ..Identity::default() }
}

fn utf8(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap()
}

/// The student-facing files of one student: (format, text).
fn student_files(s: &SubmissionResult, options: &RenderOptions) -> Vec<(&'static str, String)> {
    let mut files = Vec::new();
    let mut out = Vec::new();
    gradescope::render_submission(s, options, &mut out).unwrap();
    files.push(("gradescope", utf8(std::mem::take(&mut out))));
    markdown::render_submission(s, options, &mut out).unwrap();
    files.push(("markdown", utf8(std::mem::take(&mut out))));
    prairielearn::render_submission(s, options, &mut out).unwrap();
    files.push(("prairielearn", utf8(std::mem::take(&mut out))));
    // Classroom 50 records any result.json as a grade: a hand-in without a score gets none (an error here).
    match classroom50::render_submission(s, &identity(), options, &mut out) {
        Ok(()) => files.push(("classroom50", utf8(std::mem::take(&mut out)))),
        Err(e) => {
            assert!(!s.outcome().is_graded(), "{e}");
            out.clear();
        }
    }
    let one =
        RunReport { schema: referee::harness::model::SCHEMA_VERSION, suite: "s".into(), submissions: vec![s.clone()] };
    render(Format::Junit, &one, options, &mut out).unwrap();
    files.push(("junit", utf8(std::mem::take(&mut out))));
    render(Format::Terminal, &one, options, &mut out).unwrap();
    files.push(("terminal", utf8(out)));
    files
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn every_format_states_the_same_score_and_hides_what_the_view_hides(report in class(), view in view()) {
        let options = RenderOptions { color: false, redact: true, view };
        let mut out = Vec::new();
        render(Format::Csv, &report, &options, &mut out).unwrap();
        let book = csv::read(out.as_slice()).unwrap();
        let mut out = Vec::new();
        render(Format::Json, &report, &options, &mut out).unwrap();
        let json: Value = serde_json::from_slice(&out).unwrap();
        let mut html = Vec::new();
        let feedback = |_: &str| String::new();
        let page = referee::harness::render::html::ClassPage { title: "t".into(), expected: report.submissions.len(), feedback: &feedback };
        referee::harness::render::html::render_class(&report, &page, &mut html).unwrap();
        let html = utf8(html);
        let full = report
            .submissions
            .iter()
            .filter(|s| s.outcome().is_graded() && s.max_score.is_positive() && s.score == s.max_score)
            .count();
        let counted = format!("<dt>Full marks</dt><dd>{full}</dd>");
        prop_assert!(html.contains(&counted), "report.html lacks {}", counted);

        for (k, s) in report.submissions.iter().enumerate() {
            // Issue 33, item 2: one outcome per hand-in, and every format states it; a hand-in without a score
            // (not graded, or the grader failed) has none anywhere, never a 0.
            let outcome = s.outcome();
            let graded = outcome.is_graded();
            let said = outcome.score_text(true);
            if graded {
                prop_assert_eq!(&said, &pair(s.score, s.max_score, true));
            }
            let is_full = graded && s.score == s.max_score;
            // The class files: exact (JSON), the exact nine-decimal cut (CSV), the display rule (report.html).
            let row = &book.rows[k];
            prop_assert_eq!(row.score.map(Points::machine), outcome.score().map(Points::machine));
            prop_assert_eq!(row.max_score.machine(), s.max_score.machine());
            prop_assert_eq!(row.score == Some(row.max_score), is_full);
            let stored = &json["submissions"][k];
            // The JSON number by the rule (exact for a decimal, else the largest f64 below): not every fraction can
            // be read back from an f64, so the number itself is compared.
            prop_assert_eq!(stored["score"].as_f64(), outcome.score().map(Points::json), "{}", stored);
            prop_assert_eq!(stored["max_score"].as_f64(), Some(s.max_score.json()));
            prop_assert_eq!(stored["score"] == stored["max_score"], is_full, "{}", stored);
            prop_assert!(html.contains(&format!(">{said}<")), "report.html lacks {}", said);

            for (format, text) in student_files(s, &options) {
                if !graded {
                    // No score in any student file; each says it was not graded.
                    match format {
                        "gradescope" => {
                            let v: Value = serde_json::from_str(&text).unwrap();
                            prop_assert!(v.get("score").is_none(), "{}", v);
                            prop_assert_eq!(v["tests"].as_array().map(Vec::len), Some(0));
                            prop_assert!(v["output"].as_str().unwrap().starts_with("not graded"), "{}", v["output"]);
                        }
                        "markdown" => {
                            let title = text.lines().next().unwrap();
                            prop_assert!(title.ends_with(&format!(": {said}")), "{}", title);
                        }
                        "terminal" => {
                            prop_assert!(text.lines().any(|l| l == format!("score: {said}")), "{}", text);
                        }
                        "junit" => {
                            prop_assert!(!text.contains("name=\"score\""), "{}", text);
                            prop_assert!(text.contains("name=\"outcome\" value=\"not graded"), "{}", text);
                        }
                        "prairielearn" => {
                            let v: Value = serde_json::from_str(&text).unwrap();
                            prop_assert_eq!(&v["gradable"], false);
                            prop_assert!(v.get("score").is_none(), "{}", v);
                        }
                        other => prop_assert!(false, "{} wrote a file for a hand-in without a score", other),
                    }
                } else {
                match format {
                    "gradescope" => {
                        let v: Value = serde_json::from_str(&text).unwrap();
                        prop_assert_eq!(v["score"].as_f64(), Some(s.score.json()));
                        let summary = format!("Score: {said}.");
                        prop_assert!(v["output"].as_str().unwrap().starts_with(&summary), "{}", v["output"]);
                        prop_assert_eq!(&v["output_format"], "text");
                        for (test, case) in v["tests"].as_array().unwrap().iter().zip(&s.cases) {
                            prop_assert_eq!(test["score"].as_f64(), Some(case.score.json()));
                            let shown = Reveal::from_gradescope(test["visibility"].as_str().unwrap()).unwrap();
                            let own = match case.visibility {
                                Visibility::Visible => Reveal::Visible,
                                Visibility::AfterDueDate => Reveal::AfterDueDate,
                                Visibility::Hidden => Reveal::Hidden,
                            };
                            prop_assert!(shown >= own.max(view.floor), "{:?} shown {:?} under {:?}", own, shown, view);
                        }
                    }
                    "markdown" => {
                        let title = text.lines().next().unwrap();
                        prop_assert!(title.ends_with(&format!(": {said}")), "{}", title);
                    }
                    "terminal" => {
                        prop_assert!(text.lines().any(|l| l == format!("score: {said}")), "{}", text);
                    }
                    "junit" => {
                        let machine = format!("name=\"score\" value=\"{}\"", s.score.machine());
                        prop_assert!(text.contains(&machine), "{}", text);
                    }
                    "prairielearn" => {
                        let v: Value = serde_json::from_str(&text).unwrap();
                        if v["gradable"] == true {
                            let message = format!("{said} points");
                            prop_assert!(v["message"].as_str().unwrap().starts_with(&message), "{}", v["message"]);
                            let share = v["score"].as_f64().unwrap();
                            prop_assert_eq!(share == 1.0, is_full && s.max_score.is_positive());
                        }
                    }
                    _ => {
                        let v: Value = serde_json::from_str(&text).unwrap();
                        let (got, of) = (v["score"].as_u64().unwrap(), v["max-score"].as_u64().unwrap());
                        prop_assert_eq!(got == of, is_full, "{}/{} for {:?} of {:?}", got, of, s.score, s.max_score);
                    }
                }
                }
                // Nothing hidden: a case the view hides on this platform shows neither output; an expected output
                // its `show` withholds appears nowhere.
                let gated = format == "gradescope";
                if format == "terminal" {
                    continue; // the TA's own view of a run, not a file handed to students
                }
                for (j, case) in s.cases.iter().enumerate() {
                    let (printed, expected) = (format!("PRINTED-{k}-{j}"), format!("EXPECTED-{k}-{j}"));
                    let hidden = view.reveal(case, gated).is_hidden() && !gated;
                    if hidden || !case.show.actual() {
                        prop_assert!(!text.contains(&printed), "{}: {} leaks the output of {:?}", format, printed, case.visibility);
                    }
                    if hidden || !case.show.expected() {
                        prop_assert!(!text.contains(&expected), "{}: {} leaks the expected output", format, expected);
                    }
                }
            }
        }
    }
}

//! Scores that survive import: random fractional points (0.849, 2/3, sums with float noise) and hidden/visible
//! mixes through every renderer, read back. Machine formats keep the value exactly (JSON, Gradescope, PrairieLearn;
//! the gradebook CSV and JUnit's score properties in `codec.rs`); Classroom 50's whole points are the exact points
//! times one power of ten up to 10⁴, cut at 10⁻⁴ of a point and never rounded up; text for people (Markdown, the
//! terminal, JUnit's evidence) shows at most four decimals, cut, never rounded up. Every student-facing format that
//! can say so says that some tests are hidden when some are.

use proptest::prelude::*;
use referee::harness::model::{Points, RunReport, Show, Status, SubmissionResult, Visibility, SCHEMA_VERSION};
use referee::harness::render::classroom50::{self, Identity};
use referee::harness::render::{gradescope, markdown, prairielearn, render, Format, RenderOptions};
use serde_json::Value;

use crate::arbitrary;

const OPTIONS: RenderOptions =
    RenderOptions { color: false, redact: true, view: referee::harness::render::view::StudentView::DEFAULT };

/// Checks that `shown`, a number as a report prints it, is `exact` to four decimals: never above it, less than
/// 10⁻⁴ below it, and exactly it when it is whole.
fn shown_as(shown: &str, exact: Points, what: &str) -> Result<(), TestCaseError> {
    let value: f64 =
        shown.trim().parse().map_err(|_| TestCaseError::fail(format!("{what}: '{shown}' is no number")))?;
    let value = Points::from_f64(value);
    prop_assert!(value <= exact && exact - value < Points::fraction(1, 10_000), "{what}: {exact:?} shown as {shown}");
    prop_assert!(!exact.is_whole() || value == exact, "{what}: {exact:?} shown as {shown}");
    Ok(())
}

/// `X / Y` (or `X/Y`) checked against a score and its maximum: a score below its maximum never reads as it.
fn points_as(shown: &str, score: Points, max: Points, what: &str) -> Result<(), TestCaseError> {
    let (x, y) = shown.split_once('/').ok_or_else(|| TestCaseError::fail(format!("{what}: '{shown}'")))?;
    shown_as(x, score, what)?;
    shown_as(y, max, what)?;
    prop_assert_eq!(x.trim() == y.trim(), score == max, "{}: '{}'", what, shown);
    Ok(())
}

fn json(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).unwrap()
}

/// Whether a JSON number is `b` as the display rule writes it, and reads back as exactly `b`.
fn same(a: &Value, b: Points) -> bool {
    // The number by the JSON rule; it reads back as `b` exactly when `b` is a decimal of at most nine decimals (an
    // f64 cannot tell apart every pair of fractions: issue 33, `Points::from_json`).
    let decimal = Points::parse_decimal(&b.machine()) == Some(b);
    a.as_f64().is_some_and(|a| a.to_bits() == b.json().to_bits() && (!decimal || Points::from_json(a) == b))
}

/// Whether a platform without a due-date gate hides some case (hidden, or to be shown after the due date).
fn has_hidden(s: &SubmissionResult) -> bool {
    s.cases.iter().any(|c| c.visibility != Visibility::Visible)
}

fn identity() -> Identity {
    Identity {
        classroom: "cs540".into(),
        assignment: "takestones".into(),
        assignment_type: "individual".into(),
        owner: "alice".into(),
        submission: "submit/2026-09-01T10-00-00Z-abc1234".into(),
        commit: "https://example.org/c".into(),
        release: "https://example.org/r".into(),
        review: "https://example.org/v".into(),
        datetime: "2026-09-01T10:00:00Z".into(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// The JSON report reads back into the same model, every score bit for bit.
    #[test]
    fn json_keeps_every_score_exactly(report in arbitrary::report()) {
        let mut out = Vec::new();
        render(Format::Json, &report, &RenderOptions::default(), &mut out).unwrap();
        let back: RunReport = serde_json::from_slice(&out).unwrap();
        // Issue 33, item 2: a hand-in without a score is written with "score": null, read back as no points. Every
        // other number reads back to one that writes the same (exact for a decimal: an f64 cannot tell apart every
        // pair of fractions), so the report is a fixed point of writing and reading.
        let mut again = Vec::new();
        render(Format::Json, &back, &RenderOptions::default(), &mut again).unwrap();
        prop_assert_eq!(String::from_utf8(again).unwrap(), String::from_utf8(out).unwrap());
        for (b, s) in back.submissions.iter().zip(&report.submissions) {
            if s.outcome().is_graded() {
                prop_assert_eq!(b.score.json(), s.score.json());
            } else {
                prop_assert!(b.score.is_zero());
            }
        }
    }

    /// Gradescope's score and every test's points are the stored values; hidden tests are announced.
    #[test]
    fn gradescope_keeps_every_score_exactly(s in arbitrary::submission()) {
        // A hand-in without a score has none to keep (issue 33, item 2; tests/it/consistency.rs checks it).
        prop_assume!(s.outcome().is_graded());
        let mut out = Vec::new();
        gradescope::render_submission(&s, &OPTIONS, &mut out).unwrap();
        let v = json(&out);
        prop_assert!(same(&v["score"], s.score), "{} for {}", v["score"], s.score);
        for (test, case) in v["tests"].as_array().unwrap().iter().zip(&s.cases) {
            prop_assert!(same(&test["score"], case.score) && same(&test["max_score"], case.max_score), "{test}");
        }
        let unseen = s.cases.iter().any(|c| c.visibility != Visibility::Visible);
        prop_assert_eq!(v["output"].as_str().unwrap().contains("Some tests are hidden"), unseen);
        points_as(v["output"].as_str().unwrap()["Score: ".len()..].split(". ").next().unwrap(), s.score, s.max_score,
            "summary")?;
    }

    /// PrairieLearn's score is exactly the share earned; the tests' points are the stored values.
    #[test]
    fn prairielearn_keeps_every_score_exactly(s in arbitrary::submission()) {
        // A hand-in without a score has none to keep (issue 33, item 2; tests/it/consistency.rs checks it).
        prop_assume!(s.outcome().is_graded());
        let mut out = Vec::new();
        prairielearn::render_submission(&s, &OPTIONS, &mut out).unwrap();
        let v = json(&out);
        if s.has_harness_error() {
            prop_assert_eq!(&v["gradable"], &Value::Bool(false));
            return Ok(());
        }
        let share = v["score"].as_f64().unwrap();
        prop_assert!((0.0..=1.0).contains(&share));
        prop_assert_eq!(share == 1.0, s.max_score.is_positive() && s.score == s.max_score, "{} for {:?}", share, s.score);
        prop_assert!((share - s.score.to_f64() / s.max_score.to_f64().max(f64::MIN_POSITIVE)).abs() < 1e-9 || !s.max_score.is_positive());
        for (test, case) in v["tests"].as_array().unwrap().iter().zip(&s.cases) {
            prop_assert!(same(&test["points"], case.score) && same(&test["max_points"], case.max_score), "{test}");
        }
        prop_assert_eq!(v["output"].as_str().is_some_and(|o| o.contains("Some tests are hidden")), has_hidden(&s));
    }

    /// Classroom 50's whole points are the exact points times one power of ten (at most 10⁴), cut at 10⁻⁴ of a
    /// point: never above, less than one unit below, a partial score never a full one.
    #[test]
    fn classroom50_scales_and_never_rounds_up(s in arbitrary::submission()) {
        // A hand-in without a score has none to keep (issue 33, item 2; tests/it/consistency.rs checks it).
        prop_assume!(s.outcome().is_graded());
        let mut out = Vec::new();
        classroom50::render_submission(&s, &identity(), &OPTIONS, &mut out).unwrap();
        let v = json(&out);
        let tests = v["tests"].as_array().unwrap();
        let whole = |t: &Value, key: &str| Points::whole(t[key].as_u64().unwrap() as i64);
        let within = |k: u64, got: Points, exact: Points, units: i64| {
            got <= exact.share(k, 1) && exact.share(k, 1) - got < Points::whole(units)
        };
        let fits = |k: u64, got: Points, exact: Points| within(k, got, exact, 1);
        let k = [1, 10, 100, 1000, 10_000]
            .into_iter()
            .find(|&k| tests.iter().zip(&s.cases).all(|(t, c)| fits(k, whole(t, "max-score"), c.max_score)));
        prop_assert!(k.is_some(), "no power of ten explains the maxima: {tests:?}");
        let k = k.unwrap();
        for (t, c) in tests.iter().zip(&s.cases) {
            let (got, max) = (whole(t, "score"), whole(t, "max-score"));
            // A partial score whose cut meets its cut maximum is one unit below it: up to two units short then.
            let units = if got + Points::whole(1) == max { 2 } else { 1 };
            prop_assert!(within(k, got, c.score, units), "{:?} of {:?} written as {got} at x{k}", c.score, c.max_score);
            prop_assert!(got <= max);
            prop_assert_eq!(got == max, c.score == c.max_score, "{:?} of {:?} written as {}/{}", c.score, c.max_score, got, max);
            if c.visibility != Visibility::Visible {
                prop_assert!(t["output"].as_str().unwrap().contains("a hidden test"));
            }
        }
        let sum = |key: &str| tests.iter().map(|t| t[key].as_u64().unwrap()).sum::<u64>();
        prop_assert_eq!(v["score"].as_u64(), Some(sum("score")));
        prop_assert_eq!(v["max-score"].as_u64(), Some(sum("max-score")));
    }

    /// Markdown's title, table rows and hidden row give each score to four decimals, never rounded up.
    #[test]
    fn markdown_shows_every_score_to_four_decimals(s in arbitrary::submission()) {
        // A hand-in without a score has none to keep (issue 33, item 2; tests/it/consistency.rs checks it).
        prop_assume!(s.outcome().is_graded());
        let mut out = Vec::new();
        markdown::render_submission(&s, &OPTIONS, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let title = text.lines().next().unwrap();
        points_as(title.rsplit_once(": ").unwrap().1, s.score, s.max_score, "title")?;
        let mut rows = text.lines().skip_while(|l| *l != "| case | arguments | status | points |").skip(2);
        let cell = |row: &str| row.strip_suffix(" |").and_then(|r| r.rsplit_once(" | ")).map(|(_, p)| p.to_string());
        for case in s.cases.iter().filter(|c| c.visibility == Visibility::Visible) {
            let row = rows.next().unwrap_or_default();
            points_as(&cell(row).unwrap_or_default(), case.score, case.max_score, row)?;
        }
        let hidden: Vec<_> = s.cases.iter().filter(|c| c.visibility != Visibility::Visible).collect();
        if !hidden.is_empty() {
            let row = rows.next().unwrap_or_default();
            prop_assert!(row.contains(&format!("*{} hidden case", hidden.len())), "{row}");
            let score: Points = hidden.iter().map(|c| c.score).sum();
            let max: Points = hidden.iter().map(|c| c.max_score).sum();
            points_as(&cell(row).unwrap_or_default(), score, max, row)?;
        }
        prop_assert_eq!(text.contains("Some tests are hidden"), !hidden.is_empty());
    }

    /// The terminal's `score:` line gives the score to four decimals, never rounded up.
    #[test]
    fn the_terminal_shows_the_score_to_four_decimals(s in arbitrary::submission()) {
        // A hand-in without a score has none to keep (issue 33, item 2; tests/it/consistency.rs checks it).
        prop_assume!(s.outcome().is_graded());
        let report = RunReport { schema: SCHEMA_VERSION, suite: "s".into(), submissions: vec![s.clone()] };
        let mut out = Vec::new();
        render(Format::Terminal, &report, &OPTIONS, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let line = text.lines().rev().find(|l| l.starts_with("score: ")).unwrap();
        points_as(&line["score: ".len()..], s.score, s.max_score, line)?;
    }

    /// JUnit's evidence gives each failed case's points to four decimals, never rounded up.
    #[test]
    fn junit_evidence_shows_points_to_four_decimals(s in arbitrary::submission()) {
        let report = RunReport { schema: SCHEMA_VERSION, suite: "s".into(), submissions: vec![s.clone()] };
        let mut out = Vec::new();
        render(Format::Junit, &report, &OPTIONS, &mut out).unwrap();
        let xml = String::from_utf8(out).unwrap();
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let cases = doc.descendants().filter(|n| n.has_tag_name("testcase"));
        for (testcase, case) in cases.zip(&s.cases) {
            let shown = case.visibility == Visibility::Visible && case.show != Show::VerdictOnly;
            if case.status == Status::Passed || !shown {
                continue;
            }
            let text = testcase.first_element_child().and_then(|f| f.text()).unwrap_or_default();
            let line = text.lines().find(|l| l.starts_with("score: ")).unwrap_or_default();
            points_as(line.strip_prefix("score: ").unwrap_or_default(), case.score, case.max_score, line)?;
        }
    }
}

/// The reporter's bug: 0.849 of a point is 0.849 in every format, and 8490 of 10000 in Classroom 50; and a score
/// a hair short of full (0.99996 of 1) is kept exactly where a program reads it and shown as 0.9999, never as full
/// marks, where a person does (report.html included).
#[test]
fn a_score_of_0_849_is_never_1() {
    for (score, exact, shown, units) in [(0.849, "0.849", "0.849", 8490), (0.99996, "0.99996", "0.9999", 9999)] {
        let score = Points::from_f64(score);
        let mut case = referee::harness::model::CaseResult::new("official-1".into(), Status::Failed, 1.0);
        case.score = score;
        let s = SubmissionResult {
            id: "alice".into(),
            source: String::new(),
            build: None,
            cases: vec![case],
            score,
            max_score: Points::from_f64(1.0),
            run: String::new(),
            fingerprint: String::new(),
            handin: String::new(),
            sandbox: Vec::new(),
            not_graded: None,
        };
        let report = RunReport { schema: SCHEMA_VERSION, suite: "s".into(), submissions: vec![s.clone()] };
        for (format, text) in [
            (Format::Csv, exact),
            (Format::Junit, exact),
            (Format::Json, exact),
            (Format::Gradescope, exact),
            (Format::Prairielearn, exact),
            (Format::Md, shown),
            (Format::Terminal, shown),
        ] {
            let mut out = Vec::new();
            render(format, &report, &OPTIONS, &mut out).unwrap();
            let out = String::from_utf8(out).unwrap();
            assert!(out.contains(text), "{format:?} lost {exact}:\n{out}");
            for full in ["1 / 1", "1/1", "score: 1\n", "\"score\": 1,", "\"score\": 1.0"] {
                assert!(!out.contains(full), "{format:?} shows {exact} as full marks ({full}):\n{out}");
            }
        }
        let mut out = Vec::new();
        prairielearn::render_submission(&s, &OPTIONS, &mut out).unwrap();
        let v = json(&out);
        assert!(same(&v["score"], score) && same(&v["tests"][0]["points"], score), "{v}");
        let mut html = Vec::new();
        let feedback = |_: &str| String::new();
        let page = referee::harness::render::html::ClassPage { title: "t".into(), expected: 1, feedback: &feedback };
        referee::harness::render::html::render_class(&report, &page, &mut html).unwrap();
        let html = String::from_utf8(html).unwrap();
        assert!(html.contains(&format!("{shown} / 1")) && !html.contains("1 / 1<"), "report.html:\n{html}");
        let mut out = Vec::new();
        classroom50::render_submission(&s, &identity(), &OPTIONS, &mut out).unwrap();
        let v = json(&out);
        assert_eq!((v["score"].as_u64(), v["max-score"].as_u64()), (Some(units), Some(10_000)), "{v}");
    }
}

proptest! {
    /// Issue 33, item 5: a `--points` value goes straight from the command line into exact points. Any decimal of
    /// at most nine decimals is read exactly; anything else (NaN, infinities, exponents, signs, a tenth decimal,
    /// words) is refused with one line naming the value, never rounded on the way (main read it as f64 and kept
    /// `0.1234567891` as 0.123456789).
    #[test]
    fn points_flags_take_exact_decimals_and_refuse_the_rest(
        whole in 0u64..1_000_000,
        fraction in "[0-9]{0,12}",
        noise in prop_oneof![
            Just(""), Just("NaN"), Just("inf"), Just("-"), Just("+"), Just("e3"), Just(" points"), Just("-0.5")
        ],
    ) {
        let text = if noise.starts_with('-') && noise.len() > 1 {
            noise.to_string()
        } else if fraction.is_empty() {
            format!("{whole}{noise}")
        } else {
            format!("{whole}.{fraction}{noise}")
        };
        let parsed = Points::parse_rubric(&text);
        let exact = noise.is_empty() && fraction.len() <= 9;
        match parsed {
            Ok(points) => {
                prop_assert!(exact, "{text} accepted");
                let units: i64 = format!("{fraction:0<9}").parse().unwrap();
                let expected = Points::whole(whole as i64) + Points::fraction(units, 1_000_000_000);
                prop_assert_eq!(points, expected, "{}", text);
            }
            Err(line) => {
                prop_assert!(!exact, "{text} refused: {line}");
                prop_assert!(line.contains(&format!("'{text}'")) && !line.contains('\n'), "{line}");
            }
        }
    }
}

#[test]
fn every_points_flag_refuses_what_is_no_exact_number_of_points() {
    let commands: [&[&str]; 4] = [
        &["grade", "othello", "--submissions", "."],
        &["grade", "mancala", "--submissions", "."],
        &["exercise", "grade", "--kind", "csp", "--seed", "1", "--dir", "."],
        &["gradescope", "bundle"],
    ];
    for command in commands {
        for bad in ["NaN", "-1", "0.1234567891", "1e3", "inf"] {
            let flag = format!("--points={bad}");
            // The bundle's own flags come before the grade arguments it passes on.
            let grade: &[&str] =
                if command[0] == "gradescope" { &["--suite", "builtin:x", "--cmd", "x {args}"] } else { &[] };
            let args = [command, &[flag.as_str()], grade].concat();
            crate::util::assert_usage_error(&args, &format!("'{bad}' is not a number of points"));
        }
    }
    crate::util::assert_usage_error(
        &["grade", "othello", "--submissions", ".", "--check-share", "1.5"],
        "'1.5' is not a share",
    );
}

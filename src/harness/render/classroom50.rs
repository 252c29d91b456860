//! Classroom 50's `result.json` (`--format classroom50`): one submission, in the shape its runner and score
//! collector validate (`classroom50/result/v1`).
//!
//! # Format
//!
//! ```text
//! {
//!   "schema": "classroom50/result/v1",
//!   "classroom": "cs540",                 // identity: from the runner's environment or the flags
//!   "assignment": "takestones",           //   (`--classroom`, `--assignment`, ...; see `Identity`)
//!   "assignment_type": "individual",
//!   "owner": "alice",
//!   "submission": "submit/2026-09-01T10-00-00Z-abc1234",
//!   "commit": "https://...", "release": "https://...", "review": "https://...",
//!   "datetime": "2026-09-01T10:00:00Z",   // YYYY-MM-DDTHH:MM:SSZ (the runner stamps the commit's own time)
//!   "score": 5,                           // whole points: the sum of the tests' scores
//!   "max-score": 6,
//!   "tests": [
//!     {"test-name": "official-2", "passed": false, "score": 0, "max-score": 1,
//!      "output": "..."}                   // extra field the schema allows: the student's text, as `show` allows
//!   ]
//! }
//! ```
//!
//! The schema counts points in whole numbers. A suite whose points are whole and earned whole is written as it is.
//! Otherwise points are multiplied by a power of ten, the same for every student of a suite:
//! - fractional maxima, all earned whole: the smallest power of ten (up to 10⁴) that makes the maxima whole, so
//!   0.5-point cases become 5 of 10;
//! - partial credit (the suite gives per-line credit, or a score is a fraction of its case's points): 10⁴, so
//!   0.849 of a point is 8490 of 10000 and a third of a point 3333. Points finer than 10⁻⁴ are cut there, never
//!   rounded up, and a partial score is never written as a full one.
//!
//! Each test's `output` then starts by giving the exact points. A student whose every case ended before it was
//! compared (a build error, crashes) shows no per-line credit and is written at the first factor; they score 0
//! either way, so only their `max-score` differs, never their share.
//! A hidden case keeps its row (its points count) but its output only says it is hidden and how it ended. Names
//! are made unique (` (2)`, ...), since the gradebook keys a row by its name. A build error is the student's:
//! every test fails and its output carries the compiler's message. Only a hand-in without a score (the grader's
//! own fault, or not graded: [`crate::harness::outcome::Outcome`]) makes `referee grade` write no `result.json`
//! and exit nonzero, which the runner records as an error instead of a score.

use std::io::{self, Write};

use serde::Serialize;

use super::excerpt;
use super::view::StudentView;
use super::RenderOptions;
use crate::harness::model::{CaseResult, Points, RunReport, SubmissionResult};

/// The `schema` value.
pub const SCHEMA: &str = "classroom50/result/v1";

/// The most decimal places of points kept by scaling to whole numbers.
const MAX_DECIMALS: u32 = 4;

/// Who and what a result is for: the fields Classroom 50 checks against the repository it grades.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Identity {
    /// The classroom's short name.
    pub classroom: String,
    /// The assignment's slug.
    pub assignment: String,
    /// `individual` or `group`.
    pub assignment_type: String,
    /// The repository owner graded.
    pub owner: String,
    /// The `submit/...` tag graded.
    pub submission: String,
    /// Link to the graded commit.
    pub commit: String,
    /// Link to the submission's release.
    pub release: String,
    /// Link to the review diff.
    pub review: String,
    /// When it was submitted, `YYYY-MM-DDTHH:MM:SSZ`.
    pub datetime: String,
}

/// `render()` cannot write this format: a result needs its [`Identity`]; use [`render_submission`].
///
/// # Errors
/// Always [`io::ErrorKind::InvalidInput`].
pub fn render(_report: &RunReport, _options: &RenderOptions, _out: &mut dyn Write) -> io::Result<()> {
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        "classroom50 needs the submission's identity (classroom, assignment, owner, ...): use \
         classroom50::render_submission",
    ))
}

/// Writes `result.json` for `s` (format in the module docs), pretty-printed, newline-terminated.
///
/// # Errors
/// The writer's errors, and [`io::ErrorKind::InvalidInput`] for a hand-in without a score (not graded, or the
/// grader failed: [`crate::harness::outcome::Outcome`]): Classroom 50 would record any `result.json` as a grade.
pub fn render_submission(
    s: &SubmissionResult,
    identity: &Identity,
    options: &RenderOptions,
    out: &mut dyn Write,
) -> io::Result<()> {
    if let Some(line) = s.outcome().reason_line() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("no result.json for a hand-in without a score: {line}"),
        ));
    }
    let scale = scale(&s.cases);
    let tests: Vec<Test> = s
        .cases
        .iter()
        .zip(excerpt::unique_names(&s.cases))
        .map(|(case, name)| Test::new(case, name, scale, s, &options.view))
        .collect();
    let result = ResultFile {
        schema: SCHEMA,
        classroom: &identity.classroom,
        assignment: &identity.assignment,
        assignment_type: &identity.assignment_type,
        owner: &identity.owner,
        submission: &identity.submission,
        commit: &identity.commit,
        release: &identity.release,
        review: &identity.review,
        datetime: &identity.datetime,
        score: tests.iter().map(|t| t.score).sum(),
        max_score: tests.iter().map(|t| t.max_score).sum(),
        tests,
    };
    super::json_text::to_writer_pretty(&mut *out, &result)?;
    writeln!(out)
}

#[derive(Serialize)]
struct ResultFile<'a> {
    schema: &'static str,
    classroom: &'a str,
    assignment: &'a str,
    assignment_type: &'a str,
    owner: &'a str,
    submission: &'a str,
    commit: &'a str,
    release: &'a str,
    review: &'a str,
    datetime: &'a str,
    score: u64,
    #[serde(rename = "max-score")]
    max_score: u64,
    tests: Vec<Test>,
}

#[derive(Serialize)]
struct Test {
    #[serde(rename = "test-name")]
    name: String,
    passed: bool,
    score: u64,
    #[serde(rename = "max-score")]
    max_score: u64,
    output: String,
}

impl Test {
    fn new(case: &CaseResult, name: String, scale: u64, s: &SubmissionResult, view: &StudentView) -> Test {
        let max_score = whole(case.max_score.share(scale, 1));
        let mut score = whole(case.score.share(scale, 1)).min(max_score);
        // Cutting both at the fourth decimal can meet (a third of a point, 0.33332 of it): a partial score stays
        // short of full marks.
        if score == max_score && case.score < case.max_score {
            score = max_score.saturating_sub(1);
        }
        let mut lines = Vec::new();
        if scale != 1 {
            lines.push(format!(
                "points: {} ({} of {} here: Classroom 50 counts whole points)",
                excerpt::points(case.score, case.max_score, true),
                score,
                max_score
            ));
        }
        // Classroom 50 has no due-date gate: the student view decides what is hidden.
        if view.reveal(case, false).is_hidden() {
            lines.push(format!("a hidden test: {}", case.status.label()));
        } else {
            lines.extend(excerpt::case_lines(case, true));
        }
        if case.status == crate::harness::model::Status::BuildError && case.show.actual() {
            if let Some(build) = s.build.as_ref().filter(|b| !b.ok) {
                lines.push(format!("build command: {}", crate::visible::visible(&build.command)));
                lines.extend(excerpt::head_lines(&build.message, 40).0);
            }
        }
        Test {
            name: if name.is_empty() { "(unnamed case)".to_string() } else { name },
            passed: case.status.is_pass(),
            score,
            max_score,
            output: lines.join("\n"),
        }
    }
}

/// The factor for `cases` (see the module docs): 1, 10, ... up to 10^[`MAX_DECIMALS`] for fractional maxima earned
/// whole, 10^[`MAX_DECIMALS`] when any case gives partial credit.
fn scale(cases: &[CaseResult]) -> u64 {
    let finest = 10u64.pow(MAX_DECIMALS);
    let maxima = (0..=MAX_DECIMALS)
        .map(|d| 10u64.pow(d))
        .find(|&k| cases.iter().all(|c| c.max_score.share(k, 1).is_whole()))
        .unwrap_or(finest);
    if cases.iter().any(|c| c.lines_matched.is_some() || !c.score.share(maxima, 1).is_whole()) {
        finest
    } else {
        maxima
    }
}

/// Points as whole points, rounded down (exactly: a whole number stays itself); below zero is 0.
fn whole(x: Points) -> u64 {
    u64::try_from(x.floor().max(0)).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::harness::model::Status;

    /// Exact decimal points, as a rubric writes them.
    fn p(text: &str) -> Points {
        Points::parse_decimal(text).unwrap()
    }

    fn case(score: &str, max: &str) -> CaseResult {
        case_q(p(score), p(max))
    }

    fn case_q(score: Points, max: Points) -> CaseResult {
        let status = if score == max { Status::Passed } else { Status::Failed };
        CaseResult { score, ..CaseResult::new("c".into(), status, max) }
    }

    #[test]
    fn whole_points_stay_and_fractions_scale_by_ten() {
        assert_eq!(scale(&[case("1.0", "1.0"), case("0.0", "2.0")]), 1);
        assert_eq!(scale(&[case("0.5", "0.5"), case("0.0", "1.0")]), 10);
        assert_eq!(scale(&[case("0.0", "0.25")]), 100);
        assert_eq!(scale(&[case_q(Points::ZERO, Points::fraction(1, 3))]), 10_000);
    }

    #[test]
    fn partial_credit_on_whole_point_cases_is_kept() {
        // A known reporter made 0.849 of a point 1; whole points alone would make it 0.
        assert_eq!(scale(&[case("0.849", "1.0"), case("2.0", "2.0")]), 10_000);
        assert_eq!(scale(&[case("0.3", "1.0")]), 10_000);
        assert_eq!(scale(&[case_q(Points::fraction(2, 3), Points::whole(1))]), 10_000);
        // Per-line credit shown by any case fixes the factor, whatever this student earned.
        let full_lines = CaseResult { lines_matched: Some((6, 6)), ..case("1.0", "1.0") };
        assert_eq!(scale(&[full_lines, case("0.0", "2.0")]), 10_000);
        assert_eq!(whole(Points::fraction(2, 3).share(10_000, 1)), 6666);
    }

    #[test]
    fn a_partial_score_cut_to_its_maximum_stays_below_it() {
        let third = Points::fraction(1, 3);
        let s = SubmissionResult {
            id: "a".into(),
            source: String::new(),
            build: None,
            cases: vec![case_q(p("0.33332"), third)],
            score: p("0.33332"),
            max_score: third,
            run: String::new(),
            fingerprint: String::new(),
            handin: String::new(),
            sandbox: Vec::new(),
            not_graded: None,
        };
        let test = Test::new(&s.cases[0], "c".into(), scale(&s.cases), &s, &StudentView::DEFAULT);
        assert_eq!((test.score, test.max_score), (3332, 3333));
    }

    #[test]
    fn partial_credit_rounds_down() {
        assert_eq!(whole(p("0.849").share(10, 1)), 8);
        assert_eq!(whole(p("0.1") + p("0.2") + p("0.7")), 1);
        // A suite file's number is read to nine decimals (the one place a float enters): 2.9999999999 is 3.
        assert_eq!(whole(Points::from_f64(2.9999999999)), 3);
        assert_eq!(whole(Points::fraction(29_999_999, 10_000_000)), 2);
        assert_eq!(whole(Points::whole(-1)), 0);
    }
}

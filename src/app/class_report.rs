//! What every class run writes and prints, whatever it grades (`grade --submissions`, `grade mancala`,
//! `grade othello`, `tournament`): the per-student and class-wide result files, a student's summary line, the
//! progress bar and the exit code after Ctrl-C. Kept apart from `app::grade` so the game graders use it without
//! importing the command that dispatches to them.

use std::path::Path;

use crate::cli::exit;
use crate::harness::grade::class::{safe_name, write_atomic, Entry, Store};
use crate::harness::grade::classwide::{shared_failures, SharedFailure};
use crate::harness::model::{RunReport, SubmissionResult, SCHEMA_VERSION};
use crate::harness::render::view::StudentView;
use crate::harness::render::{self, format_points, Format, RenderOptions};

/// Exit code after Ctrl-C (128 + SIGINT), as shells report it.
pub const CANCELLED: u8 = crate::cli::exit::INTERRUPTED;

/// One student's line in a class run's summary: id, points, and `note`; a hand-in without a score says
/// `not graded` and why instead ([`crate::harness::outcome::Outcome`]).
pub fn student_line(r: &SubmissionResult, note: &str) -> String {
    match (r.outcome().score(), r.outcome().reason_line()) {
        (Some(score), _) => format!(
            "  {:<24} {:>7} / {:<7} {note}",
            crate::visible::visible(&r.id),
            format_points(score),
            format_points(r.max_score)
        ),
        (None, reason) => {
            format!("  {:<24} {:>17} {}", crate::visible::visible(&r.id), "", reason.unwrap_or_default())
        }
    }
}

/// A student's points as a progress line shows them: `4 / 6`, or `not graded`.
pub fn points_text(r: &SubmissionResult) -> String {
    r.outcome().score_text(true)
}

/// Per student: Gradescope `results.json` and markdown feedback. A hand-in without a score (not graded, or the
/// grader failed: [`crate::harness::outcome::Outcome`]) gets no `results.json` (one written before is removed),
/// so nothing final is there to upload; its feedback says why it has no score.
pub fn write_student_files(out_dir: &Path, result: &SubmissionResult, view: StudentView) -> std::io::Result<()> {
    let name = safe_name(&result.id);
    let options = RenderOptions { view, ..RenderOptions::default() };
    let gradescope = out_dir.join("gradescope").join(&name).join("results.json");
    if result.outcome().is_graded() {
        let mut json = Vec::new();
        render::gradescope::render_submission(result, &options, &mut json)?;
        write_atomic(&gradescope, &json)?;
    } else {
        match std::fs::remove_file(&gradescope) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    let mut md = Vec::new();
    render::markdown::render_submission(result, &options, &mut md)?;
    write_atomic(&out_dir.join("feedback").join(format!("{name}.md")), &md)
}

/// A class run's results as they stand: one list of students, the same in the terminal summary, the gradebook
/// and `report.html` (the hand-ins now in the class folder that have a result), with what the TA must be told
/// above it: stored results of hand-ins no longer in the class folder (left out, not deleted) and failures every
/// hand-in shares ([`shared_failures`]).
#[derive(Clone, Debug)]
pub struct ClassResults {
    /// The results listed, sorted by id.
    pub report: RunReport,
    /// How many hand-ins the list is of (those without a result yet are still to grade).
    pub expected: usize,
    /// Ids with a stored result whose hand-in is no longer in the class folder.
    pub removed: Vec<String>,
    /// Cases every listed student failed the same way.
    pub shared: Vec<SharedFailure>,
}

impl ClassResults {
    /// The standing of `mine` (this run's hand-ins: the class, or a shard's part of it) from the results in
    /// `store`; `class` is the whole class folder, so a shard does not call its neighbours' students removed.
    pub fn load(store: &Store, suite: &str, class: &[Entry], mine: &[Entry]) -> ClassResults {
        let mut removed = Vec::new();
        let mut listed = Vec::new();
        for result in store.load_all() {
            if mine.iter().any(|e| e.id == result.id) {
                listed.push(result);
            } else if !class.iter().any(|e| e.id == result.id) {
                removed.push(result.id);
            }
        }
        ClassResults::of(suite, listed, mine.len(), removed)
    }

    /// The standing of `results`, a class of `expected` hand-ins, `removed` ones left out. When every hand-in
    /// failed a case the same way (a suspected grader problem, exit 5), no result is final: each is listed as not
    /// graded, with the shared failure as the reason, never as the 0 it got.
    pub fn of(suite: &str, results: Vec<SubmissionResult>, expected: usize, removed: Vec<String>) -> ClassResults {
        let shared = shared_failures(&results);
        let mut results = results;
        if let Some(first) = shared.first() {
            let reason = format!("not final: {}", first.sentence());
            for result in &mut results {
                result.not_graded.get_or_insert_with(|| reason.clone());
            }
        }
        let report = RunReport { schema: SCHEMA_VERSION, suite: suite.into(), submissions: results };
        ClassResults { report, expected, removed, shared }
    }

    /// What to say above the summary: one line per shared failure, then the removed hand-ins.
    pub fn notices(&self) -> Vec<String> {
        let mut lines: Vec<String> = self.shared.iter().map(SharedFailure::sentence).collect();
        if !self.removed.is_empty() {
            let n = self.removed.len();
            lines.push(format!(
                "left out: {n} stored result{} of hand-in{} no longer in the class folder (kept in results/): {}",
                if n == 1 { "" } else { "s" },
                if n == 1 { "" } else { "s" },
                self.removed.join(", ")
            ));
        }
        lines
    }

    /// The class-wide files: gradebook CSV, JUnit XML, the JSON report and `report.html` (with the notices).
    ///
    /// # Errors
    /// When a file cannot be written.
    pub fn write(&self, out_dir: &Path, view: StudentView) -> std::io::Result<()> {
        write_report_files(out_dir, &self.report, self.expected, &self.notices(), view)
    }

    /// [`ClassResults::write`] at the end of a run, and every listed student's own files again
    /// ([`write_student_files`]), so they say what the class files say: not graded when the run found a
    /// suspected grader problem, graded again once it no longer does.
    ///
    /// # Errors
    /// When a file cannot be written.
    pub fn write_final(&self, out_dir: &Path, view: StudentView) -> std::io::Result<()> {
        for result in &self.report.submissions {
            write_student_files(out_dir, result, view)?;
        }
        self.write(out_dir, view)
    }

    /// The exit code of a run that ended with this standing, `graded` being its code when nothing is shared:
    /// a harness error stays 3; a shared failure is [`exit::SUSPECT`] rather than the students' 1.
    pub fn exit_code(&self, graded: u8) -> u8 {
        if graded == exit::INTERNAL || self.shared.is_empty() {
            graded
        } else {
            exit::SUSPECT
        }
    }
}

/// The class-wide files of `report` (a class of `expected` hand-ins): gradebook CSV, JUnit XML, the JSON report,
/// and `report.html` (with `notices` above its summary), the JUnit report showing students what `view` lets them
/// see, each renamed into place whole so a TA can reload the
/// page while the run goes on.
pub fn write_report_files(
    out_dir: &Path,
    report: &RunReport,
    expected: usize,
    notices: &[String],
    view: StudentView,
) -> std::io::Result<()> {
    let options = RenderOptions { view, ..RenderOptions::default() };
    for (format, file) in [(Format::Csv, "gradebook.csv"), (Format::Junit, "junit.xml"), (Format::Json, "report.json")]
    {
        let mut bytes = Vec::new();
        render::render(format, report, &options, &mut bytes)?;
        write_atomic(&out_dir.join(file), &bytes)?;
    }
    let feedback = |id: &str| render::html::escape::href(&["feedback", &format!("{}.md", safe_name(id))]);
    let page = render::html::ClassPage { title: "Class report".into(), expected, feedback: &feedback };
    let mut html = Vec::new();
    render::html::class::render_class_with_notices(report, &page, notices, &mut html)?;
    write_atomic(&out_dir.join("report.html"), &html)
}

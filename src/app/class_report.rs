//! What every class run writes and prints, whatever it grades (`grade --submissions`, `grade mancala`,
//! `grade othello`, `tournament`): the per-student and class-wide result files, a student's summary line, the
//! progress bar and the exit code after Ctrl-C. Kept apart from `app::grade` so the game graders use it without
//! importing the command that dispatches to them.

use std::path::Path;

use crate::harness::grade::class::{safe_name, write_atomic};
use crate::harness::model::{RunReport, SubmissionResult};
use crate::harness::render::{self, format_points, Format, RenderOptions};

/// Exit code after Ctrl-C (128 + SIGINT), as shells report it.
pub const CANCELLED: u8 = 130;

/// One student's line in a class run's summary: id, points, and `note`.
pub fn student_line(r: &SubmissionResult, note: &str) -> String {
    format!("  {:<24} {:>7} / {:<7} {note}", r.id, format_points(r.score), format_points(r.max_score))
}

/// Per student: Gradescope `results.json` and markdown feedback.
pub fn write_student_files(out_dir: &Path, result: &SubmissionResult) -> std::io::Result<()> {
    let name = safe_name(&result.id);
    let options = RenderOptions::default();
    let mut json = Vec::new();
    render::gradescope::render_submission(result, &options, &mut json)?;
    write_atomic(&out_dir.join("gradescope").join(&name).join("results.json"), &json)?;
    let mut md = Vec::new();
    render::markdown::render_submission(result, &options, &mut md)?;
    write_atomic(&out_dir.join("feedback").join(format!("{name}.md")), &md)
}

/// The class-wide files of `report` (a class of `expected` hand-ins): gradebook CSV, JUnit XML, the JSON report,
/// and `report.html`, each renamed into place whole so a TA can reload the page while the run goes on.
pub fn write_report_files(out_dir: &Path, report: &RunReport, expected: usize) -> std::io::Result<()> {
    let options = RenderOptions::default();
    for (format, file) in [(Format::Csv, "gradebook.csv"), (Format::Junit, "junit.xml"), (Format::Json, "report.json")]
    {
        let mut bytes = Vec::new();
        render::render(format, report, &options, &mut bytes)?;
        write_atomic(&out_dir.join(file), &bytes)?;
    }
    let feedback = |id: &str| render::html::escape::href(&["feedback", &format!("{}.md", safe_name(id))]);
    let page = render::html::ClassPage { title: "Class report".into(), expected, feedback: &feedback };
    let mut html = Vec::new();
    render::html::render_class(report, &page, &mut html)?;
    write_atomic(&out_dir.join("report.html"), &html)
}

//! Renderers: one [`RunReport`] formatted for a person, a program or a gradebook.
//!
//! The comparer decides every status and score once, into the result model ([`crate::harness::model`]); a
//! renderer only formats it. It never re-judges a case, never rescales a score, and writes only to the
//! `&mut dyn Write` it is handed (stdout belongs to the selected renderer; logs go to stderr).
//!
//! | [`Format`] | module | for |
//! |---|---|---|
//! | `terminal` | [`terminal`] | the TA at a terminal: one line per case, diffs, stderr tails |
//! | `json` | [`json`] | programs: the model itself, pretty-printed |
//! | `gradescope` | [`gradescope`] | Gradescope's `results.json`, one per submission |
//! | `junit` | [`junit`] | CI dashboards: JUnit XML, one `<testsuite>` per submission |
//! | `csv` | [`csv`] | the gradebook: one row per submission, one status column per case |
//! | `md` | [`markdown`] | per-student feedback in Markdown |
//! | `classroom50` | [`classroom50`] | Classroom 50's `result.json` (needs the submission's identity) |
//! | `prairielearn` | [`prairielearn`] | PrairieLearn's external-grader `results.json` |
//!
//! **What a student sees.** Each case carries a [`crate::harness::model::Show`] (`full`, `actual-only`, `none`,
//! from the suite or `--show`). The student-facing formats (terminal, Markdown, Gradescope, JUnit, Classroom 50,
//! PrairieLearn) honour it: the expected output appears only under `full`. The TA-facing ones (`json`, `csv`,
//! `report.html`) always show everything.
//!
//! **Scores.** A renderer never rescales or rounds a score up. The formats a program reads write it exactly: JSON,
//! Gradescope and PrairieLearn as JSON numbers, the gradebook CSV and JUnit's score properties as the shortest
//! decimal that reads back as the same number ([`exact_points`]). Text for people shows at most four decimals,
//! cut, never rounded ([`format_points`]: 0.99996 is `0.9999`, never `1`). Classroom 50 takes whole points only:
//! it scales by a power of ten ([`classroom50`]). Where a student sees a total that hidden tests count in
//! (Gradescope, Markdown, JUnit, PrairieLearn; Classroom 50's hidden rows), the format says some tests are hidden.
//!
//! A class run also writes `report.html` ([`html`]): the whole class on one self-contained page.
//!
//! Every renderer takes [`RenderOptions`]: `color` (ANSI colors, terminal only) and `redact` (every elapsed time
//! becomes 0, so snapshots stay stable). Every text a student or their program chose is shown through
//! [`crate::visible`] (one notation, `\u{hex}`, for control, bidi, zero-width and other hidden characters, which a
//! literal `\u{` cannot imitate): compared program output through [`visible::show_invisible`], so a difference in
//! whitespace or in an invisible character can be seen; stderr and compiler messages lose their ANSI codes
//! ([`visible::strip_ansi`]) first; JSON outputs write hidden characters as `\uXXXX` ([`json_text`]). So nothing a
//! student wrote reaches the reader's terminal, spreadsheet or browser as an escape sequence or a bidi override. The
//! class runner calls [`gradescope::render_submission`] and [`markdown::render_submission`] directly, one file per
//! student.

pub mod classroom50;
pub mod csv;
mod diff;
mod excerpt;
pub mod gradescope;
pub mod html;
pub mod json;
pub mod json_text;
pub mod junit;
pub mod markdown;
pub mod prairielearn;
pub mod terminal;
pub mod view;
pub mod visible;

pub use excerpt::{exact as exact_points, number as format_points};

use std::io::{self, Write};

use crate::harness::model::RunReport;

/// A report format (`--format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A readable report for a person at a terminal.
    Terminal,
    /// The result model as pretty JSON.
    Json,
    /// Gradescope's autograder `results.json`.
    Gradescope,
    /// JUnit XML for CI dashboards.
    Junit,
    /// A gradebook CSV: one row per submission.
    Csv,
    /// Per-student feedback in Markdown.
    Md,
    /// Classroom 50's `result.json` (identity from the environment or the Classroom 50 flags).
    Classroom50,
    /// PrairieLearn's external-grader `results.json`.
    Prairielearn,
}

/// How to render, independent of the format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RenderOptions {
    /// Color with ANSI escape codes (the terminal format only; the others never emit them).
    pub color: bool,
    /// Replace every elapsed time with 0 (Gradescope: leave `execution_time` out), so output is stable for
    /// snapshots.
    pub redact: bool,
    /// What student-facing formats may show of each case ([`view::StudentView`]; the TA's choices).
    pub view: view::StudentView,
}

/// Renders `report` as `format` into `out`.
///
/// Classroom 50 needs the submission's identity, which a report does not hold: it is written with
/// [`classroom50::render_submission`], and asking this function for it is an [`io::ErrorKind::InvalidInput`] error.
///
/// Gradescope and Markdown describe one submission each; with several, they are written one after another (the
/// class runner writes one file per student with [`gradescope::render_submission`] and
/// [`markdown::render_submission`] instead).
///
/// # Errors
///
/// Only the writer's errors.
///
/// # Examples
///
/// ```
/// use referee::harness::model::{RunReport, SCHEMA_VERSION};
/// use referee::harness::render::{render, Format, RenderOptions};
///
/// let report = RunReport { schema: SCHEMA_VERSION, suite: "takestones".into(), submissions: vec![] };
/// let mut out = Vec::new();
/// render(Format::Csv, &report, &RenderOptions::default(), &mut out)?;
/// assert_eq!(String::from_utf8(out)?, "id,score,max_score\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn render(format: Format, report: &RunReport, options: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    match format {
        Format::Terminal => terminal::render(report, options, out),
        Format::Json => json::render(report, options, out),
        Format::Gradescope => gradescope::render(report, options, out),
        Format::Junit => junit::render(report, options, out),
        Format::Csv => csv::render(report, options, out),
        Format::Md => markdown::render(report, options, out),
        Format::Classroom50 => classroom50::render(report, options, out),
        Format::Prairielearn => prairielearn::render(report, options, out),
    }
}

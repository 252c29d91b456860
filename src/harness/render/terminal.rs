//! The report a person reads at a terminal (`--format terminal`).
//!
//! # Format
//!
//! ```text
//! suite: takestones
//!
//! alice (submissions/alice.zip): 1 / 3
//!   ✓ official-1  3 0 0    1/1  passed         accepted reading: composite=legal-moves  12 ms
//!   ✗ official-2  7 0 3    0/1  failed         line 2 differs  15 ms
//!       diff (- expected, + actual); the first difference that counts is at line 2:
//!       @@ -1,3 +1,3 @@
//!        Move: 3
//!       -Value: -0.6
//!       +Value: -0.6··
//!        Visited: 12
//!       (the program's output does not end with a newline)
//!   ✗ crash       7 1 1 2  0/1  crashed        killed by SIGSEGV  9 ms
//!       stderr:
//!       | Segmentation fault
//! score: 1 / 3
//! 1 passed, 1 failed, 1 crashed
//! ```
//!
//! - A header per submission: id, source, score, or `not graded` / `not graded (grader failure)` with a line
//!   that says why ([`crate::harness::outcome::Outcome`]: no score is shown for a hand-in that has none). A failed build adds `build failed: <command>` and the first
//!   [`BUILD_LINES`] lines of the compiler's message.
//! - One line per case: `✓`/`✗`, name, arguments, `score/max`, status label, then the detail, the lines matched
//!   (per-line credit), the reading (`accepted reading:` when it passed, `closest reading:` when not) and the
//!   wall-clock time.
//! - Under a case that did not pass and printed something (or failed by printing nothing): the start of a unified
//!   diff of the expected output (`-`) against the printed output (`+`), at most 20 lines, invisible characters
//!   shown (`→` tab, `·` trailing space, `␍` CR, `\u{..}` other controls), with notes on a missing final newline,
//!   the output cap and invalid UTF-8.
//! - Under a timeout, crash, nonzero exit, output limit or harness error: the last 10 lines of stderr, `| `-quoted,
//!   ANSI color codes dropped and other control characters shown as `\u{..}` (tabs kept).
//! - Each submission ends with `score: X / Y` (or `score: not graded`) and the count of cases by status.
//!
//! What a case shows follows its [`crate::harness::model::Show`]: under `actual-only` the diff becomes the
//! program's own lines around the first one that differs (`>` marks it) and causes lose their evidence; under
//! `none` a case line has no arguments or detail, and only the names of its causes follow it.
//!
//! Scores print without trailing zeros (`1`, `0.5`, `2.25`), at most four decimals, cut, never rounded up. With
//! `color`, passes are green, failures and `-` lines red, `+` lines green, harness errors yellow, hunk headers
//! cyan; without it there are no escape codes.
//! With `redact`, times print as `0 ms`.

use std::io::{self, Write};

use super::diff::{LineKind, OutputDiff, MAX_LINES};
use super::excerpt::{self, StderrTail};
use super::RenderOptions;
use crate::harness::model::{CaseResult, RunReport, Status, SubmissionResult};
use crate::visible::visible;

/// Lines of a compiler's message the terminal shows.
pub const BUILD_LINES: usize = 30;

const RED: &str = "31";
const GREEN: &str = "32";
const YELLOW: &str = "33";
const CYAN: &str = "36";
const BOLD: &str = "1";

/// Indentation of everything printed under a case line.
const UNDER: &str = "      ";

/// Writes the terminal report of every submission (format in the module docs).
///
/// # Errors
///
/// Only the writer's errors.
pub fn render(report: &RunReport, options: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "suite: {}", visible(&report.suite))?;
    for submission in &report.submissions {
        writeln!(out)?;
        render_submission(submission, options, out)?;
    }
    Ok(())
}

/// Writes one submission's block: header, case lines with their diffs and stderr tails, total and counts.
///
/// # Errors
///
/// Only the writer's errors.
pub fn render_submission(s: &SubmissionResult, options: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    let paint = Painter { color: options.color };
    writeln!(
        out,
        "{} ({}): {}",
        paint.apply(BOLD, &visible(&s.id)),
        visible(&s.source),
        paint.apply(BOLD, &s.outcome().score_text(true))
    )?;
    if let Some(line) = s.outcome().reason_line() {
        writeln!(out, "  {}", paint.apply(YELLOW, &line))?;
    }
    if let Some(build) = s.build.as_ref().filter(|b| !b.ok) {
        writeln!(out, "  {} {}", paint.apply(RED, "build failed:"), visible(&build.command))?;
        let (lines, omitted) = excerpt::head_lines(&build.message, BUILD_LINES);
        for line in lines {
            writeln!(out, "    | {line}")?;
        }
        if omitted > 0 {
            writeln!(out, "    ({omitted} more lines)")?;
        }
    }

    let rows: Vec<Row> = s.cases.iter().map(Row::new).collect();
    let widths = Widths::of(&rows);
    for (case, row) in s.cases.iter().zip(&rows) {
        write_case_line(case, row, &widths, options, paint, out)?;
        if let Some(diagnosis) = case.diagnosis.as_ref().filter(|_| case.show.actual()) {
            for (i, line) in diagnosis.lines().enumerate() {
                let line = excerpt::tame(line);
                writeln!(out, "{UNDER}{}{line}", if i == 0 { "diagnosis: " } else { "           " })?;
            }
        }
        for line in excerpt::causes(case) {
            writeln!(out, "{UNDER}{line}")?;
        }
        write_diff(case, paint, out)?;
        if let Some(tail) = StderrTail::of(case) {
            writeln!(out, "{UNDER}{}", tail.heading())?;
            for line in &tail.lines {
                writeln!(out, "{UNDER}| {line}")?;
            }
        }
    }
    writeln!(out, "score: {}", s.outcome().score_text(true))?;
    writeln!(out, "{}", excerpt::status_counts(&s.cases))
}

/// The padded columns of a case line.
struct Row {
    name: String,
    args: String,
    points: String,
}

impl Row {
    fn new(case: &CaseResult) -> Row {
        Row {
            name: super::visible::show_invisible(&case.name),
            args: if case.show.actual() { excerpt::args(&case.args) } else { String::new() },
            points: excerpt::points(case.score, case.max_score, false),
        }
    }
}

struct Widths {
    name: usize,
    args: usize,
    points: usize,
    label: usize,
}

impl Widths {
    fn of(rows: &[Row]) -> Widths {
        let max = |f: fn(&Row) -> &str| rows.iter().map(|r| f(r).chars().count()).max().unwrap_or(0);
        Widths {
            name: max(|r| &r.name),
            args: max(|r| &r.args),
            points: max(|r| &r.points),
            label: excerpt::STATUSES.iter().map(|s| s.label().len()).max().unwrap_or(0),
        }
    }
}

fn write_case_line(
    case: &CaseResult,
    row: &Row,
    widths: &Widths,
    options: &RenderOptions,
    paint: Painter,
    out: &mut dyn Write,
) -> io::Result<()> {
    let (mark, code) = match case.status {
        Status::Passed => ("✓", GREEN),
        Status::HarnessError => ("✗", YELLOW),
        _ => ("✗", RED),
    };
    let mut tail: Vec<String> = Vec::new();
    if case.show.actual() {
        if !case.detail.is_empty() {
            tail.push(excerpt::tame(&case.detail));
        }
        tail.extend(excerpt::lines_matched(case));
        tail.extend(excerpt::reading(case));
    }
    tail.push(format!("{} ms", excerpt::elapsed_ms(case.elapsed_ms, options)));
    writeln!(
        out,
        "  {} {}  {}  {}  {}  {}",
        paint.apply(code, mark),
        pad(&row.name, widths.name),
        pad(&row.args, widths.args),
        pad_left(&row.points, widths.points),
        paint.apply(code, &pad(case.status.label(), widths.label)),
        tail.join("  ")
    )
}

/// The diff under a case that did not pass: whenever it printed something, and for a wrong answer even when it
/// printed nothing (then the diff is the expected output, all `-`).
fn write_diff(case: &CaseResult, paint: Painter, out: &mut dyn Write) -> io::Result<()> {
    if case.status.is_pass() || (case.stdout.text.is_empty() && case.status != Status::Failed) || !case.show.actual() {
        return Ok(());
    }
    if !case.show.expected() {
        for line in excerpt::output_lines(case) {
            writeln!(out, "{UNDER}{line}")?;
        }
        return Ok(());
    }
    let diff = OutputDiff::new(&excerpt::comparable_expected(case), &case.stdout.text, MAX_LINES);
    if case.stdout.text.is_empty() {
        writeln!(out, "{UNDER}(the program printed nothing)")?;
    }
    if diff.lines.is_empty() {
        if let Some(d) = &case.difference {
            for line in excerpt::first_difference(d) {
                writeln!(out, "{UNDER}{line}")?;
            }
        }
    } else {
        match &case.difference {
            Some(d) => writeln!(
                out,
                "{UNDER}diff (- expected, + actual); the first difference that counts is at line {}:",
                d.line
            )?,
            None => writeln!(out, "{UNDER}diff (- expected, + actual):")?,
        }
        for line in &diff.lines {
            let text = format!("{}{}", line.kind.prefix(), line.text);
            let shown = match line.kind {
                LineKind::Hunk => paint.apply(CYAN, &text),
                LineKind::Context => text,
                LineKind::Expected => paint.apply(RED, &text),
                LineKind::Actual => paint.apply(GREEN, &text),
            };
            writeln!(out, "{UNDER}{shown}")?;
        }
    }
    for note in diff.notes() {
        writeln!(out, "{UNDER}{note}")?;
    }
    for note in excerpt::capture_notes(case) {
        writeln!(out, "{UNDER}{note}")?;
    }
    Ok(())
}

fn pad(text: &str, width: usize) -> String {
    let fill = width.saturating_sub(text.chars().count());
    format!("{text}{}", " ".repeat(fill))
}

fn pad_left(text: &str, width: usize) -> String {
    let fill = width.saturating_sub(text.chars().count());
    format!("{}{text}", " ".repeat(fill))
}

/// Wraps text in an ANSI SGR code when color is on.
#[derive(Clone, Copy)]
struct Painter {
    color: bool,
}

impl Painter {
    fn apply(self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::harness::model::{Captured, FirstDifference, Visibility};

    fn failed_case() -> CaseResult {
        CaseResult {
            name: "c1".into(),
            args: vec!["7".into(), "0".into(), "3".into()],
            status: Status::Failed,
            score: crate::harness::model::Points::ZERO,
            max_score: crate::harness::model::Points::from_f64(1.5),
            visibility: Visibility::Visible,
            show: crate::harness::model::Show::Full,
            tags: vec![],
            detail: "line 1 differs".into(),
            reading: None,
            diagnosis: None,
            causes: Vec::new(),
            lines_matched: None,
            difference: Some(FirstDifference { line: 1, expected: Some("a".into()), actual: Some("b".into()) }),
            expected: "a\n".into(),
            stdout: Captured { text: "b\n".into(), bytes: 2, ..Captured::default() },
            stderr: Captured::default(),
            elapsed_ms: 7,
        }
    }

    fn submission(cases: Vec<CaseResult>) -> SubmissionResult {
        SubmissionResult {
            id: "alice".into(),
            source: "alice.zip".into(),
            build: None,
            cases,
            score: crate::harness::model::Points::ZERO,
            max_score: crate::harness::model::Points::from_f64(1.5),
            run: "r".into(),
            fingerprint: "f".into(),
            handin: String::new(),
            sandbox: Vec::new(),
            not_graded: None,
        }
    }

    fn rendered(s: &SubmissionResult, options: RenderOptions) -> String {
        let mut out = Vec::new();
        render_submission(s, &options, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn plain_output_has_no_escape_codes() {
        let text = rendered(&submission(vec![failed_case()]), RenderOptions::default());
        assert!(!text.contains('\x1b'));
        assert!(text.contains("  ✗ c1  7 0 3  0/1.5  failed         line 1 differs  7 ms\n"), "{text}");
        assert!(text.contains("      -a\n      +b\n"), "{text}");
        assert!(text.ends_with("score: 0 / 1.5\n1 failed\n"), "{text}");
    }

    #[test]
    fn color_marks_diff_lines() {
        let text = rendered(
            &submission(vec![failed_case()]),
            RenderOptions { color: true, redact: true, view: crate::harness::render::view::StudentView::DEFAULT },
        );
        assert!(text.contains("\x1b[31m-a\x1b[0m"), "{text}");
        assert!(text.contains("\x1b[32m+b\x1b[0m"), "{text}");
        assert!(text.contains("  0 ms\n"), "{text}");
    }

    #[test]
    fn a_wrong_answer_with_no_output_still_shows_what_was_expected() {
        let mut case = failed_case();
        case.stdout = Captured::default();
        let text = rendered(&submission(vec![case]), RenderOptions::default());
        assert!(text.contains("(the program printed nothing)\n"), "{text}");
        assert!(text.contains("      -a\n"), "{text}");
    }

    #[test]
    fn only_the_final_newline_differs() {
        let mut case = failed_case();
        case.stdout.text = "a".into();
        case.difference = Some(FirstDifference { line: 2, expected: None, actual: None });
        let text = rendered(&submission(vec![case]), RenderOptions::default());
        assert!(text.contains("first difference at line 2:"), "{text}");
        assert!(text.contains("(the program's output does not end with a newline)"), "{text}");
    }
}

//! The small pieces of a case every renderer quotes the same way: score numbers, argument lists, the stderr tail,
//! the first difference, the accepted reading, counts by status, elapsed times under redaction.
//!
//! Keeping them here means the terminal, Gradescope, JUnit and Markdown reports word a case identically.

use super::visible::{show_invisible, strip_ansi};
use super::RenderOptions;
use crate::harness::model::{CaseResult, FirstDifference, Status};

/// Lines of stderr a report quotes.
pub(crate) const STDERR_LINES: usize = 10;

/// Every status, in the order reports count them.
pub(crate) const STATUSES: [Status; 8] = [
    Status::Passed,
    Status::Failed,
    Status::Timeout,
    Status::Crashed,
    Status::NonzeroExit,
    Status::OutputLimit,
    Status::BuildError,
    Status::HarnessError,
];

/// A score as people write it: `1`, `0.5`, `2.25`, `0.3333` (at most four decimals, no trailing zeros).
pub fn number(x: f64) -> String {
    if !x.is_finite() {
        return x.to_string();
    }
    let fixed = format!("{x:.4}");
    let trimmed = fixed.trim_end_matches('0').trim_end_matches('.');
    if trimmed == "-0" {
        "0".to_string()
    } else {
        trimmed.to_string()
    }
}

/// `score/max` (the terminal) or, with `spaced`, `score / max`.
pub(crate) fn points(score: f64, max: f64, spaced: bool) -> String {
    let sep = if spaced { " / " } else { "/" };
    format!("{}{sep}{}", number(score), number(max))
}

/// The arguments as one shell-quoted line (`7 3 1`, `'two words'`), invisible characters shown.
pub(crate) fn args(args: &[String]) -> String {
    let joined = shlex::try_join(args.iter().map(String::as_str)).unwrap_or_else(|_| args.join(" "));
    show_invisible(&joined)
}

/// Elapsed milliseconds as reported: 0 under redaction.
pub(crate) fn elapsed_ms(ms: u64, options: &RenderOptions) -> u64 {
    if options.redact {
        0
    } else {
        ms
    }
}

/// Milliseconds as seconds with three decimals (`1.234`), for JUnit's `time` attributes.
pub(crate) fn seconds(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}

/// Whether a report quotes this status's stderr: the program ended abnormally or the grader could not run it, so
/// stderr likely says why. A wrong answer's stderr is usually debug noise and is left out.
pub(crate) fn quotes_stderr(status: Status) -> bool {
    matches!(
        status,
        Status::Timeout | Status::Crashed | Status::NonzeroExit | Status::OutputLimit | Status::HarnessError
    )
}

/// The end of a case's stderr, when its status calls for it and there is any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct StderrTail {
    /// The last [`STDERR_LINES`] lines, ANSI color codes dropped, [`tame`]d.
    pub(crate) lines: Vec<String>,
    /// How many earlier lines were left out.
    pub(crate) omitted: usize,
    /// Whether the capture itself was cut at the output cap.
    pub(crate) truncated: bool,
}

impl StderrTail {
    /// The tail of `case`'s stderr, or `None` for a status that does not quote stderr or an empty stderr.
    pub(crate) fn of(case: &CaseResult) -> Option<StderrTail> {
        if !quotes_stderr(case.status) || case.stderr.text.trim().is_empty() {
            return None;
        }
        let text = strip_ansi(&case.stderr.text);
        let all: Vec<&str> = text.strip_suffix('\n').unwrap_or(&text).split('\n').collect();
        let omitted = all.len().saturating_sub(STDERR_LINES);
        Some(StderrTail {
            lines: all[omitted..].iter().map(|l| tame(l)).collect(),
            omitted,
            truncated: case.stderr.truncated,
        })
    }

    /// The heading line: `stderr (last 10 of 42 lines, cut at the output cap):`.
    pub(crate) fn heading(&self) -> String {
        let mut parts = Vec::new();
        if self.omitted > 0 {
            parts.push(format!("last {} of {} lines", self.lines.len(), self.lines.len() + self.omitted));
        }
        if self.truncated {
            parts.push("cut at the output cap".to_string());
        }
        if parts.is_empty() {
            "stderr:".to_string()
        } else {
            format!("stderr ({}):", parts.join(", "))
        }
    }
}

/// The first difference in three lines: where, the expected line, the printed line (invisible characters shown).
pub(crate) fn first_difference(d: &FirstDifference) -> [String; 3] {
    let side = |line: &Option<String>, ended: &str| match line {
        Some(line) => show_invisible(line),
        None => format!("({ended})"),
    };
    [
        format!("first difference at line {}:", d.line),
        format!("  expected: {}", side(&d.expected, "the expected output had ended")),
        format!("  actual:   {}", side(&d.actual, "the output had ended")),
    ]
}

/// The reading line: what the output matched when it passed, the closest reading when it did not.
pub(crate) fn reading(case: &CaseResult) -> Option<String> {
    let reading = case.reading.as_ref()?;
    Some(if case.status.is_pass() {
        format!("accepted reading: {reading}")
    } else {
        format!("closest reading: {reading}")
    })
}

/// The causes of a case, as every plain-text renderer prints them: `cause: name (kind): sentence`, then each line
/// of evidence indented under it ([`tame`]d, since evidence can quote a program's answer).
pub(crate) fn causes(case: &CaseResult) -> Vec<String> {
    let mut lines = Vec::new();
    for cause in &case.causes {
        lines.push(format!("cause: {}", tame(&cause.headline())));
        lines.extend(cause.evidence.iter().map(|e| format!("  {}", tame(e))));
    }
    lines
}

/// `3/5 lines matched`, when the suite gives per-line credit.
pub(crate) fn lines_matched(case: &CaseResult) -> Option<String> {
    case.lines_matched.map(|(matched, total)| format!("{matched}/{total} lines matched"))
}

/// Notes on how the printed output was captured: cut at the cap, not UTF-8.
pub(crate) fn capture_notes(case: &CaseResult) -> Vec<String> {
    let mut notes = Vec::new();
    if case.stdout.truncated {
        notes.push(format!("(output cut at the cap, after {} bytes)", case.stdout.bytes));
    }
    if case.stdout.invalid_utf8 {
        notes.push("(output was not valid UTF-8; bad bytes are shown as \u{fffd})".to_string());
    }
    notes
}

/// `2 passed, 1 failed, 1 timeout`: nonzero counts in [`STATUSES`] order (`no cases` when empty).
pub(crate) fn status_counts<'a>(cases: impl IntoIterator<Item = &'a CaseResult>) -> String {
    let mut counts = [0usize; STATUSES.len()];
    for case in cases {
        counts[status_index(case.status)] += 1;
    }
    let parts: Vec<String> = STATUSES
        .iter()
        .zip(counts)
        .filter(|(_, n)| *n > 0)
        .map(|(status, n)| format!("{n} {}", status.label()))
        .collect();
    if parts.is_empty() {
        "no cases".to_string()
    } else {
        parts.join(", ")
    }
}

/// The position of `status` in [`STATUSES`]; a `match`, so a new status fails to compile until it is placed.
fn status_index(status: Status) -> usize {
    match status {
        Status::Passed => 0,
        Status::Failed => 1,
        Status::Timeout => 2,
        Status::Crashed => 3,
        Status::NonzeroExit => 4,
        Status::OutputLimit => 5,
        Status::BuildError => 6,
        Status::HarnessError => 7,
    }
}

/// The first `max` lines of a message meant to be read as is (a compiler's), and how many lines were left out;
/// each line [`tame`]d.
pub(crate) fn head_lines(text: &str, max: usize) -> (Vec<String>, usize) {
    let text = strip_ansi(text);
    let all: Vec<&str> = text.trim_end().lines().collect();
    let omitted = all.len().saturating_sub(max);
    (all.into_iter().take(max).map(tame).collect(), omitted)
}

/// A line of a message that is read rather than compared (stderr, a compiler's message): a trailing CR dropped,
/// control characters other than tab shown as `\u{..}`, spaces and tabs kept. Callers strip ANSI codes first.
pub(crate) fn tame(line: &str) -> String {
    let mut tamed = String::with_capacity(line.len());
    for c in line.trim_end_matches('\r').chars() {
        if c.is_control() && c != '\t' {
            tamed.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            tamed.push(c);
        }
    }
    tamed
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::harness::model::Captured;

    fn case(status: Status, stderr: &str) -> CaseResult {
        let stderr = Captured { text: stderr.into(), bytes: stderr.len(), ..Captured::default() };
        CaseResult { stderr, ..CaseResult::new("c".into(), status, 1.0) }
    }

    #[test]
    fn numbers_drop_trailing_zeros() {
        assert_eq!(number(1.0), "1");
        assert_eq!(number(0.5), "0.5");
        assert_eq!(number(2.25), "2.25");
        assert_eq!(number(10.0), "10");
        assert_eq!(number(0.0), "0");
        assert_eq!(number(-0.0), "0");
        assert_eq!(number(1.0 / 3.0), "0.3333");
        assert_eq!(number(0.00001), "0");
        assert_eq!(number(-1.5), "-1.5");
        assert_eq!(points(1.5, 2.0, true), "1.5 / 2");
    }

    #[test]
    fn args_are_shell_quoted() {
        assert_eq!(args(&["7".into(), "3".into(), "1".into()]), "7 3 1");
        assert_eq!(args(&["two words".into()]), "'two words'");
        assert_eq!(args(&[]), "");
    }

    #[test]
    fn seconds_have_three_decimals() {
        assert_eq!(seconds(0), "0.000");
        assert_eq!(seconds(1234), "1.234");
        assert_eq!(seconds(10_005), "10.005");
    }

    #[test]
    fn stderr_tail_keeps_the_last_lines() {
        let text: String = (1..=15).map(|i| format!("line {i}\n")).collect();
        let tail = StderrTail::of(&case(Status::Crashed, &text)).unwrap();
        assert_eq!(tail.lines.first().map(String::as_str), Some("line 6"));
        assert_eq!(tail.lines.len(), STDERR_LINES);
        assert_eq!(tail.heading(), "stderr (last 10 of 15 lines):");
        assert_eq!(StderrTail::of(&case(Status::Crashed, "boom\n")).unwrap().heading(), "stderr:");
        assert_eq!(StderrTail::of(&case(Status::Failed, "debug\n")), None);
        assert_eq!(StderrTail::of(&case(Status::Crashed, " \n")), None);
    }

    #[test]
    fn stderr_heading_mentions_the_cap() {
        let mut c = case(Status::OutputLimit, "x\n");
        c.stderr.truncated = true;
        assert_eq!(StderrTail::of(&c).unwrap().heading(), "stderr (cut at the output cap):");
        c.stderr.text = "x\n".repeat(12);
        assert_eq!(StderrTail::of(&c).unwrap().heading(), "stderr (last 10 of 12 lines, cut at the output cap):");
    }

    #[test]
    fn first_difference_shows_the_end_of_a_side() {
        let d = FirstDifference { line: 4, expected: Some("a\t".into()), actual: None };
        assert_eq!(
            first_difference(&d),
            ["first difference at line 4:", "  expected: a→", "  actual:   (the output had ended)"]
        );
    }

    #[test]
    fn counts_follow_status_order() {
        let cases = [case(Status::Timeout, ""), case(Status::Passed, ""), case(Status::Passed, "")];
        assert_eq!(status_counts(&cases), "2 passed, 1 timeout");
        assert_eq!(status_counts(&[]), "no cases");
        for (i, status) in STATUSES.iter().enumerate() {
            assert_eq!(status_index(*status), i);
        }
    }

    #[test]
    fn head_lines_counts_the_rest() {
        assert_eq!(head_lines("a\nb\nc\n", 2), (vec!["a".to_string(), "b".to_string()], 1));
        assert_eq!(head_lines("\u{1b}[1mx\u{1b}[0m\t y \u{7}\r\n", 5), (vec!["x\t y \\u{7}".to_string()], 0));
        assert_eq!(tame("\tat Main.main(Main.java:3)\r"), "\tat Main.main(Main.java:3)");
    }
}

//! The small pieces of a case every renderer quotes the same way: score numbers, argument lists, the stderr tail,
//! the first difference, the accepted reading, counts by status, elapsed times under redaction.
//!
//! Keeping them here means the terminal, Gradescope, JUnit, Markdown, Classroom 50 and PrairieLearn reports word a
//! case identically, and honour its [`Show`] the same way: [`case_lines`] is the one place that decides what of a
//! case a student-facing text may quote.

use super::diff::{OutputDiff, MAX_LINES};
use super::visible::{show_invisible, strip_ansi};
use super::RenderOptions;
use crate::harness::model::{CaseResult, FirstDifference, Points, Show, Status};

/// The tag of a case whose output is a record (a game's moves, a check's findings), not output to compare.
pub const RECORD_TAG: &str = "record";

/// Lines of a record a report shows.
pub(crate) const RECORD_LINES: usize = 80;

/// Whether `case`'s output is a record to show as it is (a game, a check), not output compared with an expected
/// one.
pub(crate) fn is_record(case: &CaseResult) -> bool {
    case.tags.iter().any(|t| t == RECORD_TAG) && case.expected.is_empty()
}

/// The lines a plain-text student-facing report gives a case (Gradescope, JUnit, Classroom 50, PrairieLearn), as
/// its [`Show`] allows:
///
/// - `full`: arguments, status and detail, reading, lines matched, diagnosis, causes with their evidence, the start
///   of the diff of expected (`-`) against printed (`+`) output (or the first difference), output notes, the stderr
///   tail; a record's text;
/// - `actual-only`: the same without anything taken from the expected output: the diff becomes the program's own
///   lines around the first one that differs ([`actual_window`]), the first difference keeps its line number and
///   the printed line, causes keep their head line but not their evidence (which may quote the reference);
/// - `none`: the status and the names of the causes.
///
/// `with_args` is false for a report that shows the arguments elsewhere.
pub(crate) fn case_lines(case: &CaseResult, with_args: bool) -> Vec<String> {
    let mut lines = Vec::new();
    if case.show == Show::VerdictOnly {
        lines.push(case.status.label().to_string());
        lines.extend(causes(case));
        return lines;
    }
    let args = args(&case.args);
    if with_args && !args.is_empty() {
        lines.push(format!("arguments: {args}"));
    }
    lines.push(if case.detail.is_empty() {
        case.status.label().to_string()
    } else {
        format!("{}: {}", case.status.label(), tame(&case.detail))
    });
    lines.extend(reading(case));
    lines.extend(lines_matched(case));
    if let Some(diagnosis) = &case.diagnosis {
        lines.extend(diagnosis.lines().map(|l| format!("diagnosis: {}", tame(l))));
    }
    lines.extend(causes(case));
    lines.extend(output_lines(case));
    if let Some(tail) = StderrTail::of(case) {
        lines.push(tail.heading());
        lines.extend(tail.lines.iter().map(|l| format!("| {l}")));
    }
    lines
}

/// The output part of [`case_lines`]: a record's text, or for a case that did not pass the diff (`full`) or the
/// program's own lines (`actual-only`), with the notes on how the output ended and was captured.
pub(crate) fn output_lines(case: &CaseResult) -> Vec<String> {
    let mut lines = Vec::new();
    if !case.show.actual() {
        return lines;
    }
    if is_record(case) {
        lines.extend(case.stdout.text.lines().take(RECORD_LINES).map(tame));
        let more = case.stdout.text.lines().count().saturating_sub(RECORD_LINES);
        if more > 0 {
            lines.push(format!("({more} more lines)"));
        }
        return lines;
    }
    if case.status.is_pass() || (case.stdout.text.is_empty() && case.status != Status::Failed) {
        return lines;
    }
    if case.stdout.text.is_empty() {
        lines.push("(the program printed nothing)".to_string());
    }
    if case.show.expected() {
        let diff = OutputDiff::new(&comparable_expected(case), &case.stdout.text, MAX_LINES);
        if diff.lines.is_empty() {
            if let Some(d) = &case.difference {
                lines.extend(first_difference(d));
            }
        } else {
            lines.push(diff_heading(case));
            lines.extend(diff.lines.iter().map(|l| format!("{}{}", l.kind.prefix(), l.text)));
        }
        lines.extend(diff.notes().iter().map(|n| n.to_string()));
    } else {
        lines.extend(actual_window(case));
        if !case.stdout.text.is_empty() && !case.stdout.text.ends_with('\n') && case.stdout.omitted == 0 {
            lines.push("(the program's output does not end with a newline)".to_string());
        }
    }
    lines.extend(capture_notes(case));
    lines
}

/// The heading over a diff: `diff (- expected, + actual); the first difference that counts is at line N:`.
pub(crate) fn diff_heading(case: &CaseResult) -> String {
    match &case.difference {
        Some(d) => format!("diff (- expected, + actual); the first difference that counts is at line {}:", d.line),
        None => "diff (- expected, + actual):".to_string(),
    }
}

/// The expected output cut to as many lines as the kept excerpt of the printed one, when the excerpt left the
/// rest out: past its end nothing is known, and a diff must not show the expected lines there as missing.
pub(crate) fn comparable_expected(case: &CaseResult) -> std::borrow::Cow<'_, str> {
    if case.stdout.omitted == 0 {
        return std::borrow::Cow::Borrowed(&case.expected);
    }
    let kept = case.stdout.text.lines().count();
    std::borrow::Cow::Owned(case.expected.split_inclusive('\n').take(kept).collect())
}

/// Lines of the program's own output [`actual_window`] shows.
pub(crate) const WINDOW_LINES: usize = 12;

/// The program's own output, numbered, never the expected one: the lines around the first one that differs
/// (marked `>`), or its first lines when nothing says where it differs.
///
/// ```text
/// your output, line 3 is the first that differs:
///     1  Move: 3
///     2  Value: 0.5
/// >   3  Visited: 12
/// ```
pub(crate) fn actual_window(case: &CaseResult) -> Vec<String> {
    let printed: Vec<&str> = case.stdout.text.lines().collect();
    let at = case.difference.as_ref().map(|d| d.line);
    let start = at.map_or(0, |line| line.saturating_sub(4)).min(printed.len());
    let end = printed.len().min(start + WINDOW_LINES);
    let mut lines = vec![match at {
        Some(line) if line > printed.len() => {
            format!("your output, line {line} is the first that differs (your output had ended):")
        }
        Some(line) => format!("your output, line {line} is the first that differs:"),
        None => "your output:".to_string(),
    }];
    for (i, line) in printed[start..end].iter().enumerate() {
        let number = start + i + 1;
        let mark = if Some(number) == at { ">" } else { " " };
        lines.push(format!("{mark} {number:>4}  {}", show_invisible(line)));
    }
    if end < printed.len() {
        lines.push(format!("  ({} more lines)", printed.len() - end));
    }
    lines
}

/// Lines of stderr a report quotes.
pub(crate) const STDERR_LINES: usize = 10;

/// Every status, in the order reports count them.
pub(crate) const STATUSES: [Status; 8] = Status::ALL;

/// A score as people read it (the terminal, Markdown, a platform's text): [`Points`]' display rule, whole numbers
/// whole, otherwise at most [`DECIMALS`](crate::harness::points::DECIMALS) decimals cut toward zero (`2/3` is
/// `0.6666`), so a partial score never reads as a whole one. Machine formats write [`exact`] instead.
pub fn number(x: Points) -> String {
    x.to_string()
}

/// A score for a program to read back (the gradebook CSV, JUnit's score properties): exact to nine decimals,
/// cut toward zero beyond ([`Points::machine`]).
pub fn exact(x: Points) -> String {
    x.machine()
}

/// `score/max` (the terminal) or, with `spaced`, `score / max`, with more decimals where a score below its maximum
/// would otherwise read as equal to it ([`crate::harness::points::pair`]).
pub(crate) fn points(score: Points, max: Points, spaced: bool) -> String {
    crate::harness::points::pair(score, max, spaced)
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
    /// Whether the result kept only the end of a longer stderr.
    pub(crate) excerpted: bool,
}

impl StderrTail {
    /// The tail of `case`'s stderr, or `None` for a status that does not quote stderr, an empty stderr, or a case
    /// whose `show` is `none`.
    pub(crate) fn of(case: &CaseResult) -> Option<StderrTail> {
        if !quotes_stderr(case.status) || case.stderr.text.trim().is_empty() || !case.show.actual() {
            return None;
        }
        let text = strip_ansi(&case.stderr.text);
        let all: Vec<&str> = text.strip_suffix('\n').unwrap_or(&text).split('\n').collect();
        let omitted = all.len().saturating_sub(STDERR_LINES);
        Some(StderrTail {
            lines: all[omitted..].iter().map(|l| tame(l)).collect(),
            omitted,
            truncated: case.stderr.truncated,
            excerpted: case.stderr.omitted > 0,
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
        if self.excerpted {
            parts.push("only its end is kept".to_string());
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
/// of evidence indented under it ([`tame`]d, since evidence can quote a program's answer). Under `actual-only` the
/// evidence is left out (it may quote the reference's answer); under `none` only the name is given.
pub(crate) fn causes(case: &CaseResult) -> Vec<String> {
    let mut lines = Vec::new();
    for cause in &case.causes {
        match case.show {
            Show::VerdictOnly => lines.push(format!("cause: {}", tame(&cause.name))),
            Show::ActualOnly => lines.push(format!("cause: {}", tame(&cause.headline()))),
            Show::Full => {
                lines.push(format!("cause: {}", tame(&cause.headline())));
                lines.extend(cause.evidence.iter().map(|e| format!("  {}", tame(e))));
            }
        }
    }
    lines
}

/// Names of student-facing tests, their hidden characters shown ([`crate::visible::visible`]), made unique in order: a name seen before gets ` (2)`, ` (3)`, ... (repeated games
/// against one opponent share a name, and platforms key results by it).
pub(crate) fn unique_names<'a>(cases: impl IntoIterator<Item = &'a CaseResult>) -> Vec<String> {
    let shown: Vec<String> = cases.into_iter().map(|c| crate::visible::visible(&c.name)).collect();
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let taken: std::collections::HashSet<String> = shown.iter().cloned().collect();
    let mut taken = taken;
    let mut names = Vec::with_capacity(shown.len());
    for name in &shown {
        let n = seen.entry(name).or_insert(0);
        *n += 1;
        if *n == 1 {
            names.push(name.clone());
            continue;
        }
        let mut k = *n;
        let mut unique = format!("{name} ({k})");
        while taken.contains(&unique) {
            k += 1;
            unique = format!("{name} ({k})");
        }
        taken.insert(unique.clone());
        names.push(unique);
    }
    names
}

/// `3/5 lines matched`, when the suite gives per-line credit.
pub(crate) fn lines_matched(case: &CaseResult) -> Option<String> {
    case.lines_matched.map(|(matched, total)| format!("{matched}/{total} lines matched"))
}

/// Notes on how the printed output was captured: cut at the cap, only its start kept, not UTF-8.
pub(crate) fn capture_notes(case: &CaseResult) -> Vec<String> {
    let mut notes = Vec::new();
    if case.stdout.truncated {
        notes.push(format!("(output cut at the cap, after {} bytes)", case.stdout.bytes));
    } else if case.stdout.omitted > 0 {
        notes.push(format!(
            "(only the first {} of the {} bytes printed are kept)",
            case.stdout.bytes - case.stdout.omitted,
            case.stdout.bytes
        ));
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
/// tabs kept, every other hidden character shown as `\u{..}` ([`crate::visible`]). Callers strip ANSI codes first.
pub(crate) fn tame(line: &str) -> String {
    crate::visible::visible_drawing(line.trim_end_matches('\r'), &[('\t', '\t')])
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::harness::model::Captured;

    fn case(status: Status, stderr: &str) -> CaseResult {
        let stderr = Captured { text: stderr.into(), bytes: stderr.len(), ..Captured::default() };
        CaseResult { stderr, ..CaseResult::new("c".into(), status, Points::whole(1)) }
    }

    #[test]
    fn numbers_drop_trailing_zeros_and_are_cut_not_rounded_up() {
        let p = Points::from_f64;
        assert_eq!(
            (number(p(1.0)), number(p(0.5)), number(p(2.25)), number(p(10.0))),
            ("1".into(), "0.5".into(), "2.25".into(), "10".into())
        );
        assert_eq!((number(p(0.0)), number(p(-0.0)), number(p(-1.5))), ("0".into(), "0".into(), "-1.5".into()));
        assert_eq!(
            (number(Points::fraction(1, 3)), number(p(0.00001)), number(p(0.99996))),
            ("0.3333".into(), "0".into(), "0.9999".into())
        );
        assert_eq!(number(p(0.1) + p(0.2)), "0.3");
        assert_eq!(exact(p(0.1) + p(0.2)), "0.3");
        assert_eq!(number(p(1e6 + 0.25)), "1000000.25");
        assert_eq!(points(p(1.5), p(2.0), true), "1.5 / 2");
        assert_eq!(points(p(0.999_999), p(0.999_999_9), false), "0.999999/0.9999999");
        assert_eq!((exact(p(-0.0)), exact(p(1e-7))), ("0".into(), "0.0000001".into()));
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

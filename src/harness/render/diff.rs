//! The bounded line diff of expected vs printed output that the terminal, Markdown and JUnit reports show.
//!
//! Only the start of the disagreement matters to a reader, and outputs can be megabytes (an output-limit case),
//! so [`OutputDiff::new`] skips the common leading lines, diffs a window of [`WINDOW`] lines per side from just
//! before the first differing line (`similar`'s Myers diff), and keeps the first hunk(s) up to a line budget. Lines
//! are compared without their `\n`, so a missing final newline is a note instead of a `-x`/`+x` pair that looks
//! equal; a `\r` stays in the line and shows as `␍`.

use similar::{ChangeTag, TextDiff};

use super::visible::show_invisible;

/// Lines of unchanged context around a change.
const CONTEXT: usize = 3;

/// Lines per side handed to the diff algorithm, starting [`CONTEXT`] lines before the first difference.
pub(crate) const WINDOW: usize = 200;

/// The most diff lines (context, `-`, `+`; hunk headers not counted) a report shows for one case.
pub(crate) const MAX_LINES: usize = 20;

/// What one shown line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LineKind {
    /// `@@ -a,b +c,d @@`.
    Hunk,
    /// The same on both sides (` ` prefix).
    Context,
    /// Only in the expected output (`-` prefix).
    Expected,
    /// Only in the printed output (`+` prefix).
    Actual,
}

impl LineKind {
    /// The unified-diff prefix; empty for a hunk header, whose text carries its own `@@`.
    pub(crate) fn prefix(self) -> &'static str {
        match self {
            LineKind::Hunk => "",
            LineKind::Context => " ",
            LineKind::Expected => "-",
            LineKind::Actual => "+",
        }
    }
}

/// One shown line: its kind and its text with invisible characters shown, without the prefix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DiffLine {
    /// What the line is.
    pub(crate) kind: LineKind,
    /// The text, through [`show_invisible`].
    pub(crate) text: String,
}

/// The start of the difference between an expected and a printed output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct OutputDiff {
    /// The shown lines, hunk headers included.
    pub(crate) lines: Vec<DiffLine>,
    /// Whether more differing lines were left out.
    pub(crate) cut: bool,
    /// The expected output is non-empty and does not end in `\n`.
    pub(crate) expected_lacks_newline: bool,
    /// The printed output is non-empty and does not end in `\n`.
    pub(crate) actual_lacks_newline: bool,
}

impl OutputDiff {
    /// Diffs `expected` against `actual`, showing at most `max_lines` lines besides hunk headers.
    pub(crate) fn new(expected: &str, actual: &str, max_lines: usize) -> OutputDiff {
        let old = split_lines(expected);
        let new = split_lines(actual);
        let same = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
        let start = same.saturating_sub(CONTEXT);
        let old_window = &old[start..old.len().min(start + WINDOW)];
        let new_window = &new[start..new.len().min(start + WINDOW)];
        let diff = TextDiff::from_slices(old_window, new_window);

        let mut lines = Vec::new();
        let mut shown = 0;
        let mut cut = false;
        'groups: for group in diff.grouped_ops(CONTEXT) {
            let (Some(first), Some(last)) = (group.first(), group.last()) else { continue };
            let old_range = first.old_range().start..last.old_range().end;
            let new_range = first.new_range().start..last.new_range().end;
            lines.push(DiffLine {
                kind: LineKind::Hunk,
                text: format!(
                    "@@ -{} +{} @@",
                    hunk_range(start + old_range.start, old_range.len()),
                    hunk_range(start + new_range.start, new_range.len())
                ),
            });
            for op in &group {
                for change in diff.iter_changes(op) {
                    if shown == max_lines {
                        cut = true;
                        break 'groups;
                    }
                    let kind = match change.tag() {
                        ChangeTag::Equal => LineKind::Context,
                        ChangeTag::Delete => LineKind::Expected,
                        ChangeTag::Insert => LineKind::Actual,
                    };
                    lines.push(DiffLine { kind, text: show_invisible(change.value()) });
                    shown += 1;
                }
            }
        }
        OutputDiff {
            lines,
            cut,
            expected_lacks_newline: lacks_final_newline(expected),
            actual_lacks_newline: lacks_final_newline(actual),
        }
    }

    /// The notes a report prints under the diff: the cut, and each side's missing final newline.
    pub(crate) fn notes(&self) -> Vec<&'static str> {
        let mut notes = Vec::new();
        if self.cut {
            notes.push("(diff cut here; more lines differ)");
        }
        if self.expected_lacks_newline {
            notes.push("(the expected output does not end with a newline)");
        }
        if self.actual_lacks_newline {
            notes.push("(the program's output does not end with a newline)");
        }
        notes
    }
}

/// Lines without their `\n`; an empty text has none, and a final `\n` does not start another line.
fn split_lines(text: &str) -> Vec<&str> {
    if text.is_empty() {
        return Vec::new();
    }
    text.strip_suffix('\n').unwrap_or(text).split('\n').collect()
}

fn lacks_final_newline(text: &str) -> bool {
    !text.is_empty() && !text.ends_with('\n')
}

/// A unified-diff range: 1-based `start,len`, where an empty range names the line before it.
fn hunk_range(start: usize, len: usize) -> String {
    match len {
        0 => format!("{start},0"),
        1 => format!("{}", start + 1),
        _ => format!("{},{len}", start + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(diff: &OutputDiff) -> String {
        diff.lines.iter().map(|l| format!("{}{}\n", l.kind.prefix(), l.text)).collect()
    }

    #[test]
    fn a_changed_line_with_context() {
        let diff = OutputDiff::new("a\nb\nc\nd\ne\nf\ng\n", "a\nb\nc\nd\nE\nf\ng\n", MAX_LINES);
        assert_eq!(render(&diff), "@@ -2,6 +2,6 @@\n b\n c\n d\n-e\n+E\n f\n g\n");
        assert!(diff.notes().is_empty());
    }

    #[test]
    fn whitespace_differences_are_visible() {
        let diff = OutputDiff::new("x\t1\n", "x 1 \r\n", MAX_LINES);
        assert_eq!(render(&diff), "@@ -1 +1 @@\n-x→1\n+x 1 ␍\n");
    }

    #[test]
    fn a_missing_final_newline_is_a_note_not_a_change() {
        let diff = OutputDiff::new("a\nb\n", "a\nb", MAX_LINES);
        assert!(diff.lines.is_empty());
        assert_eq!(diff.notes(), ["(the program's output does not end with a newline)"]);
    }

    #[test]
    fn empty_output_is_all_deletions() {
        let diff = OutputDiff::new("a\nb\n", "", MAX_LINES);
        assert_eq!(render(&diff), "@@ -1,2 +0,0 @@\n-a\n-b\n");
        assert!(!diff.actual_lacks_newline);
    }

    #[test]
    fn line_numbers_count_from_the_skipped_prefix() {
        let expected: String = (1..=100).map(|i| format!("{i}\n")).collect();
        let actual = expected.replace("\n50\n", "\nfifty\n");
        let diff = OutputDiff::new(&expected, &actual, MAX_LINES);
        assert_eq!(render(&diff), "@@ -47,7 +47,7 @@\n 47\n 48\n 49\n-50\n+fifty\n 51\n 52\n 53\n");
    }

    #[test]
    fn long_differences_are_cut_at_the_budget() {
        let expected: String = (1..=1000).map(|i| format!("{i}\n")).collect();
        let actual: String = (1..=1000).map(|i| format!("{}\n", i * 2)).collect();
        let diff = OutputDiff::new(&expected, &actual, 5);
        let shown = diff.lines.iter().filter(|l| l.kind != LineKind::Hunk).count();
        assert_eq!(shown, 5);
        assert!(diff.cut);
        assert_eq!(diff.notes(), ["(diff cut here; more lines differ)"]);
    }

    #[test]
    fn blank_lines_are_lines() {
        assert_eq!(split_lines(""), Vec::<&str>::new());
        assert_eq!(split_lines("\n"), [""]);
        assert_eq!(split_lines("\n\n"), ["", ""]);
        assert_eq!(split_lines("a"), ["a"]);
    }
}

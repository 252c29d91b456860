//! Per-student feedback in Markdown (`--format md`), one document per submission.
//!
//! # Format
//!
//! ````markdown
//! # alice: 2.5 / 8
//!
//! Suite `takestones`: 1 of 8 cases passed (1 passed, 1 failed, 1 timeout, …).
//!
//! ## Build failed                       (only when the build step failed)
//! ## The grader could not prepare ...  (instead, when every case is a harness error)
//!
//! Command: `javac Main.java`
//!
//! ```text
//! Main.java:3: error: ';' expected
//! ```
//!
//! | case | arguments | status | points |
//! |---|---|---|---:|
//! | `official-1` | `3 0 0` | ✓ passed | 1 / 1 |
//! | `official-2` | `7 0 3` | ✗ failed | 0 / 1 |
//! | *2 hidden cases* | | 1 passed, 1 failed | 1 / 2 |
//!
//! ## `official-2`: failed
//!
//! - **Arguments:** `7 0 3`
//! - **What happened:** line 2 differs
//!
//! ```diff
//! @@ -1,3 +1,3 @@
//!  7 0 3
//! -0.6→
//! +0.6··
//! ```
//!
//! (the program's output does not end with a newline)
//! ````
//!
//! - The title holds the id and the score (at most four decimals, cut, never rounded up: a partial score never
//!   reads as full marks); a summary line follows with the counts by status, and says that some tests are hidden
//!   when some are. A hand-in without a score ([`crate::harness::outcome::Outcome`]: not graded, or the grader
//!   failed) says `not graded` in the title instead, and why in a bold line under it.
//! - The table lists every case with `✓`/`✗`, its status label and `score / max`. Cases whose visibility is
//!   `hidden` are folded into one row (how many, their statuses, their points) with no names or arguments, and get
//!   no section: the student sees how many points hidden cases gave, not what they were. `after-due-date` cases
//!   are shown like visible ones, since feedback goes out after grading.
//! - A section per shown case that did not pass (a build error is explained once, in the build section): a list
//!   of the arguments, the detail, the closest reading and the lines matched; then the start of a diff of
//!   expected (`-`) against printed (`+`) output in a ```` ```diff ```` block (at most 20 lines, invisible
//!   characters shown: `→` tab, `·` trailing space, `␍` CR, `\u{..}` other controls), output notes, and the last
//!   10 lines of stderr for a timeout, crash, nonzero exit, output limit or harness error. A harness error says it
//!   is not the student's fault.
//! - What a case shows follows its [`Show`]: under `actual-only` the diff becomes the program's own lines around
//!   the first one that differs and a cause keeps its sentence but not its evidence; under `none` a case's row
//!   and section give only its status and the names of its causes. The expected output appears only under `full`.
//!   The sandbox layers are the TA's concern and stay out.
//! - Text from the suite or the run is escaped for Markdown; code blocks use a fence longer than any run of
//!   backticks inside them.
//!
//! Nothing here is timed, so `redact` changes nothing.

use std::io::{self, Write};

use super::diff::{OutputDiff, MAX_LINES};
use super::excerpt::{self, StderrTail, RECORD_LINES};
use super::view::StudentView;
use super::RenderOptions;
use crate::harness::model::{CaseResult, RunReport, Show, Status, SubmissionResult};

pub use super::excerpt::RECORD_TAG;

/// Writes each submission's feedback, one after another, separated by a thematic break (`---`).
///
/// # Errors
///
/// Only the writer's errors.
pub fn render(report: &RunReport, options: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    for (i, submission) in report.submissions.iter().enumerate() {
        if i > 0 {
            writeln!(out, "\n---\n")?;
        }
        write_submission(submission, Some(&report.suite), &options.view, out)?;
    }
    Ok(())
}

/// Writes one student's feedback (format in the module docs).
///
/// # Errors
///
/// Only the writer's errors.
pub fn render_submission(s: &SubmissionResult, options: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    write_submission(s, None, &options.view, out)
}

fn write_submission(
    s: &SubmissionResult,
    suite: Option<&str>,
    view: &StudentView,
    out: &mut dyn Write,
) -> io::Result<()> {
    // A feedback file has no due-date gate: the student view decides what is hidden in it.
    let is_hidden = |c: &CaseResult| view.reveal(c, false).is_hidden();
    writeln!(out, "# {}: {}\n", escape(&s.id), s.outcome().score_text(true))?;
    if let Some(line) = s.outcome().reason_line() {
        writeln!(out, "**{}**\n", escape(&line))?;
    }
    let passed = s.cases.iter().filter(|c| c.status.is_pass()).count();
    let mut counts = format!("{passed} of {} cases passed ({}).", s.cases.len(), excerpt::status_counts(&s.cases));
    let hidden = s.cases.iter().filter(|c| is_hidden(c)).count();
    if hidden > 0 {
        counts.push_str(&format!(
            " Some tests are hidden: {hidden} of the {}. The score counts their points; their details are not shown.",
            s.cases.len()
        ));
    }
    match suite {
        Some(suite) => writeln!(out, "Suite {}: {counts}", code(suite, false))?,
        None => writeln!(out, "{counts}")?,
    }

    if let Some(build) = s.build.as_ref().filter(|b| !b.ok) {
        // A build step that failed through the grader's fault (an unreadable hand-in, a missing toolchain) is
        // never headed as the student's failed build.
        let graders = !s.cases.is_empty() && s.cases.iter().all(|c| c.status == Status::HarnessError);
        if graders {
            writeln!(out, "\n## The grader could not prepare this hand-in (not your fault)\n")?;
        } else {
            writeln!(out, "\n## Build failed\n")?;
        }
        writeln!(out, "Command: {}\n", code(&build.command, false))?;
        let (lines, _) = excerpt::head_lines(&build.message, usize::MAX);
        write_block("text", &lines, out)?;
    }

    if !s.cases.is_empty() {
        writeln!(out, "\n| case | arguments | status | points |")?;
        writeln!(out, "|---|---|---|---:|")?;
        let (hidden, shown): (Vec<&CaseResult>, Vec<&CaseResult>) = s.cases.iter().partition(|c| is_hidden(c));
        for case in &shown {
            let mark = if case.status.is_pass() { "✓" } else { "✗" };
            let args = if case.show.actual() { excerpt::args(&case.args) } else { String::new() };
            writeln!(
                out,
                "| {} | {} | {mark} {} | {} |",
                code(&case.name, true),
                code_shown(&args, true),
                case.status.label(),
                excerpt::points(case.score, case.max_score, true)
            )?;
        }
        if !hidden.is_empty() {
            let score: crate::harness::model::Points = hidden.iter().map(|c| c.score).sum();
            let max: crate::harness::model::Points = hidden.iter().map(|c| c.max_score).sum();
            let noun = if hidden.len() == 1 { "case" } else { "cases" };
            writeln!(
                out,
                "| *{} hidden {noun}* | | {} | {} |",
                hidden.len(),
                excerpt::status_counts(hidden.iter().copied()),
                excerpt::points(score, max, true)
            )?;
        }
        // A failed build is explained once, above; a section per case would only repeat it.
        for case in shown.into_iter().filter(|c| !c.status.is_pass() && c.status != Status::BuildError) {
            write_case_section(case, out)?;
        }
    }
    Ok(())
}

fn write_case_section(case: &CaseResult, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "\n## {}: {}\n", code(&case.name, false), case.status.label())?;
    if case.show == Show::VerdictOnly {
        for cause in &case.causes {
            writeln!(out, "- **Cause:** {}", code(&cause.name, false))?;
        }
        return Ok(());
    }
    let mut facts = Vec::new();
    let args = excerpt::args(&case.args);
    if !args.is_empty() {
        facts.push(format!("**Arguments:** {}", code_shown(&args, false)));
    }
    if !case.detail.is_empty() {
        facts.push(format!("**What happened:** {}", escape(&case.detail)));
    }
    if let Some(reading) = &case.reading {
        let which = if case.status.is_pass() { "Accepted" } else { "Closest" };
        facts.push(format!("**{which} reading:** {}", code(reading, false)));
    }
    if let Some((matched, total)) = case.lines_matched {
        facts.push(format!("**Lines matched:** {matched} of {total}"));
    }
    if let Some(diagnosis) = &case.diagnosis {
        facts.push(format!("**Diagnosis:** {}", escape(&diagnosis.replace('\n', " / "))));
    }
    for cause in &case.causes {
        let mut fact =
            format!("**Cause ({}):** {}: {}", cause.kind.label(), code(&cause.name, false), escape(&cause.sentence));
        if case.show.expected() {
            for line in &cause.evidence {
                fact.push_str(&format!("\n  - {}", escape(line)));
            }
        }
        facts.push(fact);
    }
    if case.status == Status::HarnessError {
        facts.push("The grader could not run this case; that is not a fault in your submission.".to_string());
    }
    for fact in facts {
        writeln!(out, "- {fact}")?;
    }

    if excerpt::is_record(case) {
        // A game or a check has no expected output: its record is shown as it is.
        let lines: Vec<String> = case.stdout.text.lines().take(RECORD_LINES).map(excerpt::tame).collect();
        if !lines.is_empty() {
            writeln!(out)?;
            write_block("text", &lines, out)?;
            let more = case.stdout.text.lines().count().saturating_sub(RECORD_LINES);
            if more > 0 {
                writeln!(out, "\n({more} more lines in report.json)")?;
            }
        }
    } else if (!case.stdout.text.is_empty() || case.status == Status::Failed) && !case.show.expected() {
        writeln!(out)?;
        write_block("text", &excerpt::actual_window(case), out)?;
        let notes = excerpt::capture_notes(case);
        if !notes.is_empty() {
            writeln!(out, "\n{}", notes.iter().map(|n| escape(n)).collect::<Vec<_>>().join("<br>\n"))?;
        }
    } else if !case.stdout.text.is_empty() || case.status == Status::Failed {
        let diff = OutputDiff::new(&excerpt::comparable_expected(case), &case.stdout.text, MAX_LINES);
        let mut notes: Vec<String> = Vec::new();
        if case.stdout.text.is_empty() {
            notes.push("(the program printed nothing)".to_string());
        }
        if diff.lines.is_empty() {
            if let Some(d) = &case.difference {
                writeln!(out)?;
                write_block("text", &excerpt::first_difference(d), out)?;
            }
        } else {
            let intro = match &case.difference {
                Some(d) => {
                    format!(
                        "Expected (`-`) and printed (`+`) output; the first difference that counts is at line {}:",
                        d.line
                    )
                }
                None => "Expected (`-`) and printed (`+`) output:".to_string(),
            };
            writeln!(out, "\n{intro}\n")?;
            let lines: Vec<String> = diff.lines.iter().map(|l| format!("{}{}", l.kind.prefix(), l.text)).collect();
            write_block("diff", &lines, out)?;
        }
        notes.extend(diff.notes().iter().map(|n| n.to_string()));
        notes.extend(excerpt::capture_notes(case));
        if !notes.is_empty() {
            writeln!(out, "\n{}", notes.iter().map(|n| escape(n)).collect::<Vec<_>>().join("<br>\n"))?;
        }
    }

    if let Some(tail) = StderrTail::of(case) {
        writeln!(out, "\n{}\n", escape(&capitalized(&tail.heading())))?;
        write_block("text", &tail.lines, out)?;
    }
    Ok(())
}

/// A fenced code block, its fence longer than any run of backticks in `lines`.
fn write_block(info: &str, lines: &[String], out: &mut dyn Write) -> io::Result<()> {
    let longest = lines.iter().map(|l| longest_backtick_run(l)).max().unwrap_or(0);
    let fence = "`".repeat((longest + 1).max(3));
    writeln!(out, "{fence}{info}")?;
    for line in lines {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "{fence}")
}

/// An inline code span holding `text` verbatim, its hidden characters shown ([`crate::visible::visible`]).
fn code(text: &str, in_table: bool) -> String {
    code_shown(&crate::visible::visible(text), in_table)
}

/// An inline code span holding `text`, already shown (its hidden characters escaped); in a table cell, `|` is
/// escaped as GFM requires.
fn code_shown(text: &str, in_table: bool) -> String {
    if text.is_empty() {
        return String::new();
    }
    let text = if in_table { text.replace('|', "\\|") } else { text.to_string() };
    let ticks = "`".repeat(longest_backtick_run(&text) + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') { " " } else { "" };
    format!("{ticks}{pad}{text}{pad}{ticks}")
}

fn longest_backtick_run(text: &str) -> usize {
    text.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}

/// Plain text made inert: hidden characters (line breaks too) shown as `\u{..}` ([`crate::visible::visible`]),
/// then Markdown's inline punctuation backslash-escaped.
fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in crate::visible::visible(text).chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '#' | '&' => {
                escaped.push('\\');
                escaped.push(c);
            }
            c => escaped.push(c),
        }
    }
    escaped
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn code_spans_survive_backticks_and_pipes() {
        assert_eq!(code("7 0 3", true), "`7 0 3`");
        assert_eq!(code("a`b", false), "``a`b``");
        assert_eq!(code("`x`", false), "`` `x` ``");
        assert_eq!(code("a|b", true), "`a\\|b`");
        assert_eq!(code("", true), "");
    }

    #[test]
    fn fences_outgrow_their_content() {
        let mut out = Vec::new();
        write_block("text", &["````".to_string()], &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "`````text\n````\n`````\n");
    }

    #[test]
    fn plain_text_is_escaped() {
        assert_eq!(escape("a*b_c <d> [e]"), "a\\*b\\_c \\<d\\> \\[e\\]");
        // A line break is shown as its code (Markdown renders `\\u{a}` as `\u{a}`), never joined into a space.
        assert_eq!(escape("line\nbreak"), "line\\\\u{a}break");
        assert_eq!(escape("a\u{202e}b"), "a\\\\u{202e}b");
        assert_eq!(capitalized("stderr (last 10 lines):"), "Stderr (last 10 lines):");
    }
}

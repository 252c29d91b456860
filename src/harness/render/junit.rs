//! JUnit XML for CI dashboards (`--format junit`): the whole report, one `<testsuite>` per submission.
//!
//! # Format
//!
//! ```xml
//! <?xml version="1.0" encoding="UTF-8"?>
//! <testsuites name="SUITE" tests="9" failures="7" errors="1" time="1.234">
//!   <testsuite name="alice" tests="8" failures="6" errors="1" time="1.200">
//!     <properties>
//!       <property name="score" value="2.5"/>
//!       <property name="max_score" value="8"/>
//!       <property name="source" value="submissions/alice.zip"/>
//!     </properties>
//!     <testcase name="official-1" classname="alice" time="0.012"/>
//!     <testcase name="official-2" classname="alice" time="0.015">
//!       <failure message="failed: line 2 differs" type="failed">arguments: 7 0 3
//! score: 0/1
//! ...</failure>
//!     </testcase>
//!     <testcase name="missing-java" classname="alice" time="0.000">
//!       <error message="harness error: no java on PATH" type="harness-error">...</error>
//!     </testcase>
//!   </testsuite>
//! </testsuites>
//! ```
//!
//! - The student's failures (`failed`, `timeout`, `crashed`, `nonzero-exit`, `output-limit`, `build-error`) are
//!   `<failure>`; a harness error, the grader's own fault, is `<error>`. `type` is the status as the JSON spells it;
//!   `message` is the status label and the one-line detail.
//! - The element's text is the evidence: arguments, score, reading, lines matched, causes, the start of the diff of
//!   expected (`-`) against printed (`+`) output with invisible characters shown (or the first difference), output
//!   notes, the stderr tail, and for a build error the command and compiler message. It follows the case's
//!   [`Show`]: under `actual-only` the diff becomes the program's own lines around the first one that differs, under
//!   `none` the text is the status and the names of the causes and `message` the status alone. The class run's
//!   `junit.xml` is read by students' CI dashboards, so it honours `show` too.
//! - `time` is seconds with three decimals: a case's wall-clock time; a testsuite's is its build plus its cases;
//!   `<testsuites>` sums them. All are `0.000` under `redact`.
//! - Text is escaped for XML; ANSI escape sequences and the characters XML 1.0 forbids (most C0 controls, U+FFFE,
//!   U+FFFF) are dropped; CR, and in attributes also LF and TAB, are written as character references so parsers
//!   keep them.

use std::io::{self, Write};

use super::excerpt::{self, StderrTail};
use super::visible::strip_ansi;
use super::RenderOptions;
use crate::harness::model::{CaseResult, RunReport, Show, Status, SubmissionResult};

/// Writes the JUnit XML of the whole report (format in the module docs).
///
/// # Errors
///
/// Only the writer's errors.
pub fn render(report: &RunReport, options: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    let all = Counts::of(report.submissions.iter().flat_map(|s| &s.cases));
    let total_ms = report.submissions.iter().fold(0u64, |sum, s| sum.saturating_add(suite_ms(s, options)));
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<testsuites name="{}" tests="{}" failures="{}" errors="{}" time="{}">"#,
        attr(&report.suite),
        all.tests,
        all.failures,
        all.errors,
        excerpt::seconds(total_ms)
    )?;
    for submission in &report.submissions {
        write_suite(submission, options, out)?;
    }
    writeln!(out, "</testsuites>")
}

fn write_suite(s: &SubmissionResult, options: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    let counts = Counts::of(&s.cases);
    writeln!(
        out,
        r#"  <testsuite name="{}" tests="{}" failures="{}" errors="{}" time="{}">"#,
        attr(&s.id),
        counts.tests,
        counts.failures,
        counts.errors,
        excerpt::seconds(suite_ms(s, options))
    )?;
    writeln!(out, "    <properties>")?;
    for (name, value) in
        [("score", excerpt::number(s.score)), ("max_score", excerpt::number(s.max_score)), ("source", s.source.clone())]
    {
        writeln!(out, r#"      <property name="{name}" value="{}"/>"#, attr(&value))?;
    }
    writeln!(out, "    </properties>")?;
    for (case, name) in s.cases.iter().zip(excerpt::unique_names(&s.cases)) {
        let open = format!(
            r#"<testcase name="{}" classname="{}" time="{}""#,
            attr(&name),
            attr(&s.id),
            excerpt::seconds(excerpt::elapsed_ms(case.elapsed_ms, options))
        );
        if case.status.is_pass() {
            writeln!(out, "    {open}/>")?;
            continue;
        }
        let element = if case.status == Status::HarnessError { "error" } else { "failure" };
        let message = if case.detail.is_empty() || case.show == Show::VerdictOnly {
            case.status.label().to_string()
        } else {
            format!("{}: {}", case.status.label(), case.detail)
        };
        writeln!(out, "    {open}>")?;
        writeln!(
            out,
            r#"      <{element} message="{}" type="{}">{}</{element}>"#,
            attr(&message),
            status_key(case.status),
            text(&evidence(case, s))
        )?;
        writeln!(out, "    </testcase>")?;
    }
    writeln!(out, "  </testsuite>")
}

/// A submission's time: its build and its cases (0 under redaction).
fn suite_ms(s: &SubmissionResult, options: &RenderOptions) -> u64 {
    let build = s.build.as_ref().map_or(0, |b| b.elapsed_ms);
    let total = s.cases.iter().fold(build, |sum, c| sum.saturating_add(c.elapsed_ms));
    excerpt::elapsed_ms(total, options)
}

/// The `tests`, `failures` and `errors` attributes.
struct Counts {
    tests: usize,
    failures: usize,
    errors: usize,
}

impl Counts {
    fn of<'a>(cases: impl IntoIterator<Item = &'a CaseResult>) -> Counts {
        let mut counts = Counts { tests: 0, failures: 0, errors: 0 };
        for case in cases {
            counts.tests += 1;
            match case.status {
                Status::Passed => {}
                Status::HarnessError => counts.errors += 1,
                _ => counts.failures += 1,
            }
        }
        counts
    }
}

/// The status as the JSON model spells it (`nonzero-exit`), for the `type` attribute.
fn status_key(status: Status) -> &'static str {
    match status {
        Status::Passed => "passed",
        Status::Failed => "failed",
        Status::Timeout => "timeout",
        Status::Crashed => "crashed",
        Status::NonzeroExit => "nonzero-exit",
        Status::OutputLimit => "output-limit",
        Status::BuildError => "build-error",
        Status::HarnessError => "harness-error",
    }
}

/// The failure's text: what ran and why it is not a pass, one item per line, as the case's `show` allows (under
/// `none`, the status and the names of the causes only).
fn evidence(case: &CaseResult, s: &SubmissionResult) -> String {
    if case.show == Show::VerdictOnly {
        return excerpt::case_lines(case, true).join("\n");
    }
    let mut lines = Vec::new();
    let args = excerpt::args(&case.args);
    if !args.is_empty() {
        lines.push(format!("arguments: {args}"));
    }
    lines.push(format!("score: {}", excerpt::points(case.score, case.max_score, false)));
    lines.extend(excerpt::reading(case));
    lines.extend(excerpt::lines_matched(case));
    lines.extend(excerpt::causes(case));
    if case.status == Status::BuildError {
        if let Some(build) = &s.build {
            lines.push(format!("build command: {}", build.command));
            lines.extend(excerpt::head_lines(&build.message, usize::MAX).0);
        }
    }
    lines.extend(excerpt::output_lines(case));
    if let Some(tail) = StderrTail::of(case) {
        lines.push(tail.heading());
        lines.extend(tail.lines.iter().map(|l| format!("| {l}")));
    }
    lines.join("\n")
}

/// Whether XML 1.0 allows `c` at all.
fn xml_allowed(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
}

/// Escapes `raw` for XML: ANSI sequences and forbidden characters dropped; `in_attribute` also escapes quotes
/// and writes LF and TAB as references (attribute normalization would turn them into spaces).
fn escape(raw: &str, in_attribute: bool) -> String {
    let clean = strip_ansi(raw);
    let mut escaped = String::with_capacity(clean.len());
    for c in clean.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '\r' => escaped.push_str("&#13;"),
            '"' if in_attribute => escaped.push_str("&quot;"),
            '\'' if in_attribute => escaped.push_str("&apos;"),
            '\n' if in_attribute => escaped.push_str("&#10;"),
            '\t' if in_attribute => escaped.push_str("&#9;"),
            c if xml_allowed(c) => escaped.push(c),
            _ => {}
        }
    }
    escaped
}

fn attr(raw: &str) -> String {
    escape(raw, true)
}

fn text(raw: &str) -> String {
    escape(raw, false)
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn markup_and_quotes_are_escaped() {
        assert_eq!(attr(r#"a<b>&"c" 'd'"#), "a&lt;b&gt;&amp;&quot;c&quot; &apos;d&apos;");
        assert_eq!(text(r#"a<b>&"c""#), "a&lt;b&gt;&amp;\"c\"");
        assert_eq!(text("]]>"), "]]&gt;");
    }

    #[test]
    fn whitespace_survives_parsing() {
        assert_eq!(attr("a\nb\tc\r"), "a&#10;b&#9;c&#13;");
        assert_eq!(text("a\nb\tc\r\n"), "a\nb\tc&#13;\n");
    }

    #[test]
    fn forbidden_characters_and_ansi_are_dropped() {
        assert_eq!(text("a\u{0}b\u{8}c\u{fffe}d\u{ffff}"), "abcd");
        assert_eq!(text("\u{1b}[31mred\u{1b}[0m"), "red");
        assert_eq!(text("\u{1b}"), "");
        assert_eq!(text("é ✓ \u{1f600}"), "é ✓ \u{1f600}");
    }

    #[test]
    fn status_keys_match_the_json_model() {
        for status in excerpt::STATUSES {
            let json = serde_json::to_value(status).unwrap();
            assert_eq!(json.as_str(), Some(status_key(status)));
        }
    }
}

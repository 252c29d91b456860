//! JUnit XML for CI dashboards (`--format junit`): the whole report, one `<testsuite>` per submission, written with
//! `quick-xml`'s writer.
//!
//! # Format
//!
//! ```xml
//! <?xml version="1.0" encoding="UTF-8"?>
//! <testsuites name="SUITE" tests="9" failures="7" errors="1" time="1.234">
//!   <testsuite name="alice" tests="8" failures="6" errors="1" time="1.200">
//!     <properties>
//!       <property name="score" value="2.849"/>
//!       <property name="max_score" value="8"/>
//!       <property name="source" value="submissions/alice.zip"/>
//!       <property name="hidden_tests" value="2"/>
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
//!     <testcase name="hidden test 1" classname="alice" time="0.000">
//!       <failure message="failed" type="failed">a hidden test: failed</failure>
//!     </testcase>
//!     <system-out>Some tests are hidden: 2 of the 8 tests count in the score, ...</system-out>
//!   </testsuite>
//! </testsuites>
//! ```
//!
//! - The student's failures (`failed`, `timeout`, `crashed`, `nonzero-exit`, `output-limit`, `build-error`) are
//!   `<failure>`; a harness error, the grader's own fault, is `<error>`. `type` is the status as the JSON spells it;
//!   `message` is the status label and the one-line detail.
//! - A hand-in without a score ([`crate::harness::outcome::Outcome`]: not graded, or the grader failed) has an
//!   `outcome` property (`not graded: why`) instead of `score`.
//! - `score` and `max_score` are the submission's points exactly as stored (the shortest decimal that reads back
//!   as the same number, [`exact_points`](super::exact_points)); the `score:` line of a failure is the case's
//!   points as people read them ([`format_points`](super::format_points): at most four decimals, cut, never
//!   rounded up).
//! - The element's text is the evidence: arguments, score, reading, lines matched, causes, the start of the diff of
//!   expected (`-`) against printed (`+`) output with invisible characters shown (or the first difference), output
//!   notes, the stderr tail, and for a build error the command and compiler message. It follows the case's
//!   [`Show`]: under `actual-only` the diff becomes the program's own lines around the first one that differs, under
//!   `none` the text is the status and the names of the causes and `message` the status alone. The class run's
//!   `junit.xml` is read by students' CI dashboards, so it honours `show` too.
//! - A case whose visibility is `hidden` keeps its place and its verdict (the counts and the score include it) but
//!   is named `hidden test N` and says only how it ended; the suite's `hidden_tests` property and `<system-out>`
//!   say that some tests are hidden, so the visible tests never look like the whole score.
//! - `time` is seconds with three decimals: a case's wall-clock time; a testsuite's is its build plus its cases;
//!   `<testsuites>` sums them. All are `0.000` under `redact`.
//! - Text is escaped for XML by `quick-xml`. A character XML 1.0 cannot carry at all (most C0 controls, U+FFFE,
//!   U+FFFF) is written as its code, `\u{1b}`, so a name keeps every character it can and the file always parses;
//!   ANSI color sequences are dropped from messages and evidence. CR, and in attributes also LF and TAB, are
//!   written as character references, so a parser gives back exactly the name or text written (XML's end-of-line
//!   and attribute-value normalization would otherwise turn them into LF or spaces).

use std::borrow::Cow;
use std::io::{self, Write};

use quick_xml::events::attributes::Attribute;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use quick_xml::name::QName;
use quick_xml::Writer;

use super::excerpt::{self, StderrTail};
use super::visible::strip_ansi;
use super::RenderOptions;
use crate::harness::model::{CaseResult, RunReport, Show, Status, SubmissionResult};
use crate::visible::visible;

type Xml<'a> = Writer<&'a mut dyn Write>;

/// Writes the JUnit XML of the whole report (format in the module docs).
///
/// # Errors
///
/// Only the writer's errors.
pub fn render(report: &RunReport, options: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    let all = Counts::of(report.submissions.iter().flat_map(|s| &s.cases));
    let total_ms = report.submissions.iter().fold(0u64, |sum, s| sum.saturating_add(suite_ms(s, options)));
    let mut xml = Writer::new_with_indent(out, b' ', 2);
    xml.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    let mut root = BytesStart::new("testsuites");
    root.push_attribute(attribute("name", &visible(&report.suite)));
    all.push_to(&mut root);
    root.push_attribute(attribute("time", &excerpt::seconds(total_ms)));
    xml.write_event(Event::Start(root))?;
    for submission in &report.submissions {
        write_suite(submission, options, &mut xml)?;
    }
    xml.write_event(Event::End(BytesEnd::new("testsuites")))?;
    xml.get_mut().write_all(b"\n")
}

fn write_suite(s: &SubmissionResult, options: &RenderOptions, xml: &mut Xml<'_>) -> io::Result<()> {
    let mut suite = BytesStart::new("testsuite");
    suite.push_attribute(attribute("name", &visible(&s.id)));
    Counts::of(&s.cases).push_to(&mut suite);
    suite.push_attribute(attribute("time", &excerpt::seconds(suite_ms(s, options))));
    xml.write_event(Event::Start(suite))?;

    // A JUnit report has no due-date gate: the student view decides what is hidden in it.
    let is_hidden = |c: &CaseResult| options.view.reveal(c, false).is_hidden();
    let hidden = s.cases.iter().filter(|c| is_hidden(c)).count();
    xml.write_event(Event::Start(BytesStart::new("properties")))?;
    // Only a graded hand-in has a score; one without says why instead (never a 0).
    let mut properties = match s.outcome().score() {
        Some(score) => vec![("score", excerpt::exact(score))],
        None => vec![("outcome", s.outcome().reason_line().unwrap_or_default())],
    };
    properties.push(("max_score", excerpt::exact(s.max_score)));
    properties.push(("source", visible(&s.source)));
    if hidden > 0 {
        properties.push(("hidden_tests", hidden.to_string()));
    }
    for (name, value) in properties {
        let mut property = BytesStart::new("property");
        property.push_attribute(attribute("name", name));
        property.push_attribute(attribute("value", &value));
        xml.write_event(Event::Empty(property))?;
    }
    xml.write_event(Event::End(BytesEnd::new("properties")))?;

    let mut hidden_seen = 0;
    for (case, name) in s.cases.iter().zip(excerpt::unique_names(&s.cases)) {
        let is_hidden = is_hidden(case);
        let name = if is_hidden {
            hidden_seen += 1;
            format!("hidden test {hidden_seen}")
        } else {
            name
        };
        let mut testcase = BytesStart::new("testcase");
        testcase.push_attribute(attribute("name", &name));
        testcase.push_attribute(attribute("classname", &visible(&s.id)));
        testcase.push_attribute(attribute("time", &excerpt::seconds(excerpt::elapsed_ms(case.elapsed_ms, options))));
        if case.status.is_pass() {
            xml.write_event(Event::Empty(testcase))?;
            continue;
        }
        xml.write_event(Event::Start(testcase))?;
        let element = if case.status == Status::HarnessError { "error" } else { "failure" };
        let (message, evidence) = if is_hidden {
            (case.status.label().to_string(), format!("a hidden test: {}", case.status.label()))
        } else if case.detail.is_empty() || case.show == Show::VerdictOnly {
            (case.status.label().to_string(), evidence(case, s))
        } else {
            (format!("{}: {}", case.status.label(), case.detail), evidence(case, s))
        };
        let mut failure = BytesStart::new(element);
        failure.push_attribute(attribute("message", &visible(&strip_ansi(&message))));
        failure.push_attribute(attribute("type", status_key(case.status)));
        xml.write_event(Event::Start(failure))?;
        xml.write_event(Event::Text(text(&evidence)))?;
        xml.write_event(Event::End(BytesEnd::new(element)))?;
        xml.write_event(Event::End(BytesEnd::new("testcase")))?;
    }
    if hidden > 0 {
        let note = format!(
            "Some tests are hidden: {hidden} of the {} tests count in the score, their details are not shown.",
            s.cases.len()
        );
        xml.write_event(Event::Start(BytesStart::new("system-out")))?;
        xml.write_event(Event::Text(text(&note)))?;
        xml.write_event(Event::End(BytesEnd::new("system-out")))?;
    }
    xml.write_event(Event::End(BytesEnd::new("testsuite")))
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

    fn push_to(&self, element: &mut BytesStart<'_>) {
        element.push_attribute(attribute("tests", &self.tests.to_string()));
        element.push_attribute(attribute("failures", &self.failures.to_string()));
        element.push_attribute(attribute("errors", &self.errors.to_string()));
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
            lines.push(format!("build command: {}", visible(&build.command)));
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

/// `raw` with each character XML 1.0 cannot carry written as its code (`\u{1b}`).
fn xml_chars(raw: &str) -> String {
    let mut kept = String::with_capacity(raw.len());
    for c in raw.chars() {
        if xml_allowed(c) {
            kept.push(c);
        } else {
            kept.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        }
    }
    kept
}

/// An attribute holding `value` exactly (callers show a student's hidden characters first): escaped by `quick-xml`, with TAB, LF and CR as character references (a
/// parser's attribute-value normalization turns the literal characters into spaces).
fn attribute(key: &'static str, value: &str) -> Attribute<'static> {
    let escaped =
        quick_xml::escape::escape(xml_chars(value)).replace('\t', "&#9;").replace('\n', "&#10;").replace('\r', "&#13;");
    Attribute { key: QName(key.as_bytes()), value: Cow::Owned(escaped.into_bytes()) }
}

/// Element text holding `raw` without its ANSI sequences: escaped by `quick-xml`, with CR as a character reference
/// (a parser's end-of-line handling turns a literal one into LF).
fn text(raw: &str) -> BytesText<'static> {
    let escaped = quick_xml::escape::partial_escape(xml_chars(&strip_ansi(raw))).replace('\r', "&#13;");
    BytesText::from_escaped(escaped)
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    /// `<a x="..">..</a>` with `value` as the attribute and the text, parsed back by a conforming XML parser.
    fn parsed(value: &str) -> (String, String) {
        let mut out = Vec::new();
        let mut xml = Writer::new(&mut out as &mut dyn Write);
        let mut a = BytesStart::new("a");
        a.push_attribute(attribute("x", value));
        xml.write_event(Event::Start(a)).unwrap();
        xml.write_event(Event::Text(text(value))).unwrap();
        xml.write_event(Event::End(BytesEnd::new("a"))).unwrap();
        let written = String::from_utf8(out).unwrap();
        let doc = roxmltree::Document::parse(&written).unwrap_or_else(|e| panic!("{e}: {written}"));
        let root = doc.root_element();
        (root.attribute("x").unwrap().to_string(), root.text().unwrap_or("").to_string())
    }

    #[test]
    fn markup_quotes_and_whitespace_survive_a_parser() {
        for value in [r#"a<b>&"c" 'd'"#, "]]>", "a\nb\tc\r", "line\r\nnext\n", "é ✓ \u{1f600}", "Smith, J"] {
            let (attr, body) = parsed(value);
            assert_eq!(attr, value);
            assert_eq!(body, value);
        }
    }

    #[test]
    fn characters_xml_forbids_are_written_as_codes_and_ansi_dropped_from_text() {
        let (attr, body) = parsed("a\u{0}b\u{8}c\u{fffe}d\u{ffff}");
        assert_eq!(attr, "a\\u{0}b\\u{8}c\\u{fffe}d\\u{ffff}");
        assert_eq!(body, attr);
        let (attr, body) = parsed("\u{1b}[31mred\u{1b}[0m");
        assert_eq!(attr, "\\u{1b}[31mred\\u{1b}[0m");
        assert_eq!(body, "red");
    }

    #[test]
    fn status_keys_match_the_json_model() {
        for status in excerpt::STATUSES {
            let json = serde_json::to_value(status).unwrap();
            assert_eq!(json.as_str(), Some(status_key(status)));
        }
    }
}

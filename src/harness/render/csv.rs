//! The gradebook CSV (`--format csv`): one row per submission, one status column per case.
//!
//! # Format
//!
//! ```text
//! id,score,max_score,official-1,official-2,crash
//! alice,2.5,8,passed,failed,crashed
//! bob,0,8,build error,build error,build error
//! ```
//!
//! - Header: `id,score,max_score`, then one column per case name, the union over all submissions in first-seen
//!   order (suite order when every submission ran the same suite), then `handin` when the results say where they
//!   came from: the hand-in's name as it was in the class folder (`José-HW2-P3`, `pat lee.zip`), which the id
//!   may have had to shorten, clean or give a suffix.
//! - A row: the submission's id, score and maximum (no trailing zeros: `1`, `0.5`, `2.25`), then each case's
//!   status label (`passed`, `failed`, `timeout`, `crashed`, `nonzero exit`, `output limit`, `build error`,
//!   `harness error`); a case a submission does not have is an empty cell.
//! - RFC 4180 quoting: a field holding `,`, `"`, CR or LF is put in double quotes, with `"` doubled. Lines end in
//!   LF.
//! - A text field (id, case name or hand-in name) that begins with `=`, `+`, `-`, `@`, TAB or CR gets a leading `'`, so a
//!   spreadsheet does not run a student-chosen id as a formula. Numbers are written as they are.
//!
//! Nothing here is timed, so `redact` changes nothing.

use std::io::{self, Write};

use super::excerpt;
use super::RenderOptions;
use crate::harness::model::RunReport;

/// Writes the gradebook (format in the module docs).
///
/// # Errors
///
/// Only the writer's errors.
pub fn render(report: &RunReport, _options: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    let mut columns: Vec<&str> = Vec::new();
    for case in report.submissions.iter().flat_map(|s| &s.cases) {
        if !columns.contains(&case.name.as_str()) {
            columns.push(&case.name);
        }
    }

    let mut header = vec!["id".to_string(), "score".to_string(), "max_score".to_string()];
    header.extend(columns.iter().map(|name| text_field(name)));
    let named = report.submissions.iter().any(|s| !s.source.is_empty());
    if named {
        header.push("handin".into());
    }
    writeln!(out, "{}", header.join(","))?;

    for s in &report.submissions {
        let mut row = vec![text_field(&s.id), field(&excerpt::number(s.score)), field(&excerpt::number(s.max_score))];
        for name in &columns {
            let status = s.cases.iter().find(|c| c.name == *name).map_or("", |c| c.status.label());
            row.push(field(status));
        }
        if named {
            let name = std::path::Path::new(&s.source).file_name().map(|n| n.to_string_lossy().into_owned());
            row.push(text_field(&name.unwrap_or_default()));
        }
        writeln!(out, "{}", row.join(","))?;
    }
    Ok(())
}

/// A text field: neutralized against formula injection, then quoted.
fn text_field(value: &str) -> String {
    if value.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        field(&format!("'{value}"))
    } else {
        field(value)
    }
}

/// RFC 4180: quote a field holding a comma, quote, CR or LF, doubling its quotes.
fn field(value: &str) -> String {
    if value.contains([',', '"', '\r', '\n']) {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value.to_string()
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::harness::model::{CaseResult, Status, SubmissionResult, SCHEMA_VERSION};

    fn submission(id: &str, cases: &[(&str, Status)]) -> SubmissionResult {
        let cases = cases.iter().map(|(name, status)| CaseResult::new(name.to_string(), *status, 1.0)).collect();
        SubmissionResult {
            id: id.into(),
            source: String::new(),
            build: None,
            cases,
            score: 0.5,
            max_score: 2.0,
            run: String::new(),
            fingerprint: String::new(),
            handin: String::new(),
            sandbox: Vec::new(),
        }
    }

    #[test]
    fn columns_are_the_union_in_first_seen_order() {
        let report = RunReport {
            schema: SCHEMA_VERSION,
            suite: "s".into(),
            submissions: vec![
                submission("a", &[("one", Status::Passed), ("two", Status::NonzeroExit)]),
                submission("b,c", &[("three", Status::Timeout), ("one", Status::Failed)]),
            ],
        };
        let mut out = Vec::new();
        render(&report, &RenderOptions::default(), &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "id,score,max_score,one,two,three\na,0.5,2,passed,nonzero exit,\n\"b,c\",0.5,2,failed,,timeout\n"
        );
    }

    #[test]
    fn quoting_follows_rfc_4180() {
        assert_eq!(field("plain"), "plain");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("two\nlines"), "\"two\nlines\"");
        assert_eq!(field(""), "");
    }

    #[test]
    fn formulas_are_neutralized() {
        assert_eq!(text_field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(text_field("-rf"), "'-rf");
        assert_eq!(text_field("alice"), "alice");
    }
}

//! The gradebook CSV (`--format csv`, a class run's `gradebook.csv`): one row per submission, one status column per
//! case; written and read back with the `csv` crate, so a name with a comma, a quote or a line break survives.
//!
//! # Format
//!
//! ```text
//! id,score,max_score,official-1,official-2,crash
//! alice,2.5,8,passed,failed,crashed
//! "Smith, J",0.849,8,failed,passed,passed
//! bob,0,8,build error,build error,build error
//! ```
//!
//! - Header: `id,score,max_score`, then one column per case name, the union over all submissions in first-seen
//!   order (suite order when every submission ran the same suite), then `handin` when the results say where they
//!   came from: the hand-in's name as it was in the class folder (`José-HW2-P3`, `pat lee.zip`), which the id
//!   may have had to shorten, clean or give a suffix. A case that is itself named `handin` is written `'handin`,
//!   so the last column is never mistaken for it. Then, when some hand-in has no score
//!   ([`crate::harness::outcome::Outcome`]: not graded, or the grader failed), `outcome`: `graded`, or `not graded:
//!   why` (a case named `outcome` is written `'outcome`).
//! - A row: the submission's id, score (an empty cell for a hand-in without a score, never 0) and maximum, exactly as stored (the shortest decimal that reads back as the
//!   same number: `1`, `0.5`, `0.849`, never rounded; see [`exact_points`](super::exact_points)), then each case's
//!   status label (`passed`, `failed`, `timeout`, `crashed`, `nonzero exit`, `output limit`, `build error`,
//!   `harness error`); a case a submission does not have is an empty cell.
//! - RFC 4180 quoting: a field holding `,`, `"`, CR or LF is put in double quotes, with `"` doubled. Records end in
//!   LF.
//! - A text field (id, case name or hand-in name) shows its hidden characters (control, bidi, zero-width, spaces
//!   other than `U+0020`) as `\u{..}` ([`crate::visible`]), so no escape sequence or bidi override reaches a
//!   terminal or a spreadsheet, and [`read`] gives back the name as it was. One that begins with `=`, `+`, `-`
//!   or `@` (or, so shown, a TAB or CR) gets a leading `'`, so a spreadsheet does not run a student-chosen id as a formula; so does one that begins with `'` itself,
//!   so [`read`] can drop exactly the `'` it added. Numbers are written as they are.
//!
//! Nothing here is timed, so `redact` changes nothing. [`read`] reads the file back.

use std::io::{self, Write};

use super::excerpt;
use super::RenderOptions;
use crate::harness::model::{Points, RunReport};

/// The first three columns of every gradebook.
const FIXED: [&str; 3] = ["id", "score", "max_score"];

/// The header of the column after the cases when the results say where each hand-in came from.
const HANDIN: &str = "handin";

/// The last column's header when some hand-in has no score: what happened to each (`graded`, `not graded: why`).
const OUTCOME: &str = "outcome";

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

    let mut writer = csv::WriterBuilder::new().from_writer(out);
    let mut header: Vec<String> = FIXED.iter().map(|f| f.to_string()).collect();
    header.extend(columns.iter().map(|name| case_field(name)));
    let named = report.submissions.iter().any(|s| !s.source.is_empty());
    if named {
        header.push(HANDIN.into());
    }
    let told = report.submissions.iter().any(|s| !s.outcome().is_graded());
    if told {
        header.push(OUTCOME.into());
    }
    writer.write_record(&header)?;
    for s in &report.submissions {
        // Only a graded hand-in has a score: the cell of one that was not graded is empty, never 0.
        let score = s.outcome().score().map(excerpt::exact).unwrap_or_default();
        let mut row = vec![text_field(&s.id), score, excerpt::exact(s.max_score)];
        for name in &columns {
            let status = s.cases.iter().find(|c| c.name == *name).map_or("", |c| c.status.label());
            row.push(status.to_string());
        }
        if named {
            let name = std::path::Path::new(&s.source).file_name().map(|n| n.to_string_lossy().into_owned());
            row.push(text_field(&name.unwrap_or_default()));
        }
        if told {
            let outcome = s.outcome();
            row.push(text_field(&outcome.reason().unwrap_or_else(|| outcome.label().to_string())));
        }
        writer.write_record(&row)?;
    }
    writer.flush()
}

/// A gradebook read back: the case columns and one row per submission.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Gradebook {
    /// The case names, in column order.
    pub cases: Vec<String>,
    /// One row per submission, in file order.
    pub rows: Vec<GradebookRow>,
}

/// One submission's row of a [`Gradebook`].
#[derive(Clone, Debug, PartialEq)]
pub struct GradebookRow {
    /// The submission's id, as it was before it was written (the anti-formula `'` dropped).
    pub id: String,
    /// Its score (`None`: an empty cell, a hand-in that was not graded).
    pub score: Option<Points>,
    /// Its maximum.
    pub max_score: Points,
    /// Each case's status label, in [`Gradebook::cases`] order (empty: the submission has no such case).
    pub statuses: Vec<String>,
    /// The hand-in's name as it was in the class folder (empty when the gradebook has no `handin` column).
    pub handin: String,
    /// What happened to it (`graded`, `not graded: why`; empty when the gradebook has no `outcome` column).
    pub outcome: String,
}

/// Why a gradebook could not be read.
#[derive(Debug, thiserror::Error)]
pub enum GradebookError {
    /// Not CSV (a quote left open, rows of different lengths, invalid UTF-8), or unreadable.
    #[error("gradebook line {line}: {source}")]
    Csv {
        /// The line the reader had reached.
        line: u64,
        /// What the reader found.
        #[source]
        source: csv::Error,
    },
    /// The header does not start with `id,score,max_score`.
    #[error("gradebook line 1: the header must start with id,score,max_score (it starts with '{found}')")]
    Header {
        /// The first fields found.
        found: String,
    },
    /// A score or maximum that is not a number.
    #[error("gradebook line {line}: {column} '{value}' is not a number")]
    Number {
        /// The line of the row.
        line: u64,
        /// `score` or `max_score`.
        column: &'static str,
        /// The cell.
        value: String,
    },
}

/// Reads a gradebook written by [`render`] (format in the module docs): every field exactly as it was before it
/// was written.
///
/// # Errors
///
/// [`GradebookError`], naming the line.
pub fn read(input: impl io::Read) -> Result<Gradebook, GradebookError> {
    let mut reader = csv::ReaderBuilder::new().has_headers(true).from_reader(input);
    let csv_error =
        |source: csv::Error| GradebookError::Csv { line: source.position().map_or(1, csv::Position::line), source };
    let header = reader.headers().map_err(csv_error)?.clone();
    if header.iter().take(FIXED.len()).ne(FIXED) {
        let found: Vec<&str> = header.iter().take(FIXED.len()).collect();
        return Err(GradebookError::Header { found: found.join(",") });
    }
    let told = header.len() > FIXED.len() && header.get(header.len() - 1) == Some(OUTCOME);
    let before = header.len() - usize::from(told);
    let named = before > FIXED.len() && header.get(before - 1) == Some(HANDIN);
    let case_end = before - usize::from(named);
    let cases = header.iter().take(case_end).skip(FIXED.len()).map(plain).collect();
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(csv_error)?;
        let line = record.position().map_or(0, csv::Position::line);
        let number = |index: usize, column: &'static str| {
            let value = record.get(index).unwrap_or_default();
            Points::parse_decimal(value).ok_or_else(|| GradebookError::Number {
                line,
                column,
                value: value.to_string(),
            })
        };
        rows.push(GradebookRow {
            id: plain(record.get(0).unwrap_or_default()),
            score: if record.get(1).unwrap_or_default().is_empty() { None } else { Some(number(1, "score")?) },
            max_score: number(2, "max_score")?,
            statuses: record.iter().take(case_end).skip(FIXED.len()).map(String::from).collect(),
            handin: if named { plain(record.get(case_end).unwrap_or_default()) } else { String::new() },
            outcome: if told { plain(record.get(before).unwrap_or_default()) } else { String::new() },
        });
    }
    Ok(Gradebook { cases, rows })
}

/// A text field: hidden characters shown as `\u{..}` ([`crate::visible::visible`]), then a value a spreadsheet
/// would take for a formula (or one that begins with the `'` that marks text) gets a leading `'`.
pub(crate) fn text_field(value: &str) -> String {
    let value = crate::visible::visible(value);
    if value.starts_with(['=', '+', '-', '@', '\'']) {
        format!("'{value}")
    } else {
        value
    }
}

/// A case column's header: a text field, and a case named like the hand-in column marked as text so the reader
/// never takes it for that column.
fn case_field(name: &str) -> String {
    if name == HANDIN || name == OUTCOME {
        format!("'{name}")
    } else {
        text_field(name)
    }
}

/// A text field as it was before [`text_field`] (or [`case_field`]): the anti-formula `'` dropped and hidden
/// characters read back from their `\u{..}`.
fn plain(field: &str) -> String {
    crate::visible::unescape(field.strip_prefix('\'').unwrap_or(field))
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
            score: Points::from_f64(0.5),
            max_score: Points::from_f64(2.0),
            run: String::new(),
            fingerprint: String::new(),
            handin: String::new(),
            sandbox: Vec::new(),
            not_graded: None,
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
    fn formulas_are_neutralized_and_read_back() {
        assert_eq!(text_field("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(text_field("-rf"), "'-rf");
        assert_eq!(text_field("'quoted"), "''quoted");
        assert_eq!(text_field("alice"), "alice");
        for value in ["=HYPERLINK(\"x\")", "-rf", "'quoted", "''", "alice", ""] {
            assert_eq!(plain(&text_field(value)), value);
        }
    }

    #[test]
    fn the_handin_column_is_never_a_case_named_handin() {
        let mut named = submission("a", &[("handin", Status::Passed)]);
        named.source = "class/José, \"J\".zip".into();
        let report = RunReport { schema: SCHEMA_VERSION, suite: "s".into(), submissions: vec![named] };
        let mut out = Vec::new();
        render(&report, &RenderOptions::default(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, "id,score,max_score,'handin,handin\na,0.5,2,passed,\"José, \"\"J\"\".zip\"\n");
        let book = read(text.as_bytes()).unwrap();
        assert_eq!(book.cases, ["handin"]);
        assert_eq!(
            (book.rows[0].statuses.as_slice(), book.rows[0].handin.as_str()),
            (&["passed".to_string()][..], "José, \"J\".zip")
        );
        // Without hand-in names there is no such column, and a case named `handin` is still a case.
        let report = RunReport { submissions: vec![submission("a", &[("handin", Status::Failed)])], ..report };
        let mut out = Vec::new();
        render(&report, &RenderOptions::default(), &mut out).unwrap();
        let book = read(out.as_slice()).unwrap();
        assert_eq!((book.cases.as_slice(), book.rows[0].handin.as_str()), (&["handin".to_string()][..], ""));
        assert_eq!(book.rows[0].statuses, ["failed"]);
    }

    #[test]
    fn a_bad_gradebook_names_its_line() {
        let err = read("name,score\nx,1\n".as_bytes()).unwrap_err();
        assert!(err.to_string().contains("must start with id,score,max_score"), "{err}");
        let err = read("id,score,max_score\na,1,2\nb,one,2\n".as_bytes()).unwrap_err();
        assert_eq!(err.to_string(), "gradebook line 3: score 'one' is not a number");
        let err = read("id,score,max_score\na,1,2,extra\n".as_bytes()).unwrap_err();
        assert!(err.to_string().starts_with("gradebook line 2:"), "{err}");
    }
}

//! The native suite format: one TOML file.
//!
//! ```toml
//! name = "Take-Stones, Fall 2019"
//! timeout = "10s"                                   # default per case (the course's)
//! command = "java -cp {dir} TakeStones {args}"      # default --cmd
//! build = "sh -c 'javac -d {dir} {dir}/*.java'"     # default --build
//! accept = ["composite", "rounding", "negative-zero"]
//!
//! [reference]                                       # what `reference = true` cases ask
//! game = "takestones"
//! edition = "stats"
//!
//! [compare]                                         # mode = exact | course | normalized, then any flag
//! mode = "course"
//! line-credit = true
//!
//! [[case]]
//! name = "spec example"
//! args = "7 3 1 4 2 3"                              # or an array of strings
//! reference = true                                  # or expected = "..." or expected-file = "out.txt"
//! points = 6
//! timeout = "5s"
//! tags = ["small"]
//! visibility = "visible"                            # visible | hidden | after-due-date
//! show = "actual-only"                              # full | actual-only | none (else the suite's `show`)
//! ```
//!
//! A suite-level `show = "..."` (beside `name`) sets what student-facing reports show of every case that does
//! not set its own: `full` (default) the expected output and the program's, `actual-only` only the program's own
//! output and where it first differs, `none` only the verdict and the names of its causes.
//!
//! Unknown fields are errors, so a typo never silently changes a grade.

use std::path::Path;
use std::time::Duration;

use serde::Deserialize;

use super::{Expected, ReferenceSpec, Suite, SuiteCase, SuiteError, DEFAULT_TIMEOUT};
use crate::harness::compare::ComparePolicy;
use crate::harness::model::{Points, Show, Visibility};
use crate::harness::suite::Reading;

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct SuiteFile {
    name: Option<String>,
    timeout: Option<String>,
    command: Option<String>,
    build: Option<String>,
    #[serde(default)]
    accept: Vec<Reading>,
    #[serde(default)]
    show: Show,
    reference: Option<ReferenceSpec>,
    compare: Option<CompareFile>,
    #[serde(default)]
    case: Vec<CaseFile>,
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct CompareFile {
    mode: Option<Mode>,
    crlf: Option<bool>,
    trailing_whitespace: Option<bool>,
    final_newline: Option<bool>,
    trailing_blank_lines: Option<bool>,
    line_credit: Option<bool>,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
enum Mode {
    Exact,
    Course,
    Normalized,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Args {
    Line(String),
    List(Vec<String>),
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct CaseFile {
    name: String,
    args: Option<Args>,
    stdin: Option<String>,
    stdin_file: Option<String>,
    expected: Option<String>,
    expected_file: Option<String>,
    #[serde(default)]
    reference: bool,
    points: Option<f64>,
    timeout: Option<String>,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    visibility: Visibility,
    show: Option<Show>,
    compare: Option<CompareFile>,
}

impl CompareFile {
    fn policy(&self, base: ComparePolicy) -> ComparePolicy {
        let mut p = match self.mode {
            Some(Mode::Exact) => ComparePolicy::exact(),
            Some(Mode::Course) => ComparePolicy::course(),
            Some(Mode::Normalized) => ComparePolicy::normalized(),
            None => base,
        };
        p.crlf = self.crlf.unwrap_or(p.crlf);
        p.trailing_whitespace = self.trailing_whitespace.unwrap_or(p.trailing_whitespace);
        p.final_newline = self.final_newline.unwrap_or(p.final_newline);
        p.trailing_blank_lines = self.trailing_blank_lines.unwrap_or(p.trailing_blank_lines);
        p.line_credit = self.line_credit.unwrap_or(p.line_credit);
        p
    }
}

/// Loads a native suite file.
///
/// # Errors
/// The file cannot be read, is not valid TOML of this shape, or a case is impossible (no or two expected outputs,
/// a missing expected file, a duplicate name, a bad duration, negative points).
pub fn load_file(path: &Path) -> Result<Suite, SuiteError> {
    let text = std::fs::read_to_string(path).map_err(|source| SuiteError::Io { path: path.to_path_buf(), source })?;
    parse(&text, path)
}

/// Parses a native suite; relative file names resolve against `path`'s folder.
///
/// # Errors
/// As [`load_file`].
pub fn parse(text: &str, path: &Path) -> Result<Suite, SuiteError> {
    let file: SuiteFile = toml::from_str(text).map_err(|e| SuiteError::Toml {
        path: path.to_path_buf(),
        message: e.to_string().replace('\n', " ").trim().to_string(),
    })?;
    let shown = path.display().to_string();
    let invalid = |message: String| SuiteError::Invalid { path: shown.clone(), message };
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let timeout = file.timeout.as_deref().map(|t| duration(t, "the suite's timeout")).transpose().map_err(&invalid)?;
    let compare = file.compare.as_ref().map_or(ComparePolicy::course(), |c| c.policy(ComparePolicy::course()));
    if file.case.is_empty() {
        return Err(invalid("the suite has no [[case]]".into()));
    }
    let mut cases: Vec<SuiteCase> = Vec::new();
    for (i, c) in file.case.into_iter().enumerate() {
        let at = format!("case {} ('{}')", i + 1, c.name);
        if cases.iter().any(|other| other.name == c.name) {
            return Err(invalid(format!("{at}: the name is used twice")));
        }
        let read = |name: &str, what: &str| {
            std::fs::read(dir.join(name)).map_err(|e| invalid(format!("{at}: cannot read {what} '{name}': {e}")))
        };
        let expected = match (c.expected, c.expected_file, c.reference) {
            (Some(text), None, false) => Expected::Text(text),
            (None, Some(file), false) => {
                Expected::Text(String::from_utf8_lossy(&read(&file, "expected-file")?).into_owned())
            }
            (None, None, true) => {
                if file.reference.is_none() {
                    return Err(invalid(format!("{at}: reference = true, but the suite has no [reference] section")));
                }
                Expected::Reference
            }
            _ => return Err(invalid(format!("{at}: give exactly one of expected, expected-file, reference = true"))),
        };
        let stdin = match (c.stdin, c.stdin_file) {
            (Some(s), None) => Some(s.into_bytes()),
            (None, Some(f)) => Some(read(&f, "stdin-file")?),
            (None, None) => None,
            _ => return Err(invalid(format!("{at}: give stdin or stdin-file, not both"))),
        };
        // TOML gives a number as f64 (an integer converts exactly); it is read to 9 decimals here and exact from
        // then on.
        let points = c.points.unwrap_or(1.0);
        if !(points.is_finite() && points >= 0.0) {
            return Err(invalid(format!("{at}: points must be a number >= 0")));
        }
        let points = Points::from_f64(points);
        let args = match c.args {
            Some(Args::Line(line)) => line.split_whitespace().map(String::from).collect(),
            Some(Args::List(list)) => list,
            None => Vec::new(),
        };
        cases.push(SuiteCase {
            name: c.name,
            args,
            stdin,
            expected,
            points,
            timeout: c.timeout.as_deref().map(|t| duration(t, &at)).transpose().map_err(&invalid)?,
            tags: c.tags,
            visibility: c.visibility,
            show: c.show.unwrap_or(file.show),
            compare: c.compare.as_ref().map(|p| p.policy(compare)),
        });
    }
    Ok(Suite {
        name: file.name.unwrap_or_else(|| shown.clone()),
        source: shown,
        dir: Some(dir),
        cases,
        compare,
        timeout: timeout.unwrap_or(DEFAULT_TIMEOUT),
        reference: file.reference,
        accept: file.accept,
        command: file.command,
        build: file.build,
    })
}

fn duration(text: &str, what: &str) -> Result<Duration, String> {
    let d =
        humantime::parse_duration(text).map_err(|e| format!("{what}: '{text}' is not a duration like \"10s\": {e}"))?;
    if d.is_zero() {
        return Err(format!("{what}: the timeout must be above zero"));
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    fn parse_str(text: &str) -> Result<Suite, SuiteError> {
        parse(text, Path::new("/nonexistent/suite.toml"))
    }

    #[test]
    fn reads_a_full_suite() {
        let suite = parse_str(
            r#"
            name = "demo"
            timeout = "2s"
            accept = ["composite"]
            [reference]
            game = "takestones"
            edition = "trace"
            [compare]
            mode = "normalized"
            line-credit = true
            [[case]]
            name = "a"
            args = "7 3 1 4 2 3"
            reference = true
            points = 6
            tags = ["small"]
            visibility = "hidden"
            [[case]]
            name = "b"
            args = ["3", "0", "0"]
            expected = "x\n"
            timeout = "500ms"
            stdin = "hello"
            [case.compare]
            mode = "exact"
            "#,
        )
        .unwrap();
        assert_eq!(suite.cases.len(), 2);
        assert_eq!(suite.timeout, Duration::from_secs(2));
        assert_eq!(suite.cases[0].args, ["7", "3", "1", "4", "2", "3"]);
        assert_eq!(suite.cases[0].expected, Expected::Reference);
        assert_eq!(suite.cases[0].visibility, Visibility::Hidden);
        assert!(suite.compare.line_credit && suite.compare.crlf);
        assert_eq!(suite.cases[1].compare, Some(ComparePolicy::exact()));
        assert_eq!(suite.cases[1].timeout, Some(Duration::from_millis(500)));
        assert_eq!(suite.cases.iter().map(|c| c.points).sum::<Points>(), Points::whole(7));
    }

    #[test]
    fn show_is_set_for_the_suite_and_per_case() {
        let suite = parse_str(
            "show = \"actual-only\"\n[[case]]\nname = \"a\"\nexpected = \"x\"\n\
             [[case]]\nname = \"b\"\nexpected = \"y\"\nshow = \"none\"\n",
        )
        .unwrap();
        assert_eq!([suite.cases[0].show, suite.cases[1].show], [Show::ActualOnly, Show::VerdictOnly]);
        let plain = parse_str("[[case]]\nname = \"a\"\nexpected = \"x\"\n").unwrap();
        assert_eq!(plain.cases[0].show, Show::Full);
        let err = parse_str("show = \"partial\"\n[[case]]\nname = \"a\"\nexpected = \"x\"\n").unwrap_err();
        assert!(err.to_string().contains("partial"), "{err}");
    }

    #[test]
    fn every_mistake_names_its_case() {
        let err = |t: &str| parse_str(t).unwrap_err().to_string();
        assert!(err("[[case]]\nname = \"a\"\n").contains("case 1 ('a'): give exactly one of"));
        assert!(err("[[case]]\nname = \"a\"\nexpected = \"x\"\nreference = true\n").contains("exactly one"));
        assert!(err("[[case]]\nname = \"a\"\nreference = true\n").contains("no [reference] section"));
        assert!(err("[[case]]\nname = \"a\"\nexpected = \"x\"\n[[case]]\nname = \"a\"\nexpected = \"y\"\n")
            .contains("used twice"));
        assert!(err("[[case]]\nname = \"a\"\nexpected = \"x\"\ntimeout = \"soon\"\n").contains("not a duration"));
        assert!(err("[[case]]\nname = \"a\"\nexpected = \"x\"\npoints = -1\n").contains("points must be"));
        assert!(err("[[case]]\nname = \"a\"\nexpected-file = \"missing.txt\"\n").contains("cannot read expected-file"));
        assert!(err("[[case]]\nname = \"a\"\nexpectd = \"x\"\n").contains("unknown field"));
        assert!(err("name = \"x\"\n").contains("no [[case]]"));
    }
}

//! The two Take-Stones `testcase.txt` layouts the course shipped, read as they are.
//!
//! - Fall 2019 (stats): a line `outputN.txt:` names the expected file, the next line is the command,
//!   `    $ java TakeStones ARGS`.
//! - Spring 2017 (trace): one bare argument line per case; line `i` goes with `output<i>.txt`.
//!
//! Beside them, an optional `accept.txt` lists the spec-silent readings the suite accepts
//! ([`super::readings::parse_accept_file`]), and an optional `show.txt` ([`SHOW_FILE`]) what students see of a
//! case ([`parse_show_file`]).

use std::path::Path;

use super::readings::{parse_accept_file, ACCEPT_FILE};
use super::{EditionName, Expected, ReferenceGame, ReferenceSpec, Suite, SuiteCase, SuiteError, DEFAULT_TIMEOUT};
use crate::harness::compare::ComparePolicy;
use crate::harness::model::{Points, Show, Visibility};

/// The file that lists a course folder's cases.
pub const TESTCASE_FILE: &str = "testcase.txt";

/// The file beside `testcase.txt` that sets what student-facing reports show ([`parse_show_file`]).
pub const SHOW_FILE: &str = "show.txt";

/// Which of the two layouts a `testcase.txt` is in: the Fall 2019 one has `outputN.txt:` lines.
pub fn edition_of(testcase: &str) -> EditionName {
    if testcase.lines().any(|l| l.trim_end().ends_with(':')) {
        EditionName::Stats
    } else {
        EditionName::Trace
    }
}

/// Builds a suite from a course `testcase.txt` and a way to read its `outputN.txt` files. One point per case,
/// the course's comparison (exact but for the final newline), the Take-Stones reference of that edition.
///
/// # Errors
/// The layout is broken, or an output file cannot be read (`read` says why).
pub fn suite_from(
    testcase: &str,
    source: &str,
    read: impl Fn(&str) -> Result<String, String>,
) -> Result<Suite, (usize, String)> {
    let edition = edition_of(testcase);
    let lines = match edition {
        EditionName::Stats => parse_stats_2019(testcase).map_err(|e| (e.line, e.problem))?,
        EditionName::Trace => parse_trace_2017(testcase),
    };
    let mut cases = Vec::new();
    for (i, line) in lines.into_iter().enumerate() {
        let expected = read(&line.output_file).map_err(|e| (i + 1, e))?;
        cases.push(SuiteCase {
            name: line.output_file,
            args: line.args,
            stdin: None,
            expected: Expected::Text(expected),
            points: Points::whole(1),
            timeout: None,
            tags: Vec::new(),
            visibility: Visibility::Visible,
            show: Show::Full,
            compare: None,
        });
    }
    let label = match edition {
        EditionName::Stats => "Take-Stones stats (Fall 2019 layout)",
        EditionName::Trace => "Take-Stones trace (Spring 2017 layout)",
    };
    Ok(Suite {
        name: format!("{label}: {source}"),
        source: source.to_string(),
        dir: None,
        cases,
        compare: ComparePolicy::course(),
        timeout: DEFAULT_TIMEOUT,
        reference: Some(ReferenceSpec { game: ReferenceGame::Takestones, edition }),
        accept: Vec::new(),
        command: None,
        build: None,
    })
}

/// Loads a course folder: `testcase.txt` plus its `outputN.txt` files, as the course shipped them, and the
/// readings it accepts from an optional [`ACCEPT_FILE`] (written by `referee gen`; none without it).
///
/// # Errors
/// A missing `testcase.txt` or output file, or a broken layout, naming the file and line.
pub fn load_dir(dir: &Path) -> Result<Suite, SuiteError> {
    let testcase_path = dir.join(TESTCASE_FILE);
    let testcase = std::fs::read_to_string(&testcase_path)
        .map_err(|source| SuiteError::Io { path: testcase_path.clone(), source })?;
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).map_err(|e| format!("cannot read {name}: {e}"));
    let mut suite = suite_from(&testcase, &dir.display().to_string(), read).map_err(|(line, problem)| {
        SuiteError::Layout { path: testcase_path.clone(), source: LayoutError { line, problem } }
    })?;
    suite.dir = Some(dir.to_path_buf());
    let accept_path = dir.join(ACCEPT_FILE);
    if accept_path.is_file() {
        let text = std::fs::read_to_string(&accept_path)
            .map_err(|source| SuiteError::Io { path: accept_path.clone(), source })?;
        suite.accept = parse_accept_file(&text).map_err(|(line, problem)| SuiteError::Invalid {
            path: accept_path.display().to_string(),
            message: format!("line {line}: {problem}"),
        })?;
    }
    let show_path = dir.join(SHOW_FILE);
    if show_path.is_file() {
        let text =
            std::fs::read_to_string(&show_path).map_err(|source| SuiteError::Io { path: show_path.clone(), source })?;
        parse_show_file(&text, &mut suite).map_err(|(line, problem)| SuiteError::Invalid {
            path: show_path.display().to_string(),
            message: format!("line {line}: {problem}"),
        })?;
    }
    Ok(suite)
}

/// Applies a `show.txt` to `suite`: one setting a line (`full`, `actual-only` or `none`), alone for every case
/// or after a case's file name and a colon for that case (`output3.txt: none`); blank lines and `#` comments
/// are skipped. A case's own line wins over the line for all, wherever they stand.
///
/// # Errors
/// The 1-based line and what is wrong with it: an unknown setting, a case the suite does not have, a second line
/// for all cases.
pub fn parse_show_file(text: &str, suite: &mut Suite) -> Result<(), (usize, String)> {
    let mut all: Option<Show> = None;
    let mut own: Vec<(usize, Show)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        match line.rsplit_once(':') {
            Some((name, value)) => {
                let name = name.trim();
                let show = value.parse::<Show>().map_err(|e| (i + 1, e))?;
                let Some(index) = suite.cases.iter().position(|c| c.name == name) else {
                    return Err((i + 1, format!("the suite has no case '{name}'")));
                };
                own.push((index, show));
            }
            None => {
                if all.is_some() {
                    return Err((i + 1, "a second setting for every case".into()));
                }
                all = Some(line.parse::<Show>().map_err(|e| (i + 1, e))?);
            }
        }
    }
    if let Some(show) = all {
        suite.show_all(show);
    }
    for (index, show) in own {
        suite.cases[index].show = show;
    }
    Ok(())
}

/// One case as a course `testcase.txt` names it: the expected-output file and the arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseLine {
    /// The file holding the expected output, relative to the suite's folder.
    pub output_file: String,
    /// The program's arguments.
    pub args: Vec<String>,
}

/// A line of a `testcase.txt` that does not fit its layout.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("testcase.txt line {line}: {problem}")]
pub struct LayoutError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub problem: String,
}

/// Reads the Fall 2019 layout (`outputN.txt:` then `$ java TakeStones ARGS`).
///
/// # Errors
/// A command line with no file line before it, a file line with no command after it, or a command that is not
/// `java TakeStones`.
pub fn parse_stats_2019(text: &str) -> Result<Vec<CaseLine>, LayoutError> {
    let mut cases = Vec::new();
    let mut pending: Option<(usize, String)> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(file) = line.strip_suffix(':') {
            if let Some((at, file)) = pending.replace((i + 1, file.to_string())) {
                return Err(LayoutError { line: at, problem: format!("'{file}:' has no command line after it") });
            }
            continue;
        }
        let command = line.strip_prefix('$').map(str::trim).unwrap_or(line);
        let Some((_, file)) = pending.take() else {
            return Err(LayoutError {
                line: i + 1,
                problem: format!("command '{line}' has no 'outputN.txt:' line before it"),
            });
        };
        let mut words = command.split_whitespace();
        let (Some("java"), Some("TakeStones")) = (words.next(), words.next()) else {
            return Err(LayoutError {
                line: i + 1,
                problem: format!("expected '$ java TakeStones ARGS', got '{line}'"),
            });
        };
        cases.push(CaseLine { output_file: file, args: words.map(String::from).collect() });
    }
    if let Some((at, file)) = pending {
        return Err(LayoutError { line: at, problem: format!("'{file}:' has no command line after it") });
    }
    Ok(cases)
}

/// Reads the Spring 2017 layout: non-empty line `i` is case `i`, expected in `output<i>.txt`.
pub fn parse_trace_2017(text: &str) -> Vec<CaseLine> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| CaseLine {
            output_file: format!("output{}.txt", i + 1),
            args: l.split_whitespace().map(String::from).collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn reads_the_2019_layout() {
        let cases = parse_stats_2019(
            "output1.txt:\n    $ java TakeStones 3 0 0\noutput2.txt:\n    $ java TakeStones 7 1 1 2\n",
        )
        .unwrap();
        assert_eq!(cases.len(), 2);
        assert_eq!(
            cases[1],
            CaseLine { output_file: "output2.txt".into(), args: vec!["7".into(), "1".into(), "1".into(), "2".into()] }
        );
    }

    #[test]
    fn rejects_broken_2019_layouts() {
        assert_eq!(parse_stats_2019("    $ java TakeStones 3 0 0\n").unwrap_err().line, 1);
        assert_eq!(parse_stats_2019("output1.txt:\noutput2.txt:\n").unwrap_err().line, 1);
        assert_eq!(parse_stats_2019("a.txt:\n\n$ python3 x.py 1\n").unwrap_err().line, 3);
        assert_eq!(parse_stats_2019("a.txt:\n").unwrap_err().line, 1);
    }

    #[test]
    fn a_show_file_sets_every_case_and_single_ones() {
        let read = |_: &str| Ok::<_, String>("x\n".to_string());
        let mut suite = suite_from("3 0 0\n7 0 3\n7 1 1 2\n", "t", read).unwrap();
        parse_show_file("# students\noutput2.txt: none\nactual-only\n", &mut suite).unwrap();
        let shows: Vec<Show> = suite.cases.iter().map(|c| c.show).collect();
        assert_eq!(shows, [Show::ActualOnly, Show::VerdictOnly, Show::ActualOnly]);
        assert_eq!(parse_show_file("output9.txt: none\n", &mut suite).unwrap_err().0, 1);
        assert_eq!(parse_show_file("\nfull\nnone\n", &mut suite).unwrap_err().0, 3);
        assert!(parse_show_file("output1.txt: some\n", &mut suite).unwrap_err().1.contains("'some'"));
    }

    #[test]
    fn reads_the_2017_layout() {
        let cases = parse_trace_2017("3 0 0\n\n7 0 3\n");
        assert_eq!(cases[1].output_file, "output2.txt");
        assert_eq!(cases[1].args, ["7", "0", "3"]);
    }
}

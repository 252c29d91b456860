//! Causes across a class: which named bug or located fault each student's wrong output shows, which accepted
//! readings passed, which compiler error stopped a build, and which runs timed out or crashed, each grouped with
//! the students it concerns, most common first.
//!
//! [`case_causes`] is the one place that reads a case's causes out of the result model; everything else counts
//! what it returns.

use std::collections::BTreeMap;

use crate::harness::model::{CaseResult, RunReport, Status};

/// Whether a cause is a fault in the program or a reading the spec leaves open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CauseKind {
    /// A known bug or a located faulty component.
    Bug,
    /// A spec-silent reading the output follows (a failed case: one the suite does not accept).
    Reading,
}

/// One cause a case names.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Named {
    /// Bug or reading.
    pub kind: CauseKind,
    /// Its name (`depth-off-by-one`, `no move`, `composite=legal-moves`).
    pub name: String,
}

/// The causes one wrong case names, read from its diagnosis: the variants a Take-Stones diagnosis matched
/// (`matches the reference with A + B (bug): …`), `label typos` for spec labels spelled differently, or the
/// fault kind of a forfeited game (`seat 1 no move: …`). An undiagnosed case names none.
pub fn case_causes(case: &CaseResult) -> Vec<Named> {
    let Some(diagnosis) = &case.diagnosis else { return Vec::new() };
    let mut found = Vec::new();
    for line in diagnosis.lines() {
        if let Some(rest) = line.strip_prefix("matches the reference with ") {
            let Some((names, after)) = rest.split_once(" (") else { continue };
            let kind = if after.starts_with("accepted reading") { CauseKind::Reading } else { CauseKind::Bug };
            found.push(Named { kind, name: names.to_string() });
        } else if line.starts_with("labels differ from the spec") {
            found.push(Named { kind: CauseKind::Bug, name: "label typos".into() });
        } else if let Some(rest) = line.strip_prefix("seat ") {
            let fault = rest.split_once(' ').map(|(_, f)| f).unwrap_or(rest);
            if let Some((kind, _)) = fault.split_once(':') {
                found.push(Named { kind: CauseKind::Bug, name: kind.to_string() });
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

/// A group of students sharing one cause, reading or compiler error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// What they share.
    pub key: String,
    /// Bug or reading (build groups: [`CauseKind::Bug`]).
    pub kind: CauseKind,
    /// The students, sorted, each once.
    pub students: Vec<String>,
}

/// One student's runs that timed out, crashed, exited nonzero, hit the output cap or were the grader's fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trouble {
    /// The student.
    pub student: String,
    /// How those runs ended.
    pub status: Status,
    /// The cases, in suite order.
    pub cases: Vec<String>,
    /// The first such case's detail.
    pub detail: String,
    /// The last non-empty line of its stderr (often the exception).
    pub stderr: String,
}

/// Everything the causes section shows, computed from the result model.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Named bugs and located faults, most students first.
    pub bugs: Vec<Group>,
    /// Accepted readings that passed cases, most students first.
    pub readings: Vec<Group>,
    /// Failed builds by the compiler's first error line, most students first.
    pub builds: Vec<Group>,
    /// Students with a wrong output no cause explains.
    pub unexplained: Vec<String>,
    /// Timeouts, crashes, nonzero exits, output-limit kills and harness errors, by student.
    pub troubles: Vec<Trouble>,
}

/// Counts the causes of every student in `report`.
pub fn tally(report: &RunReport) -> Tally {
    let mut causes: BTreeMap<Named, Vec<String>> = BTreeMap::new();
    let mut readings: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut builds: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut tally = Tally::default();
    for s in &report.submissions {
        if let Some(build) = s.build.as_ref().filter(|b| !b.ok) {
            builds.entry(first_error_line(&build.message)).or_default().push(s.id.clone());
        }
        let mut unexplained = false;
        let mut troubles: Vec<Trouble> = Vec::new();
        for case in &s.cases {
            if let (true, Some(reading)) = (case.status.is_pass(), &case.reading) {
                readings.entry(reading.clone()).or_default().push(s.id.clone());
            }
            let named = case_causes(case);
            if case.status == Status::Failed && named.is_empty() {
                unexplained = true;
            }
            for n in named {
                causes.entry(n).or_default().push(s.id.clone());
            }
            if matches!(
                case.status,
                Status::Timeout | Status::Crashed | Status::NonzeroExit | Status::OutputLimit | Status::HarnessError
            ) {
                match troubles.iter_mut().find(|t| t.status == case.status) {
                    Some(t) => t.cases.push(case.name.clone()),
                    None => troubles.push(Trouble {
                        student: s.id.clone(),
                        status: case.status,
                        cases: vec![case.name.clone()],
                        detail: case.detail.clone(),
                        stderr: case.stderr.text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").into(),
                    }),
                }
            }
        }
        if unexplained {
            tally.unexplained.push(s.id.clone());
        }
        tally.troubles.extend(troubles);
    }
    tally.bugs = ranked(causes.into_iter().map(|(n, who)| (n.name, n.kind, who)));
    tally.readings = ranked(readings.into_iter().map(|(k, who)| (k, CauseKind::Reading, who)));
    tally.builds = ranked(builds.into_iter().map(|(k, who)| (k, CauseKind::Bug, who)));
    tally
}

/// Groups with their students deduplicated, most students first, then by key.
fn ranked(groups: impl Iterator<Item = (String, CauseKind, Vec<String>)>) -> Vec<Group> {
    let mut out: Vec<Group> = groups
        .map(|(key, kind, mut students)| {
            students.sort();
            students.dedup();
            Group { key, kind, students }
        })
        .collect();
    out.sort_by(|a, b| b.students.len().cmp(&a.students.len()).then_with(|| a.key.cmp(&b.key)));
    out
}

/// The line that names a failed build's first compiler error, without its line number so the same mistake on
/// different lines groups together: the first line that mentions an error (`Foo.java:12: error: ';' expected`
/// becomes `Foo.java: error: ';' expected`; Python's `SyntaxError: …` stays as it is), else the first line after
/// the grader's own `the build failed …:` header, else that header.
pub fn first_error_line(message: &str) -> String {
    let mut lines = message.lines().map(str::trim).filter(|l| !l.is_empty());
    let header = lines.next().unwrap_or("the build failed");
    let rest: Vec<&str> = lines.collect();
    let line = rest
        .iter()
        .find(|l| l.to_ascii_lowercase().contains("error"))
        .or_else(|| rest.first())
        .copied()
        .unwrap_or(header);
    without_line_number(line)
}

/// `path/File.java:12:` (or `:12:5:`) at the start becomes `File.java:`.
fn without_line_number(line: &str) -> String {
    let mut parts = line.splitn(3, ':');
    let (Some(file), Some(number), Some(rest)) = (parts.next(), parts.next(), parts.next()) else {
        return line.to_string();
    };
    if file.contains(' ') || number.is_empty() || !number.chars().all(|c| c.is_ascii_digit()) {
        return line.to_string();
    }
    let rest = match rest.split_once(':') {
        Some((col, after)) if !col.is_empty() && col.chars().all(|c| c.is_ascii_digit()) => after,
        _ => rest,
    };
    let base = file.rsplit('/').next().unwrap_or(file);
    format!("{base}:{rest}")
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn compiler_lines_lose_paths_and_line_numbers() {
        let javac = "the build failed (exit code 1):\n/tmp/x/src/AlphaBeta.java:12: error: ';' expected\n  int x\n";
        assert_eq!(first_error_line(javac), "AlphaBeta.java: error: ';' expected");
        let python = "the build failed (exit code 1):\n  File \"/tmp/a.py\", line 3\n    def f(\nSyntaxError: '(' was never closed";
        assert_eq!(first_error_line(python), "SyntaxError: '(' was never closed");
        assert_eq!(first_error_line("the build timed out after 120 s:\n"), "the build timed out after 120 s:");
        assert_eq!(first_error_line("x:\nA.java:3:7: error: boom"), "A.java: error: boom");
    }

    #[test]
    fn diagnoses_name_their_causes() {
        let mut case = CaseResult::new("c".into(), Status::Failed, 1.0);
        case.diagnosis = Some(
            "matches the reference with depth-off-by-one + no-prune (bug): x; and y\n\
             matches the reference with composite=legal-moves (accepted reading): z"
                .into(),
        );
        let names: Vec<(CauseKind, String)> = case_causes(&case).into_iter().map(|n| (n.kind, n.name)).collect();
        assert_eq!(
            names,
            vec![
                (CauseKind::Bug, "depth-off-by-one + no-prune".into()),
                (CauseKind::Reading, "composite=legal-moves".into())
            ]
        );
        case.diagnosis = Some("seat 2 no move at the deadline: never set its move".into());
        assert_eq!(case_causes(&case)[0].name, "no move at the deadline");
        case.diagnosis = Some("no known bug reproduces this output".into());
        assert!(case_causes(&case).is_empty());
    }
}

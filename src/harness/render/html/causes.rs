//! Causes across a class: which named bug or located fault each student's wrong output shows, which accepted
//! readings passed, which compiler error stopped a build, and which runs timed out or crashed, each grouped with
//! the students it concerns, most common first.
//!
//! [`case_causes`] is the one place that reads a case's causes out of the result model; everything else counts
//! what it returns.

use std::collections::BTreeMap;

use crate::harness::model::{CaseResult, CauseKind, RunReport, Status};

/// One cause a case names, as the class page counts it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Named {
    /// Its name (`depth-limit-off-by-one`, `evaluation`, `composite=legal-moves`), the key students are grouped by.
    pub name: String,
    /// Bug, located component or accepted reading.
    pub kind: Kind,
    /// One sentence on it (empty when the result gave none).
    pub sentence: String,
}

/// [`CauseKind`] with an order, so causes sort and group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// [`CauseKind::Bug`].
    Bug,
    /// [`CauseKind::LocatedComponent`].
    Located,
    /// [`CauseKind::AcceptedReading`].
    Reading,
}

impl Kind {
    /// The model's kind.
    pub fn of(kind: CauseKind) -> Kind {
        match kind {
            CauseKind::Bug => Kind::Bug,
            CauseKind::LocatedComponent => Kind::Located,
            CauseKind::AcceptedReading => Kind::Reading,
        }
    }

    /// The words the page uses.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Bug => CauseKind::Bug.label(),
            Kind::Located => "located component",
            Kind::Reading => CauseKind::AcceptedReading.label(),
        }
    }
}

/// The causes one case names: its shared-model `causes`; for a result written before that model (or by a
/// diagnoser that fills only the text), the causes its `diagnosis` names (`matches the reference with A + B (bug):
/// …`, `labels differ from the spec`, a forfeited game's `seat 1 no move at the deadline: …`); and a passed
/// case's non-default `reading`. An undiagnosed case names none.
pub fn case_causes(case: &CaseResult) -> Vec<Named> {
    let mut found: Vec<Named> = case
        .causes
        .iter()
        .map(|c| Named { name: c.name.clone(), kind: Kind::of(c.kind), sentence: c.sentence.clone() })
        .collect();
    if found.is_empty() {
        found = from_diagnosis(case.diagnosis.as_deref().unwrap_or(""));
    }
    if let (true, Some(reading)) = (case.status.is_pass(), &case.reading) {
        if !found.iter().any(|n| n.kind == Kind::Reading && &n.name == reading) {
            found.push(Named { name: reading.clone(), kind: Kind::Reading, sentence: String::new() });
        }
    }
    found.sort();
    found.dedup_by(|a, b| a.name == b.name && a.kind == b.kind);
    found
}

/// The causes a diagnosis text names (see [`case_causes`]).
fn from_diagnosis(diagnosis: &str) -> Vec<Named> {
    let mut found = Vec::new();
    for line in diagnosis.lines() {
        if let Some(rest) = line.strip_prefix("matches the reference with ") {
            let Some((names, after)) = rest.split_once(" (") else { continue };
            let kind = if after.starts_with("accepted reading") { Kind::Reading } else { Kind::Bug };
            let sentence = after.split_once("): ").map_or("", |(_, s)| s).to_string();
            found.push(Named { name: names.to_string(), kind, sentence });
        } else if let Some(typos) = line.strip_prefix("labels differ from the spec") {
            let sentence = typos.trim_start_matches(':').trim().to_string();
            found.push(Named { name: "label typos".into(), kind: Kind::Bug, sentence });
        } else if let Some(rest) = line.strip_prefix("seat ") {
            let fault = rest.split_once(' ').map_or(rest, |(_, f)| f);
            if let Some((kind, _)) = fault.split_once(':') {
                found.push(Named { name: kind.to_string(), kind: Kind::Bug, sentence: String::new() });
            }
        }
    }
    found
}

/// A group of students sharing one cause, reading or compiler error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// What they share.
    pub key: String,
    /// Bug, located component or reading (build groups: [`Kind::Bug`]).
    pub kind: Kind,
    /// One sentence on it, from the first student that had one (empty for build groups).
    pub sentence: String,
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
    /// Named bugs and located components, most students first.
    pub bugs: Vec<Group>,
    /// Accepted readings (of passed cases, or named by a diagnosis), most students first.
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
    let mut causes: BTreeMap<(Kind, String), Seen> = BTreeMap::new();
    let mut builds: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut tally = Tally::default();
    for s in &report.submissions {
        if let Some(build) = s.build.as_ref().filter(|b| !b.ok) {
            builds.entry(first_error_line(&build.message)).or_default().push(s.id.clone());
        }
        let mut unexplained = false;
        let mut troubles: Vec<Trouble> = Vec::new();
        for case in &s.cases {
            let named = case_causes(case);
            unexplained |= case.status == Status::Failed && named.is_empty();
            for n in named {
                let entry = causes.entry((n.kind, n.name)).or_default();
                if entry.0.is_empty() {
                    entry.0 = n.sentence;
                }
                entry.1.push(s.id.clone());
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
    let (readings, bugs): (Vec<_>, Vec<_>) = causes.into_iter().partition(|((kind, _), _)| *kind == Kind::Reading);
    let groups = |list: Vec<((Kind, String), Seen)>| {
        ranked(list.into_iter().map(|((kind, key), (sentence, students))| Group { key, kind, sentence, students }))
    };
    tally.bugs = groups(bugs);
    tally.readings = groups(readings);
    tally.builds = ranked(builds.into_iter().map(|(key, students)| Group {
        key,
        kind: Kind::Bug,
        sentence: String::new(),
        students,
    }));
    tally
}

/// A cause's first sentence and the students seen with it, while counting.
type Seen = (String, Vec<String>);

/// Groups with their students deduplicated, most students first, then by key.
fn ranked(groups: impl Iterator<Item = Group>) -> Vec<Group> {
    let mut out: Vec<Group> = groups
        .map(|mut g| {
            g.students.sort();
            g.students.dedup();
            g
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
    let mut lines = message.lines().map(str::trim).filter(|l| !l.is_empty()).peekable();
    // A header ends with a colon (`the build failed (exit code 1):`); a first line that says more is the error
    // itself (`takestones.py does not parse: line 12: SyntaxError: ...`).
    let header = lines.next_if(|l| l.ends_with(':')).unwrap_or("the build failed");
    let rest: Vec<&str> = lines.collect();
    let line = rest
        .iter()
        .find(|l| l.to_ascii_lowercase().contains("error"))
        .or_else(|| rest.first())
        .copied()
        .unwrap_or(header);
    without_line_number(line)
}

/// `path/File.java:12:` (or `:12:5:`) at the start becomes `File.java:`, and a `line 12: ` inside is dropped, so
/// the same mistake on different lines groups together.
fn without_line_number(line: &str) -> String {
    if let Some((before, after)) = line.split_once(": line ") {
        if let Some((number, rest)) = after.split_once(": ") {
            if !number.is_empty() && number.chars().all(|c| c.is_ascii_digit()) {
                return format!("{before}: {rest}");
            }
        }
    }
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
        let unparsed = "takestones.py does not parse: line 152: SyntaxError: invalid syntax\n    def broken(:";
        assert_eq!(first_error_line(unparsed), "takestones.py does not parse: SyntaxError: invalid syntax");
    }

    #[test]
    fn diagnoses_name_their_causes() {
        let mut case = CaseResult::new("c".into(), Status::Failed, 1.0);
        case.diagnosis = Some(
            "matches the reference with depth-off-by-one + no-prune (bug): x; and y\n\
             matches the reference with composite=legal-moves (accepted reading): z"
                .into(),
        );
        let names: Vec<(Kind, String)> = case_causes(&case).into_iter().map(|n| (n.kind, n.name)).collect();
        assert_eq!(
            names,
            vec![(Kind::Reading, "composite=legal-moves".into()), (Kind::Bug, "depth-off-by-one + no-prune".into())]
        );
        case.diagnosis = Some("seat 2 no move at the deadline: never set its move".into());
        assert_eq!(case_causes(&case)[0].name, "no move at the deadline");
        case.diagnosis = Some("no known bug reproduces this output".into());
        assert!(case_causes(&case).is_empty());
        // The shared cause model wins over the text.
        case.causes = vec![crate::harness::model::Cause::new("evaluation", CauseKind::LocatedComponent, "It differs.")];
        let named = case_causes(&case);
        assert_eq!(
            (named[0].kind, named[0].name.as_str(), named[0].sentence.as_str()),
            (Kind::Located, "evaluation", "It differs.")
        );
        // A passed case's reading counts as an accepted reading.
        let mut passed = CaseResult::new("p".into(), Status::Passed, 1.0);
        passed.reading = Some("composite=legal-moves".into());
        assert_eq!(case_causes(&passed)[0].kind, Kind::Reading);
    }

    #[test]
    fn a_tally_groups_students_most_common_first() {
        let student = |id: &str, cause: &str| {
            let mut case = CaseResult::new("c".into(), Status::Failed, 1.0);
            case.causes = vec![crate::harness::model::Cause::new(cause, CauseKind::Bug, "s.")];
            crate::harness::model::SubmissionResult {
                id: id.into(),
                source: String::new(),
                build: None,
                cases: vec![case.clone(), case],
                score: crate::harness::model::Points::ZERO,
                max_score: crate::harness::model::Points::from_f64(2.0),
                run: String::new(),
                fingerprint: String::new(),
                handin: String::new(),
                sandbox: Vec::new(),
                not_graded: None,
            }
        };
        let report = RunReport {
            schema: 1,
            suite: "s".into(),
            submissions: vec![student("a", "x"), student("b", "y"), student("c", "y")],
        };
        let t = tally(&report);
        let got: Vec<(&str, Vec<&str>)> =
            t.bugs.iter().map(|g| (g.key.as_str(), g.students.iter().map(String::as_str).collect())).collect();
        assert_eq!(got, vec![("y", vec!["b", "c"]), ("x", vec!["a"])], "each student once, most common first");
    }
}

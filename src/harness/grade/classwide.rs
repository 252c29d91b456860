//! Failures the whole class shares: when every hand-in (at least [`MIN_CLASS`]) fails one case the same way, the
//! likelier cause is the grader (a command, a build step, a suite, a limit, the machine) rather than every
//! student at once, so a class run says so instead of handing out the same zero to everyone.
//!
//! "The same way" is the same status and the same first line of what went wrong: the first non-empty line of
//! stderr (of the compiler's message for a build error), and for a wrong output the line printed where the
//! output first differs. Paths are left out of the comparison (every student's scratch folder has its own), so a
//! build step that finds no file in any scratch folder is one failure, not one per student.

use crate::harness::model::{CaseResult, Status, SubmissionResult};

/// The smallest class whose shared failure is reported: with two hand-ins, both failing alike says too little.
pub const MIN_CLASS: usize = 3;

/// One case that every hand-in failed the same way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedFailure {
    /// The case's name.
    pub case: String,
    /// How every hand-in's run of it ended.
    pub status: Status,
    /// The line they all share (the first stderr line, the compiler's first line, or the detail when neither
    /// says more), as the first student's result has it.
    pub line: String,
    /// How many hand-ins.
    pub students: usize,
}

impl SharedFailure {
    /// The sentence a report shows: what failed, how, and what to check.
    pub fn sentence(&self) -> String {
        format!(
            "suspected grader problem: all {} hand-ins failed case '{}' the same way ({}: {}); check the command, \
             the build step, the suite and the limits before trusting these grades",
            self.students,
            crate::harness::grade::ids::printable(&self.case),
            self.status.label(),
            crate::harness::grade::ids::printable(&self.line)
        )
    }
}

/// The cases every result in `results` (at least [`MIN_CLASS`]) failed the same way, in the first result's
/// case order. A failed build counts once (its first case stands for every case it stopped).
pub fn shared_failures(results: &[SubmissionResult]) -> Vec<SharedFailure> {
    let Some(first) = results.first() else { return Vec::new() };
    if results.len() < MIN_CLASS {
        return Vec::new();
    }
    let mut found: Vec<SharedFailure> = Vec::new();
    for case in &first.cases {
        if case.status.is_pass() {
            continue;
        }
        let key = signature(first, case);
        let same = results[1..]
            .iter()
            .all(|r| r.cases.iter().find(|c| c.name == case.name).is_some_and(|c| signature(r, c) == key));
        if !same {
            continue;
        }
        if case.status == Status::BuildError && found.iter().any(|f| f.status == Status::BuildError) {
            continue;
        }
        found.push(SharedFailure {
            case: case.name.clone(),
            status: case.status,
            line: telling(first, case).unwrap_or_else(|| case.detail.clone()),
            students: results.len(),
        });
    }
    found
}

/// How a case went wrong, for comparison: the status, the telling line and the detail, paths replaced.
fn signature(result: &SubmissionResult, case: &CaseResult) -> (Status, Option<String>, String) {
    (case.status, telling(result, case).map(|l| without_paths(&l)), without_paths(&case.detail))
}

/// The line that says what went wrong: the first non-empty line of stderr (of the compiler's message for a build
/// error), or for a wrong output the line printed where it first differs.
fn telling(result: &SubmissionResult, case: &CaseResult) -> Option<String> {
    let first = |text: &str| text.lines().find(|l| !l.trim().is_empty()).map(str::to_string);
    match case.status {
        Status::Passed => None,
        Status::BuildError => result.build.as_ref().and_then(|b| {
            let message = b.message.split_once('\n').map_or("", |(_, rest)| rest);
            first(message)
        }),
        Status::Failed => case.difference.as_ref().map(|d| d.actual.clone().unwrap_or_else(|| "(output ended)".into())),
        _ => first(&case.stderr.text),
    }
}

/// `line` with every absolute path (a word starting with `/`) replaced by `<path>`.
fn without_paths(line: &str) -> String {
    line.split(' ')
        .map(|word| match word.find('/') {
            Some(at) if at == 0 || word[..at].ends_with(['\'', '"', '(', '[', '=', ':']) => {
                format!("{}<path>", &word[..at])
            }
            _ => word.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::harness::model::{BuildResult, Captured};

    fn result(id: &str, cases: Vec<CaseResult>, build: Option<&str>) -> SubmissionResult {
        SubmissionResult {
            id: id.into(),
            source: String::new(),
            build: build.map(|m| BuildResult { ok: false, command: "javac".into(), message: m.into(), elapsed_ms: 0 }),
            score: crate::harness::model::Points::ZERO,
            max_score: crate::harness::model::Points::ZERO,
            cases,
            run: String::new(),
            fingerprint: String::new(),
            handin: String::new(),
            sandbox: Vec::new(),
            not_graded: None,
        }
    }

    fn case(name: &str, status: Status, stderr: &str) -> CaseResult {
        CaseResult {
            stderr: Captured { text: stderr.into(), ..Captured::default() },
            detail: "exit code 1".into(),
            ..CaseResult::new(name.into(), status, 1.0)
        }
    }

    #[test]
    fn the_same_failure_in_every_hand_in_is_named_once() {
        let run = |id: &str, first: &str| {
            result(
                id,
                vec![
                    case("a", Status::NonzeroExit, &format!("\n{first}\nmore")),
                    case("b", Status::Passed, ""),
                    case("c", Status::NonzeroExit, id),
                ],
                None,
            )
        };
        let line = "python3: can't open file '/tmp/referee-1/alice/submission/takestones.py'";
        let class: Vec<_> = ["alice", "bob", "carol"].iter().map(|id| run(id, &line.replace("alice", id))).collect();
        let found = shared_failures(&class);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].case.as_str(), found[0].status, found[0].students), ("a", Status::NonzeroExit, 3));
        assert!(found[0].line.contains("alice/submission/takestones.py"), "{}", found[0].line);
        // Two hand-ins are not a class; one that differs breaks the pattern.
        assert!(shared_failures(&class[..2]).is_empty());
        let mut mixed = class.clone();
        mixed[2].cases[0].stderr.text = "Traceback (most recent call last):".into();
        assert!(shared_failures(&mixed).is_empty());
    }

    #[test]
    fn a_build_step_failing_everywhere_is_one_line() {
        let build = |id: &str| {
            let message =
                format!("the build failed (exit code 2):\nerror: file not found: /tmp/x/{id}/submission/*.java");
            let cases = vec![case("a", Status::BuildError, ""), case("b", Status::BuildError, "")];
            result(id, cases, Some(&message))
        };
        let class: Vec<_> = ["alice", "bob", "carol", "dave"].iter().map(|id| build(id)).collect();
        let found = shared_failures(&class);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0]
            .sentence()
            .contains("all 4 hand-ins failed case 'a' the same way (build error: error: file not found: /tmp/x/alice"));
        // Students with their own compile errors are not a shared failure.
        let mut own = class.clone();
        own[1].build.as_mut().unwrap().message =
            "the build failed (exit code 1):\nFoo.java:3: error: ';' expected".into();
        assert!(shared_failures(&own).is_empty());
    }
}

//! Failures the class shares: when most hand-ins (a strict majority, at least [`MIN_CLASS`]) fail one case the
//! same way, with the same line (every hand-in when there is no line, as for a game rubric's lost games), or when most hand-ins' output is diagnosed as the other Take-Stones edition's (the suite is likely of
//! the other edition: 2017's trace or 2019's stats), the likelier cause is the grader (a command, a build step, a
//! suite, a limit, the machine) rather than most students at once, so a class run says so, with what to check,
//! and its exit code is the grader's ([`crate::cli::exit::SUSPECT`]) instead of handing out the same zero.
//!
//! "The same way" is the same status and the same first line of what went wrong: the first non-empty line of
//! stderr (of the compiler's message for a build error), and for a wrong output the line printed where the
//! output first differs. Paths are left out of the comparison (every student's scratch folder has its own), so a
//! build step that finds no file in any scratch folder is one failure, not one per student.

use crate::harness::model::{CaseResult, Status, SubmissionResult};

/// The smallest number of hand-ins whose shared failure is reported: two failing alike says too little.
pub const MIN_CLASS: usize = 3;

/// The cause name the Take-Stones diagnosis gives an output of the other edition.
pub const OTHER_EDITION: &str = "other-edition";

/// One case that most hand-ins failed the same way, or the other edition most hand-ins' output is of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedFailure {
    /// The case's name (for the other edition: the first case so diagnosed).
    pub case: String,
    /// How those hand-ins' runs of it ended.
    pub status: Status,
    /// The line they share (the first stderr line, the compiler's first line, or the detail when neither says
    /// more), as the first such result has it; for the other edition, the diagnosis's sentence.
    pub line: String,
    /// How many hand-ins failed it so.
    pub students: usize,
    /// How many hand-ins the class has.
    pub of: usize,
    /// Whether this is the other edition's output rather than one case failed alike.
    pub other_edition: bool,
}

impl SharedFailure {
    /// The sentence a report shows: what failed, how, and what to check.
    pub fn sentence(&self) -> String {
        let who = if self.students == self.of {
            format!("all {}", self.students)
        } else {
            format!("{} of {}", self.students, self.of)
        };
        let case = crate::harness::grade::ids::printable(&self.case);
        let line = crate::harness::grade::ids::printable(&self.line);
        if self.other_edition {
            return format!(
                "suspected grader problem: {who} hand-ins print the other Take-Stones edition's output (case \
                 '{case}': {line}); check that the suite is of your assignment's edition (2017's trace or 2019's \
                 stats) before trusting these grades, which are not final"
            );
        }
        format!(
            "suspected grader problem: {who} hand-ins failed case '{case}' the same way ({}: {line}); check the \
             command, the build step, the suite and the limits before trusting these grades, which are not final",
            self.status.label(),
        )
    }
}

/// The cases most results in `results` (a strict majority, at least [`MIN_CLASS`]) failed the same way, in the
/// order the results first name them; then, when most results (of at least [`MIN_CLASS`]) are of the other
/// edition's output, that (one student who wrote the other edition is that student's failure). A failed
/// build counts once (its first case stands for every case it stopped).
pub fn shared_failures(results: &[SubmissionResult]) -> Vec<SharedFailure> {
    let of = results.len();
    let mut found: Vec<SharedFailure> = Vec::new();
    let mut names: Vec<&str> = Vec::new();
    for case in results.iter().flat_map(|r| &r.cases) {
        if !names.contains(&case.name.as_str()) {
            names.push(&case.name);
        }
    }
    for name in if of >= MIN_CLASS { names } else { Vec::new() } {
        // The failures of this case, grouped by how they went wrong, each group in class order.
        let mut groups: Vec<(Signature, Vec<(&SubmissionResult, &CaseResult)>)> = Vec::new();
        for r in results {
            let Some(case) = r.cases.iter().find(|c| c.name == name && !c.status.is_pass()) else { continue };
            let key = signature(r, case);
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, members)) => members.push((r, case)),
                None => groups.push((key, vec![(r, case)])),
            }
        }
        let Some((key, members)) = groups.iter().rev().max_by_key(|(_, m)| m.len()) else { continue };
        // Most is enough when they share a line (an error, a compiler message, a printed line); a case lost with
        // no line of its own (a game rubric's "lost every game") must be lost by every hand-in to say so.
        let most = members.len() * 2 > of && key.1.is_some();
        if members.len() < MIN_CLASS || !(most || members.len() == of) {
            continue;
        }
        let (first, case) = members[0];
        if case.status == Status::BuildError && found.iter().any(|f| f.status == Status::BuildError) {
            continue;
        }
        found.push(SharedFailure {
            case: case.name.clone(),
            status: case.status,
            line: telling(first, case).unwrap_or_else(|| case.detail.clone()),
            students: members.len(),
            of,
            other_edition: false,
        });
    }
    let diagnosed: Vec<(&CaseResult, String)> = results
        .iter()
        .filter_map(|r| {
            r.cases
                .iter()
                .find_map(|c| c.causes.iter().find(|k| k.name == OTHER_EDITION).map(|k| (c, k.sentence.clone())))
        })
        .collect();
    if let Some((case, sentence)) = diagnosed.first().filter(|_| of >= MIN_CLASS && diagnosed.len() * 2 > of) {
        found.push(SharedFailure {
            case: case.name.clone(),
            status: case.status,
            line: sentence.clone(),
            students: diagnosed.len(),
            of,
            other_edition: true,
        });
    }
    found
}

/// How a case went wrong, for comparison.
type Signature = (Status, Option<String>, String);

/// How a case went wrong, for comparison: the status, the telling line and the detail, paths replaced.
fn signature(result: &SubmissionResult, case: &CaseResult) -> Signature {
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
    fn most_hand_ins_failing_alike_is_a_suspicion_and_half_is_not() {
        let line = "Traceback (most recent call last):";
        let run = |id: &str, own: bool| {
            let stderr = if own { format!("{id}.py: NameError") } else { line.to_string() };
            result(id, vec![case("a", Status::NonzeroExit, &stderr), case("b", Status::Passed, "")], None)
        };
        let ids = ["alice", "bob", "carol", "dave", "erin", "fay"];
        let class: Vec<_> = ids.iter().enumerate().map(|(i, id)| run(id, i == 0 || i == 5)).collect();
        let found = shared_failures(&class[..5]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].students, found[0].of, found[0].line.as_str()), (4, 5, line));
        assert!(found[0].sentence().starts_with("suspected grader problem: 4 of 5 hand-ins failed case 'a' the same"));
        // Four of six is still most; three of six is not.
        assert_eq!(shared_failures(&class).len(), 1);
        let mut half = class.clone();
        half[1].cases[0].stderr.text = "bob.py: IndexError".into();
        assert!(shared_failures(&half).is_empty(), "three of six is not a majority");
    }

    #[test]
    fn most_output_of_the_other_edition_is_a_suspicion() {
        use crate::harness::cause::{Cause, CauseKind};
        let sentence = "This looks like the trace edition's output (exactly what the reference prints there); this is \
                        checked as the stats edition.";
        let run = |id: &str, other: bool| {
            let mut c = case("a", Status::Failed, "");
            c.difference = Some(crate::harness::model::FirstDifference {
                line: 1,
                expected: Some("Move: 3".into()),
                actual: Some(format!("{id} printed this")),
            });
            if other {
                c.causes = vec![Cause::new(OTHER_EDITION, CauseKind::Bug, sentence)];
            }
            result(id, vec![c], None)
        };
        let class = vec![run("alice", true), run("bob", true), run("carol", false)];
        let found = shared_failures(&class);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].other_edition && found[0].students == 2 && found[0].of == 3, "{found:?}");
        assert!(found[0].sentence().contains("2 of 3 hand-ins print the other Take-Stones edition's output"));
        assert!(shared_failures(&[run("alice", true), run("bob", true)]).is_empty(), "two hand-ins are not a class");
        let mut four = class.clone();
        four.push(run("dave", false));
        assert!(shared_failures(&four).is_empty(), "two of four is not most");
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
        // One student's own compile error leaves the other three sharing the build step's: still most.
        let mut own = class.clone();
        own[1].build.as_mut().unwrap().message =
            "the build failed (exit code 1):\nFoo.java:3: error: ';' expected".into();
        let found = shared_failures(&own);
        assert_eq!((found.len(), found[0].students, found[0].of), (1, 3, 4), "{found:?}");
        assert!(found[0].sentence().contains("3 of 4 hand-ins failed case 'a'"), "{}", found[0].sentence());
        // Students with their own compile errors are not a shared failure: two of four is not most.
        own[2].build.as_mut().unwrap().message =
            "the build failed (exit code 1):\nBar.java:9: error: cannot find symbol".into();
        assert!(shared_failures(&own).is_empty());
    }
}

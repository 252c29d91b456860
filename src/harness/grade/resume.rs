//! Deciding, when a class run starts over an `--out` folder that already holds results, whom to grade: a student
//! is skipped only when the stored result was graded the same way (suite, commands, limits: the settings
//! fingerprint) *and* from the same hand-in (its [`handin::fingerprint`]); everyone else is graded, and the reason
//! is kept so the summary can say who was re-graded and why.
//!
//! Used by `referee grade --submissions` and by the game graders (`grade mancala`, `grade othello`).

use std::fmt::Write as _;

use super::handin;
use super::roster::Entry;
use super::store::Store;
use crate::harness::model::SubmissionResult;

/// Why a student with a stored result is graded again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Regrade {
    /// The hand-in's files differ from the ones graded before (a resubmission).
    HandinChanged,
    /// The suite, a command or a limit differs from the run that graded it.
    SettingsChanged,
    /// The stored result does not record which hand-in it graded (written by an older grader).
    HandinUnrecorded,
    /// The hand-in could not be read to fingerprint it (grading reports why).
    HandinUnreadable,
}

impl Regrade {
    /// The summary's words after "re-graded N student(s) ", singular or plural.
    fn because(self, one: bool) -> &'static str {
        match (self, one) {
            (Regrade::HandinChanged, true) => "whose hand-in changed since the last run",
            (Regrade::HandinChanged, false) => "whose hand-ins changed since the last run",
            (Regrade::SettingsChanged, _) => "graded earlier with another suite, command or limit",
            (Regrade::HandinUnrecorded, true) => "whose earlier result does not record which hand-in it graded",
            (Regrade::HandinUnrecorded, false) => "whose earlier results do not record which hand-in they graded",
            (Regrade::HandinUnreadable, true) => "whose hand-in could not be read to compare it",
            (Regrade::HandinUnreadable, false) => "whose hand-ins could not be read to compare them",
        }
    }
}

/// One student to grade in this run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Todo<'a> {
    /// The hand-in.
    pub entry: &'a Entry,
    /// Its fingerprint, to store with the new result (empty when it could not be read).
    pub handin: String,
    /// Why a stored result is not kept; `None` for a student with no stored result.
    pub regrade: Option<Regrade>,
}

/// Who is graded in this run and who keeps an earlier result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan<'a> {
    /// The students to grade, in entry order.
    pub todo: Vec<Todo<'a>>,
    /// Students whose stored result stands (same settings, same hand-in).
    pub kept: usize,
}

/// Plans a run of `entries` against the results in `store`, for the settings fingerprint `settings`.
pub fn plan<'a>(entries: &'a [Entry], store: &Store, settings: &str) -> Plan<'a> {
    let stored = store.load_all();
    let mut plan = Plan::default();
    for entry in entries {
        let handin = handin::fingerprint(&entry.path).ok();
        let previous: Option<&SubmissionResult> = stored.iter().find(|r| r.id == entry.id);
        let regrade = match (previous, &handin) {
            (None, _) => None,
            (Some(r), _) if r.fingerprint != settings => Some(Regrade::SettingsChanged),
            (Some(_), None) => Some(Regrade::HandinUnreadable),
            (Some(r), Some(_)) if r.handin.is_empty() => Some(Regrade::HandinUnrecorded),
            (Some(r), Some(now)) if &r.handin != now => Some(Regrade::HandinChanged),
            (Some(_), Some(_)) => {
                plan.kept += 1;
                continue;
            }
        };
        plan.todo.push(Todo { entry, handin: handin.unwrap_or_default(), regrade });
    }
    plan
}

impl Plan<'_> {
    /// One line per reason a stored result was replaced, naming the students (the first 10, then how many more):
    /// `re-graded 1 student whose hand-in changed since the last run: alice`.
    pub fn regrade_lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for reason in
            [Regrade::HandinChanged, Regrade::SettingsChanged, Regrade::HandinUnrecorded, Regrade::HandinUnreadable]
        {
            let ids: Vec<&str> =
                self.todo.iter().filter(|t| t.regrade == Some(reason)).map(|t| t.entry.id.as_str()).collect();
            if ids.is_empty() {
                continue;
            }
            let one = ids.len() == 1;
            let mut line = format!(
                "re-graded {} student{} {}: {}",
                ids.len(),
                if one { "" } else { "s" },
                reason.because(one),
                ids.iter().take(10).copied().collect::<Vec<_>>().join(", ")
            );
            if ids.len() > 10 {
                let _ = write!(line, " and {} more", ids.len() - 10);
            }
            lines.push(line);
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use std::fs;

    use super::*;

    fn stored(id: &str, settings: &str, handin: &str) -> SubmissionResult {
        SubmissionResult {
            id: id.into(),
            source: String::new(),
            build: None,
            cases: Vec::new(),
            score: crate::harness::model::Points::ZERO,
            max_score: crate::harness::model::Points::ZERO,
            run: "earlier".into(),
            fingerprint: settings.into(),
            handin: handin.into(),
            sandbox: Vec::new(),
            not_graded: None,
        }
    }

    #[test]
    fn only_the_same_settings_and_the_same_hand_in_are_kept() {
        let class = tempfile::tempdir().unwrap();
        let out = tempfile::tempdir().unwrap();
        let store = Store::open(out.path()).unwrap();
        let mut entries = Vec::new();
        for id in ["alice", "bob", "carol", "dave", "erin", "frank"] {
            let path = class.path().join(id);
            fs::create_dir_all(&path).unwrap();
            fs::write(path.join("takestones.py"), format!("print('{id}')\n")).unwrap();
            entries.push(Entry { id: id.into(), name: id.into(), path });
        }
        let print = |i: usize| handin::fingerprint(&entries[i].path).unwrap();
        store.save(&stored("alice", "S", &print(0))).unwrap();
        store.save(&stored("bob", "S", &print(0))).unwrap(); // graded from other files
        store.save(&stored("carol", "old", &print(2))).unwrap();
        store.save(&stored("dave", "S", "")).unwrap();
        store.save(&stored("frank", "S", &print(1))).unwrap();
        fs::write(entries[5].path.join("takestones.py"), "print('frank, resubmitted')\n").unwrap();
        // erin has no stored result.
        let plan = plan(&entries, &store, "S");
        assert_eq!(plan.kept, 1);
        let todo: Vec<(&str, Option<Regrade>)> = plan.todo.iter().map(|t| (t.entry.id.as_str(), t.regrade)).collect();
        assert_eq!(
            todo,
            [
                ("bob", Some(Regrade::HandinChanged)),
                ("carol", Some(Regrade::SettingsChanged)),
                ("dave", Some(Regrade::HandinUnrecorded)),
                ("erin", None),
                ("frank", Some(Regrade::HandinChanged)),
            ]
        );
        assert_eq!(plan.todo[3].handin, print(4));
        assert_eq!(
            plan.regrade_lines(),
            [
                "re-graded 2 students whose hand-ins changed since the last run: bob, frank",
                "re-graded 1 student graded earlier with another suite, command or limit: carol",
                "re-graded 1 student whose earlier result does not record which hand-in it graded: dave",
            ]
        );
    }
}

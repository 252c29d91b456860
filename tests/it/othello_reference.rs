//! Issue 32, item 4: the checker never runs inside the student's interpreter. A module that looks for the check's
//! reference in the Python it is imported into (the helper's globals, `sys.modules`, the garbage collector, its
//! callers' frames, the helper's source file on disk) and answers with it finds nothing that answers: it gets no
//! call right, where the same module against the helper of before passed every check (7 of 7).

use std::path::{Path, PathBuf};
use std::time::Duration;

use proptest::prelude::*;
use referee::referee::othello::conformance::function::Function;
use referee::referee::othello::conformance::report::Report;
use referee::referee::othello::conformance::{run, Options};

/// The ways the fixture looks for the reference (see `borrow_ai.py`).
const STRATEGIES: [&str; 5] = ["main", "modules", "gc", "frames", "source"];

/// `borrow_ai.py` with each function looking the way `strategies` says (in [`Function::ALL`] order), in `dir`.
fn borrowing(dir: &Path, name: &str, strategies: &[&str]) -> PathBuf {
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/othello/modules");
    let source = std::fs::read_to_string(fixtures.join("borrow_ai.py")).unwrap();
    let pairs: Vec<String> =
        Function::ALL.iter().zip(strategies).map(|(f, s)| format!("{:?}: {s:?}", f.name())).collect();
    let source = source.replacen("STRATEGIES = {}", &format!("STRATEGIES = {{{}}}", pairs.join(", ")), 1);
    let path = dir.join(format!("{name}_ai.py"));
    std::fs::write(&path, source).unwrap();
    path
}

fn check(path: &Path) -> Report {
    let options = Options {
        python: "/usr/bin/python3".into(),
        seed: 3,
        cases: 4,
        timeout: Duration::from_secs(5),
        ..Options::default()
    };
    run(path, &options).unwrap()
}

/// Every function was called and none answered right.
fn assert_nothing_earned(report: &Report, what: &str) {
    assert!(!report.passed(), "{what}: {report:#?}");
    assert_eq!(report.functions.len(), Function::ALL.len(), "{what}");
    for f in &report.functions {
        assert!(f.total > 0, "{what}: {:?} was never called", f.function);
        assert_eq!(f.agreed, 0, "{what}: {:?} earned {} of {}: {f:#?}", f.function, f.agreed, f.total);
    }
}

#[test]
fn a_module_answering_with_the_checks_own_reference_gets_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for strategy in STRATEGIES {
        let path = borrowing(dir.path(), strategy, &[strategy; 7]);
        assert_nothing_earned(&check(&path), strategy);
    }
    // The same check passes a correct module on every call: the calls above were answerable.
    let correct = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/othello/modules/limit_ai.py");
    let report = check(&correct);
    assert!(report.passed() && report.functions.iter().all(|f| f.agreed == f.total && f.total > 0), "{report:#?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any mix of the ways, one per function, earns nothing either (the first lookup that works is kept, so a mix
    /// reaches the helper by several paths in one process).
    #[test]
    fn any_mix_of_lookups_earns_nothing(picks in proptest::collection::vec(0usize..STRATEGIES.len(), 7)) {
        let dir = tempfile::tempdir().unwrap();
        let strategies: Vec<&str> = picks.iter().map(|&i| STRATEGIES[i]).collect();
        let report = check(&borrowing(dir.path(), "mixed", &strategies));
        assert_nothing_earned(&report, &format!("{strategies:?}"));
    }
}

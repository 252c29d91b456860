//! `referee gen`: the written suite loads in both layouts, the reference passes it, every bug in the catalog fails
//! at least one of its cases (checked again from the files, not from the printed table), it is the same for the
//! same seed, and every case is a small search.

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use referee::diagnose::takestones::generate::nodes_within;
use referee::diagnose::takestones::{Kind, MutantSolver, Variant};
use referee::harness::compare::first_difference;
use referee::harness::suite::{self, Expected};
use referee::reference::takestones::{parse_numbers, Edition};

use crate::grade::{grade_json, statuses, takestones_bin};

/// `referee gen` with `count` cases (a few more than the fewest that tell every bug apart: generating is the cost).
fn generate(edition: &str, layout: &str, out: &Path, seed: &str, count: &str) {
    let result = Command::cargo_bin("referee")
        .unwrap()
        .args(["gen", "takestones", "--edition", edition, "--layout", layout, "--count", count, "--seed", seed])
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert_eq!(result.status.code(), Some(0), "{}", String::from_utf8_lossy(&result.stderr));
}

#[test]
fn generated_suites_discriminate_every_bug_and_the_reference_passes_them() {
    for (edition, flag) in [(Edition::Stats, "stats"), (Edition::Trace, "trace")] {
        for layout in ["course", "native"] {
            let dir = tempfile::tempdir().unwrap();
            generate(flag, layout, dir.path(), "77", "8");
            let loaded = suite::load(dir.path().to_str().unwrap()).unwrap();
            assert_eq!(loaded.cases.len(), 8);
            for case in &loaded.cases {
                let (p, d) = parse_numbers(&case.args).unwrap();
                assert!(nodes_within(&p, d, 200_000).is_some(), "{:?} is too big a search", case.args);
            }
            for variant in Variant::ALL.into_iter().filter(|v| v.kind() == Kind::Bug && v.applies_to(edition)) {
                let solver = MutantSolver::new(edition, &[variant]);
                let caught = loaded.cases.iter().any(|case| {
                    let Expected::Text(expected) = &case.expected else { return false };
                    let (p, d) = parse_numbers(&case.args).unwrap();
                    solver.output(&p, d).map_or(true, |out| first_difference(expected, &out).is_some())
                });
                assert!(caught, "{flag}/{layout}: nothing catches {variant}");
            }
            let bin = takestones_bin();
            let cmd = format!("{bin} --edition {flag} {{args}}");
            let empty = tempfile::tempdir().unwrap();
            let (code, report) = grade_json(&[
                "--suite",
                dir.path().to_str().unwrap(),
                "--dir",
                empty.path().to_str().unwrap(),
                "--cmd",
                &cmd,
            ]);
            assert_eq!(code, 0, "{flag}/{layout}: {:?}", statuses(&report.submissions[0]));
        }
    }
}

/// A suite that accepts no reading fails a program that prints one, so it must have a case that shows each (at 8
/// cases, seed 5 once wrote none that showed `-0.0` or half-even rounding, and gen still exited 0).
#[test]
fn a_suite_that_accepts_no_reading_catches_every_reading_too() {
    let dir = tempfile::tempdir().unwrap();
    let result = Command::cargo_bin("referee")
        .unwrap()
        .args(["gen", "takestones", "--count", "8", "--seed", "5", "--accept", "none", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(result.status.code(), Some(0), "{}", String::from_utf8_lossy(&result.stderr));
    let loaded = suite::load(dir.path().to_str().unwrap()).unwrap();
    assert!(loaded.accept.is_empty(), "{:?}", loaded.accept);
    for variant in Variant::ALL.into_iter().filter(|v| v.applies_to(Edition::Stats)) {
        let solver = MutantSolver::new(Edition::Stats, &[variant]);
        let caught = loaded.cases.iter().any(|case| {
            let Expected::Text(expected) = &case.expected else { return false };
            let (p, d) = parse_numbers(&case.args).unwrap();
            solver.output(&p, d).map_or(true, |out| first_difference(expected, &out).is_some())
        });
        assert!(caught, "nothing catches {variant}");
    }
}

#[test]
fn the_same_seed_writes_the_same_suite() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    generate("stats", "course", a.path(), "9", "6");
    generate("stats", "course", b.path(), "9", "6");
    let mut names: Vec<_> = fs::read_dir(a.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    names.sort();
    assert!(names.len() >= 7, "testcase.txt and six outputs: {names:?}");
    for name in names {
        assert_eq!(fs::read(a.path().join(&name)).unwrap(), fs::read(b.path().join(&name)).unwrap(), "{name:?}");
    }
}

//! Every official case, run through the real binaries, compared line by line (a missing or extra final newline is
//! the only slack: the official files disagree on it).

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;
use referee::harness::compare::first_difference;
use referee::harness::suite::course::{parse_stats_2019, parse_trace_2017, CaseLine};

fn suite(dir: &str) -> Vec<(CaseLine, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/takestones").join(dir);
    let testcase = fs::read_to_string(root.join("testcase.txt")).unwrap();
    let lines = if dir == "stats-2019" { parse_stats_2019(&testcase).unwrap() } else { parse_trace_2017(&testcase) };
    lines
        .into_iter()
        .map(|line| {
            let expected = fs::read_to_string(root.join(&line.output_file)).unwrap();
            (line, expected)
        })
        .collect()
}

fn check(dir: &str, edition: &str, expected_cases: usize) {
    let cases = suite(dir);
    assert_eq!(cases.len(), expected_cases);
    let mut failures = Vec::new();
    for (line, expected) in &cases {
        for bin in ["takestones", "referee"] {
            let mut cmd = Command::cargo_bin(bin).unwrap();
            if bin == "referee" {
                cmd.arg("takestones");
            }
            let out = cmd.arg("--edition").arg(edition).args(&line.args).output().unwrap();
            assert_eq!(out.status.code(), Some(0), "{bin} {:?}", line.args);
            let actual = String::from_utf8(out.stdout).unwrap();
            if let Some(diff) = first_difference(expected, &actual) {
                failures.push(format!("{bin} {dir}/{}: {diff:?}", line.output_file));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn stats_2019_cases_match_byte_for_byte() {
    check("stats-2019", "stats", 3);
}

#[test]
fn trace_2017_cases_match_byte_for_byte() {
    check("trace-2017", "trace", 5);
}

#[test]
fn the_default_edition_is_stats() {
    let expected =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/takestones/stats-2019/output2.txt"))
            .unwrap();
    let out = Command::cargo_bin("takestones").unwrap().args(["7", "1", "1", "2"]).output().unwrap();
    assert_eq!(first_difference(&expected, &String::from_utf8(out.stdout).unwrap()), None);
}

#[test]
fn the_shipped_files_are_the_courses_unchanged() {
    let ours = Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/takestones");
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/testcases/takestones");
    if !shared.exists() {
        return; // a clone without shared/ beside it: nothing to compare with
    }
    let names = |d: &Path| {
        let mut v: Vec<_> = fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name()).collect();
        v.sort();
        v
    };
    for dir in ["stats-2019", "trace-2017"] {
        // Same files, no more, no fewer, byte for byte.
        assert_eq!(names(&ours.join(dir)), names(&shared.join(dir)), "{dir}");
        for name in names(&shared.join(dir)) {
            assert_eq!(
                fs::read(ours.join(dir).join(&name)).unwrap(),
                fs::read(shared.join(dir).join(&name)).unwrap(),
                "{dir}/{name:?}"
            );
        }
    }
}

#[test]
fn verify_checks_the_built_in_files() {
    Command::cargo_bin("referee")
        .unwrap()
        .arg("verify")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("verify: 8 of 8 official cases match"))
        .stdout(predicate::str::contains("FAIL").not());
}

/// The count the ground-truth notes give for the fastest public solution's full search of 36 stones.
#[test]
fn full_search_of_36_visits_the_published_node_count() {
    Command::cargo_bin("takestones")
        .unwrap()
        .args(["36", "0", "0"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("Number of Nodes Visited: 44650954\n"));
}

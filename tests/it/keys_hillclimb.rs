//! `referee hillclimb`: the CS540 HW2 Problem 2 answers, both matrix notations, snapshots, and bad input.

use assert_cmd::Command;
use predicates::prelude::*;
use referee::app::keys::hillclimb::key;
use referee::cli::HillclimbArgs;
use referee::keys::hillclimb::matrix::{self, Notation};
use referee::keys::hillclimb::report::length_text;
use referee::keys::hillclimb::tour::{self, show};
use referee::keys::hillclimb::{climb, climb::Climb};
use referee::keys::table::Format;

use crate::util::in_snapshot_dir;

const CSV: &str = "testcases/written/hw2-p2-tsp.csv";
const TOML: &str = "testcases/written/hw2-p2-tsp.toml";

fn args(tour: &str, closed: bool, format: Format) -> HillclimbArgs {
    HillclimbArgs { matrix: CSV.into(), tour: tour.into(), closed, format }
}

fn hw2(path: &str, notation: Notation) -> (matrix::Matrix, Climb) {
    let m = matrix::parse(&std::fs::read_to_string(path).unwrap(), notation).unwrap();
    let start = tour::parse("WMES", &m).unwrap();
    let c = climb::climb(&m, &start, false);
    (m, c)
}

/// The hand-worked answers: <W-M-E-S> is 1.1 + 1.4 + 0.5 = 3.0; its six neighbours; the climb goes
/// W-M-E-S (3.0) -> M-W-E-S (2.2) -> M-S-E-W (2.0), where no swap helps.
#[test]
fn hw2_problem_2_by_hand() {
    for (path, notation) in [(CSV, Notation::Csv), (TOML, Notation::Toml)] {
        let (m, c) = hw2(path, notation);
        assert_eq!(climb::neighbour_count(4).to_string(), "6");
        assert_eq!(climb::tour_count(4).to_string(), "24");
        let first = &c.steps[0];
        assert_eq!(length_text(&first.length), "3");
        let neighbours: Vec<(String, String)> =
            first.neighbours.iter().map(|n| (show(&m, &n.tour), length_text(&n.length))).collect();
        let by_hand = [
            ("M-W-E-S", "2.2"),
            ("E-M-W-S", "3.2"),
            ("S-M-E-W", "2.9"),
            ("W-E-M-S", "2.9"),
            ("W-S-E-M", "2.6"),
            ("W-M-S-E", "2.5"),
        ];
        let by_hand: Vec<(String, String)> = by_hand.iter().map(|(t, l)| (t.to_string(), l.to_string())).collect();
        assert_eq!(neighbours, by_hand, "{path}");
        let path_taken: Vec<(String, String)> =
            c.steps.iter().map(|s| (show(&m, &s.tour), length_text(&s.length))).collect();
        assert_eq!(
            path_taken,
            [("W-M-E-S", "3"), ("M-W-E-S", "2.2"), ("M-S-E-W", "2")].map(|(t, l)| (t.to_string(), l.to_string()))
        );
        assert_eq!(c.steps[2].next, None);
    }
}

#[test]
fn closed_tours_add_the_way_back() {
    let m = matrix::parse(&std::fs::read_to_string(CSV).unwrap(), Notation::Csv).unwrap();
    let t = tour::parse("W-M-E-S", &m).unwrap();
    // 3.0 open, plus d(S, W) = 0.7.
    assert_eq!(length_text(&tour::length(&m, &t, true)), "3.7");
}

#[test]
fn snapshots() {
    for (label, a) in [
        ("text", args("W,M,E,S", false, Format::Text)),
        ("md", args("<W-M-E-S>", false, Format::Md)),
        ("closed", args("WMES", true, Format::Text)),
    ] {
        let text = key(CSV, Some(CSV), &std::fs::read_to_string(CSV).unwrap(), &a).unwrap();
        in_snapshot_dir(label, || insta::assert_snapshot!("keys_hillclimb", text));
    }
}

#[test]
fn cli_and_bad_input() {
    Command::cargo_bin("referee")
        .unwrap()
        .args(["hillclimb", TOML, "--tour", "W,M,E,S"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Final state: M-S-E-W, length 2 after 2 moves."));
    Command::cargo_bin("referee")
        .unwrap()
        .args(["hillclimb", "-", "--tour", "A,B,C"])
        .write_stdin(",A,B,C\nA,0,1,2\nB,1,0,1/3\nC,2,1/3,0\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("n! = 6"));
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "asym.csv",
            ",A,B\nA,0,1\nB,2,0\n",
            "line 3, column 3: the distances are not symmetric: d(B, A) = 2 but d(A, B) = 1",
        ),
        ("number.csv", ",A,B\nA,0,x\nB,1,0\n", "line 2, column 5: 'x' is not a number"),
        ("short.csv", ",A,B\nA,0\nB,1,0\n", "line 2, column 1: this row has 2 cells"),
        ("diag.csv", ",A,B\nA,1,1\nB,1,0\n", "line 2, column 3: d(A, A) must be 0, not 1"),
        ("order.csv", ",A,B\nB,0,1\nA,1,0\n", "line 2, column 1: row 1 is named 'B' but column 1 is 'A'"),
        (
            "bad.toml",
            "labels = [\"A\", \"B\"]\ndistances = [[0, 1], [1, true]]\n",
            "line 2, column 26: 'true' is not a distance",
        ),
        ("syntax.toml", "labels = [\"A\", \"B\"\ndistances = 3\n", "line 2, column 1:"),
    ];
    for (file, text, message) in cases {
        let path = dir.path().join(file);
        std::fs::write(&path, text).unwrap();
        let tour = "A,B";
        Command::cargo_bin("referee")
            .unwrap()
            .arg("hillclimb")
            .arg(&path)
            .args(["--tour", tour])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::starts_with(format!("referee hillclimb: {}: {message}", path.display())));
    }
    for (tour, message) in [
        ("W,M,E,X", "--tour: unknown location 'X' (the matrix has M, W, E, S)"),
        ("W,M,E,W", "--tour: 'W' appears twice"),
        ("W,M,E", "--tour misses S"),
    ] {
        Command::cargo_bin("referee")
            .unwrap()
            .args(["hillclimb", CSV, "--tour", tour])
            .assert()
            .code(2)
            .stderr(predicate::str::starts_with(format!("referee hillclimb: {message}")));
    }
}

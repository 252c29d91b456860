//! The `takestones` command line: every kind of bad input gets one stderr line naming it and exit 2; a finished
//! game gets exit 4; the readings of the open points are options.

use assert_cmd::Command;
use predicates::prelude::*;
use referee::reference::takestones::{solve_to_string, Edition};

use crate::oracle::Oracle;
use crate::util::request;

fn takestones(args: &str) -> std::process::Output {
    Command::cargo_bin("takestones").unwrap().args(args.split_whitespace()).output().unwrap()
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let cases = [
        ("", "missing arguments"),
        ("7 0", "missing arguments"),
        ("x 0 0", "N must be a whole number, got 'x'"),
        ("7 1 2.5 0", "T1 must be a whole number"),
        ("7 0 -3", "DEPTH must not be negative"),
        ("-7 0 0", "N must not be negative"),
        ("7 -1 0", "K must not be negative"),
        ("0 0 0", "N must be at least 1"),
        ("100001 0 1", "above the supported maximum of 100000"),
        ("99999999999999999999 0 0", "N = 99999999999999999999 is too large"),
        ("7 2 1 0", "K = 2 says 2 taken stone(s) follow"),
        ("7 1 1 2 0", "K = 1 says 1 taken stone(s) follow"),
        ("7 1 9 0", "move 1 takes stone 9, which is outside 1..7"),
        ("7 1 0 0", "move 1 takes stone 0, which is outside 1..7"),
        ("7 3 1 2 1 0", "move 3 takes stone 1 again (move 1 already took it)"),
        ("7 3 1 2 5 0", "move 3 takes stone 5, which is neither a multiple nor a factor of the previous move 2"),
        ("--edition chess 7 0 0", "invalid value 'chess'"),
        ("--bogus 7 0 0", "unexpected argument '--bogus'"),
        ("--strict 6 1 3 0", "the first move must take an odd stone strictly less than N/2 = 3"),
    ];
    for (args, message) in cases {
        let out = takestones(args);
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args}: {stderr}");
        assert!(out.stdout.is_empty(), "{args}");
        assert!(stderr.starts_with("takestones: "), "{args}: {stderr}");
        assert!(stderr.contains(message), "{args}: expected {message:?} in {stderr:?}");
        assert_eq!(stderr.lines().count(), 1, "{args}: {stderr:?}");
    }
}

#[test]
fn a_finished_game_exits_4_in_both_editions() {
    // 3 stones, 1 then 2 taken: Max must follow 2 and cannot.
    let stats = takestones("3 2 1 2 0");
    assert_eq!(stats.status.code(), Some(4));
    assert!(stats.stdout.is_empty());
    let stderr = String::from_utf8(stats.stderr).unwrap();
    assert_eq!(
        stderr,
        "takestones: no legal move at the root: Max is to move and cannot take a stone, so Min has already won\n"
    );

    // The 2017 skeleton printed the root's trace entry before it failed; so do we.
    let trace = takestones("--edition trace 3 2 1 2 0");
    assert_eq!(trace.status.code(), Some(4));
    assert_eq!(String::from_utf8(trace.stdout).unwrap(), "2\n3 \nalpha: -1000\tbeta: 1000\n");
    assert_eq!(String::from_utf8(trace.stderr).unwrap().lines().count(), 1);
}

#[test]
fn the_official_bad_first_move_warns_but_solves() {
    Command::cargo_bin("takestones")
        .unwrap()
        .args(["10", "3", "4", "2", "6", "4"])
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("Move: 1\n"))
        .stderr(predicate::str::contains("warning: move 1 takes stone 4"));
}

#[test]
fn help_lists_the_exit_codes() {
    // Rendered from the one table (src/cli/exit.rs; tests/it/exit_codes.rs holds every command to it).
    for bin in ["takestones", "referee"] {
        let help = referee::cli::exit::help(bin);
        assert!(help.contains("4   ") && help.contains("no legal move"), "{help}");
        Command::cargo_bin(bin)
            .unwrap()
            .arg("--help")
            .assert()
            .code(0)
            .stdout(predicate::str::contains(help.trim_end()));
    }
}

/// The ground-truth notes name three positions that tell the open readings apart; each option must move them.
#[test]
fn options_select_the_readings_the_spec_leaves_open() {
    let stats = |args: &str, flags: &str| {
        let out = Command::cargo_bin("takestones")
            .unwrap()
            .args(flags.split_whitespace())
            .args(args.split_whitespace())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(stats("14 4 1 8 4 2 1", "").contains("Value: -0.6\n"));
    assert!(stats("14 4 1 8 4 2 1", "--composite legal-moves").contains("Value: 0.6\n"));
    assert!(stats("12 2 5 10 3", "").contains("Visited: 46\n"));
    assert!(stats("12 2 5 10 3", "--composite legal-moves").contains("Visited: 48\n"));
    assert!(stats("10 4 1 4 8 2 3", "").contains("Branching Factor: 1.3\n"));
    assert!(stats("10 4 1 4 8 2 3", "--rounding half-even").contains("Branching Factor: 1.2\n"));
}

/// Negative zero: a root whose value is a neutral 0 on Min's turn. Found by search, not by hand: the first
/// position in a small grid whose stats value is negative zero.
#[test]
fn negative_zero_prints_normalized_by_default_and_kept_on_request() {
    let found = (3..=12u32)
        .flat_map(|n| (1..=4u32).map(move |d| format!("{n} 0 {d}")))
        .chain((3..=12u32).flat_map(|n| (1..=4u32).map(move |d| format!("{n} 1 1 {d}"))))
        .find(|args| {
            let req = request(args, Edition::Stats);
            solve_to_string(&req).map(|(_, s)| s.value == 0.0 && s.value.is_sign_negative()).unwrap_or(false)
        })
        .expect("some small position has value -0.0");
    let plain = takestones(&found);
    assert!(String::from_utf8(plain.stdout).unwrap().contains("Value: 0.0\n"), "{found}");
    let kept = takestones(&format!("--negative-zero keep {found}"));
    assert!(String::from_utf8(kept.stdout).unwrap().contains("Value: -0.0\n"), "{found}");
}

/// The general board at the scale the issue asks for: N = 10,000 at a depth limit, checked against the
/// spec-literal oracle and against the counters' definitions (a Min root with a full window never cuts at depth
/// 1, so every legal move is a visited leaf).
#[test]
fn ten_thousand_stones_at_depth_one() {
    let out = takestones("10000 1 1 1");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let oracle = Oracle { n: 10_000, trace_edition: false, composite_counts_all_available: true };
    let (value, best) = oracle.solve(&[1], 1);
    assert!(text.starts_with(&format!("Move: {}\nValue: {:.1}\n", best.unwrap(), value)), "{text}");
    assert!(text.contains("Number of Nodes Visited: 10000\nNumber of Nodes Evaluated: 9999\nMax Depth Reached: 1\n"));
}

/// A board far past the 127-stone fast path, searched three plies (754 thousand nodes; `10000 2 1 6 3` visits 8.3
/// million in about 9 s, a measurement for `referee bench takestones --board large`, not a test).
#[test]
fn three_thousand_stones_at_depth_three_finishes() {
    let (text, solution) = solve_to_string(&request("3000 2 1 6 3", Edition::Stats)).unwrap();
    assert_eq!(text.lines().count(), 6);
    assert!(solution.counters.visited > solution.counters.evaluated);
    assert_eq!(solution.counters.max_depth, 3);
}

/// Found in review: under a memory limit the solver's big stack could not be created and the program exited 3
/// silently. It must fall back to a smaller stack and answer.
#[test]
fn answers_under_an_address_space_limit() {
    let bin = assert_cmd::cargo::cargo_bin("takestones");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v 400000 && exec {} 7 0 0", bin.display()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("Move: "));
}

/// Found in review: a bad first move followed by a finished game printed a warning and an error.
#[test]
fn a_warning_never_joins_an_error() {
    let out = takestones("1 1 1 0");
    assert_eq!(out.status.code(), Some(4));
    assert_eq!(String::from_utf8(out.stderr).unwrap().lines().count(), 1);
}

#[test]
fn referee_without_a_command_is_a_usage_error() {
    let out = Command::cargo_bin("referee").unwrap().output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8(out.stderr).unwrap().lines().count(), 1);
}

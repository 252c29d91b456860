//! `referee check takestones` on bugs the catalog does not list, each a small change to the correct Python
//! fixture written for these tests: no variant may be named, and probing must locate the bug to its component
//! with a command that reproduces it, under a diagnosis that says it was located (not that nothing is known). That
//! a correct program gets no cause is asserted in `check::correct_python_programs_pass_random_positions`.

use std::process::Output;

use assert_cmd::Command;

use crate::grade::{fixture, python};
use crate::variants::{materialize, Change};

fn check(changes: &[Change], source: &str, edition: &str) -> (Output, String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    materialize(&fixture(source), changes, dir.path());
    let cmd = format!("{} {{dir}}/takestones.py {{args}}", python());
    let out = Command::cargo_bin("referee")
        .unwrap()
        .args(["check", "takestones", "--cmd", &cmd, "--edition", edition, "--seed", "2026", "--cases", "60", "--dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out, text, dir)
}

/// Asserts one located cause `name` whose sentence and evidence contain `says`, and a reproducing command that
/// does reproduce a difference from the reference.
fn assert_located(changes: &[Change], source: &str, edition: &str, name: &str, says: &[&str]) {
    let (out, text, dir) = check(changes, source, edition);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("diagnosis: located by probing the program part by part:"), "{text}");
    assert!(!text.contains("no known bug"), "a located cause under \"no known bug\":\n{text}");
    let causes: Vec<&str> = text.lines().filter(|l| l.starts_with("cause: ")).collect();
    assert_eq!(causes.len(), 1, "{text}");
    assert!(causes[0].starts_with(&format!("cause: {name} (located): ")), "{text}");
    for s in says {
        assert!(text.contains(s), "missing {s:?}:\n{text}");
    }
    // The command reproduces: run it and compare with the reference on the same arguments.
    let command = text.lines().find_map(|l| l.trim().strip_prefix("reproduce: ")).unwrap();
    let words = shlex::split(command).unwrap();
    assert!(words[1].starts_with(dir.path().to_str().unwrap()), "{command}");
    let theirs = std::process::Command::new(&words[0]).args(&words[1..]).output().unwrap();
    let ours =
        Command::cargo_bin("takestones").unwrap().args(["--edition", edition]).args(&words[2..]).output().unwrap();
    assert_ne!(theirs.stdout, ours.stdout, "{command} shows no difference");
}

#[test]
fn a_largest_prime_factor_that_stops_at_the_square_root_is_located_in_the_evaluation() {
    let drop_remainder: &[Change] =
        &[("takestones.py", "    if x > 1:\n        largest = x\n    return largest", "    return largest")];
    let says = ["Your evaluation differs only for states whose last move is composite", "the largest prime factor of"];
    assert_located(drop_remainder, "submissions/python-stats", "stats", "evaluation", &says);
    assert_located(drop_remainder, "submissions/python-trace", "trace", "evaluation", &says[..1]);
}

#[test]
fn a_composite_count_that_counts_the_last_move_is_located_in_the_evaluation() {
    let changes: &[Change] = &[(
        "takestones.py",
        "if self.available[i])\n            value = 0.6",
        "if self.available[i] or i == last)\n            value = 0.6",
    )];
    let says = ["Your evaluation differs only for states whose last move is composite", "you score"];
    assert_located(changes, "submissions/python-stats", "stats", "evaluation", &says);
}

#[test]
fn max_depth_wrong_only_at_end_of_game_nodes_is_located_not_misnamed() {
    let changes: &[Change] = &[(
        "takestones.py",
        "            self.evaluated += 1\n",
        "            self.evaluated += 1\n            if not moves:\n                self.max_depth = max(self.max_depth, depth + 1)\n",
    )];
    let says = ["Your max depth reached differs, while the move and the value agree"];
    assert_located(changes, "submissions/python-stats", "stats", "max-depth", &says);
}

/// The shrunk case as the check prints it: `(arguments, depth)`.
fn shrunk(text: &str) -> (String, u32) {
    let line = text.lines().find_map(|l| l.strip_prefix("smallest position that still diverges: ")).unwrap();
    let (args, depth) = line.rsplit_once(' ').unwrap();
    (args.to_string(), depth.parse().unwrap())
}

/// Both loops of the fixtures (stats and trace alike) visit the moves from the last.
const REVERSED: &[Change] = &[
    (
        "takestones.py",
        "            for move in moves:\n                child = self.search(state.take(move), depth + 1, alpha, beta, False)",
        "            for move in reversed(moves):\n                child = self.search(state.take(move), depth + 1, alpha, beta, False)",
    ),
    (
        "takestones.py",
        "            for move in moves:\n                child = self.search(state.take(move), depth + 1, alpha, beta, True)",
        "            for move in reversed(moves):\n                child = self.search(state.take(move), depth + 1, alpha, beta, True)",
    ),
];

#[test]
fn children_searched_from_the_largest_stone_are_located_in_the_order_not_the_counters() {
    let says = ["Your search visits a node's children from the largest stone down"];
    assert_located(REVERSED, "submissions/python-stats", "stats", "child-order", &says);
    assert_located(REVERSED, "submissions/python-trace", "trace", "child-order", &says);
}

#[test]
fn a_strict_cut_on_the_max_side_only_is_located_in_the_cut_condition() {
    let changes: &[Change] = &[("takestones.py", "                if v >= beta:", "                if v > beta:")];
    let says = ["Your Max nodes cut only when the value exceeds beta"];
    assert_located(changes, "submissions/python-stats", "stats", "cut-condition", &says);
    assert_located(changes, "submissions/python-trace", "trace", "cut-condition", &says);
}

#[test]
fn a_first_move_rule_with_integer_division_is_located_in_the_first_move_not_the_counters() {
    let changes: &[Change] = &[("takestones.py", "if 2 * i < self.size", "if i < self.size // 2")];
    let says = ["Your first move allows the odd stones below n / 2 in integer division"];
    assert_located(changes, "submissions/python-stats", "stats", "first-move", &says);
}

/// A located sentence never claims a scope the shrunk case contradicts: a counter difference said to show "only on
/// positions searched to the end" is never printed under a shrunk case with a depth limit.
#[test]
fn no_located_scope_is_contradicted_by_the_shrunk_case() {
    let table: &[(&str, &[Change])] = &[
        ("max-strict", &[("takestones.py", "                if v >= beta:", "                if v > beta:")]),
        ("min-strict", &[("takestones.py", "                if v <= alpha:", "                if v < alpha:")]),
        ("first-move", &[("takestones.py", "if 2 * i < self.size", "if i < self.size // 2")]),
    ];
    for (name, changes) in table {
        let (_, text, _dir) = check(changes, "submissions/python-stats", "stats");
        let (_, depth) = shrunk(&text);
        if depth != 0 {
            assert!(!text.contains("only on positions searched to the end"), "{name}:\n{text}");
        }
        assert!(
            !text.lines().any(|l| l.starts_with("cause: visited-count")),
            "{name}: blamed on the counters:\n{text}"
        );
    }
}

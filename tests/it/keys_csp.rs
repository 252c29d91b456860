//! `referee csp`: the W4701 Part 1 answers from the spec, search against brute force, snapshots of both formats,
//! and malformed input pointing at its line and column with exit 2.

use assert_cmd::Command;
use predicates::prelude::*;
use proptest::prelude::*;
use referee::app::keys::csp::run;
use referee::cli::CspArgs;
use referee::keys::csp::forward::State;
use referee::keys::csp::heuristics::{most_constrained, most_constraining, value_order};
use referee::keys::csp::parse::parse;
use referee::keys::csp::problem::Problem;
use referee::keys::csp::report::{analyse, set};
use referee::keys::csp::search::{solve, Step};
use referee::keys::table::Format;

const PART1: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/testcases/written/w4701-part1-csp.txt");

fn part1() -> Problem {
    parse(&std::fs::read_to_string(PART1).unwrap()).unwrap()
}

fn names(p: &Problem, vars: &[usize]) -> Vec<String> {
    vars.iter().map(|&v| p.variables[v].name.clone()).collect()
}

/// Spec, Part 1 answer 2: "A: {2} B: {1, 2} C: {1} D: {1, 2} E: {0, 1, 2} F: {1, 2}" (G = 0 is assigned).
#[test]
fn part1_domains_after_forward_checking() {
    let p = part1();
    let a = analyse(&p, 1000);
    let shown: Vec<String> = a
        .state
        .unassigned()
        .into_iter()
        .map(|v| format!("{}: {}", p.variables[v].name, set(&a.state.domains[v])))
        .collect();
    assert_eq!(shown.join(" "), "A: {2} B: {1, 2} C: {1} D: {1, 2} E: {0, 1, 2} F: {1, 2}");
    assert!(a.conflict.is_none());
}

/// Spec, Part 1 answer 3: "C=1": C is the most constraining variable (E > C and C >= F reach unassigned
/// variables) and 1 its least-constraining (here: only) value; no domain is empty, so no backtrack is needed.
#[test]
fn part1_heuristics() {
    let p = part1();
    let a = analyse(&p, 1000);
    assert_eq!(names(&p, &most_constrained(&a.state)), ["A", "C"]);
    let mcv = most_constraining(&p, &a.state);
    assert_eq!(names(&p, &mcv), ["C"]);
    let values: Vec<i64> = value_order(&p, &a.state, mcv[0]).iter().map(|e| e.value).collect();
    assert_eq!(values, [1]);
    assert_eq!(a.search.failed_tries(), 0);
    let solution = a.search.solution.clone().unwrap();
    assert!(p.constraints.iter().all(|c| c.satisfied_by(&solution)));
    // The answer's reasoning from scratch: C = 2 empties E (E > C), C = 0 leaves F only 0; 1 is least constraining.
    let (free, _) = State::initial(&p);
    let c = p.index("C").unwrap();
    let order: Vec<(i64, bool)> = value_order(&p, &free, c).iter().map(|e| (e.value, e.emptied.is_empty())).collect();
    assert_eq!(order, [(1, true), (0, true), (2, false)]);
}

/// The state of answer 2 is where the search itself goes first: G (most constraining) = 0 (the other values
/// empty A's domain).
#[test]
fn part1_search_starts_with_g_equals_0() {
    let mut p = part1();
    p.set_assignment("").unwrap();
    let (start, _) = State::initial(&p);
    let s = solve(&p, &start, 1000);
    assert!(
        matches!(&s.steps[0], Step::Try { var, value: 0, emptied, .. } if p.variables[*var].name == "G" && emptied.is_empty())
    );
}

fn key(file: &str, assign: Option<&str>, solve: bool, format: Format) -> (u8, String, String) {
    let args = CspArgs { file: file.into(), assign: assign.map(Into::into), solve, max_steps: 10_000, format };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = run(&args, &mut out, &mut err);
    (code, String::from_utf8(out).unwrap(), String::from_utf8(err).unwrap())
}

fn snapshot(name: &str, text: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../../snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!(name, text));
}

#[test]
fn part1_key_snapshots() {
    let (code, text, _) = key(PART1, None, true, Format::Text);
    assert_eq!(code, 0);
    assert!(text.contains("Most constraining (most constraints on other unassigned variables): C (2 constraints)"));
    assert!(text.contains("Least-constraining value for C: 1"));
    snapshot("keys_csp_w4701_part1_text", &text);
    let (code, md, _) = key(PART1, None, true, Format::Md);
    assert_eq!(code, 0);
    assert!(md.contains("| C | {1} | 1 | 2 | 0, 2 (\\|C - G\\| == 1) |"));
    snapshot("keys_csp_w4701_part1_md", &md);
}

#[test]
fn four_queens_search_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("queens.txt");
    let mut text = String::from("Q1 Q2 Q3 Q4 in 1..4\n");
    for i in 1..=4 {
        for j in i + 1..=4 {
            text.push_str(&format!("Q{i} != Q{j}\n|Q{i} - Q{j}| != {}\n", j - i));
        }
    }
    std::fs::write(&file, text).unwrap();
    let (code, out, _) = key(file.to_str().unwrap(), None, true, Format::Text);
    assert_eq!(code, 0);
    assert!(out.contains("Solution after") && out.contains("Q1 = 2, Q2 = 4, Q3 = 1, Q4 = 3"));
    snapshot("keys_csp_four_queens_text", &out);
}

#[test]
fn inconsistent_assignment_is_reported() {
    let (code, out, _) = key(PART1, Some("G=1,A=0"), false, Format::Text);
    assert_eq!(code, 0);
    assert!(out.contains("Conflict: A = 0 was already ruled out by A >= G + 2"), "{out}");
    assert!(out.contains("Backtracking: needed"));
}

fn referee_csp(input: &str, extra: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("referee").unwrap().arg("csp").arg("-").args(extra).write_stdin(input).assert()
}

#[test]
fn malformed_input_points_at_line_and_column() {
    referee_csp("A B in {0, 1}\nA >= \n", &[]).code(2).stderr(predicate::str::starts_with(
        "referee csp: <stdin>: line 2, column 5: expected a number, a variable, '(' or '|', found the end of the line",
    ));
    referee_csp("A B in {0, 1}\n\n|A - Q| != 1\n", &[])
        .code(2)
        .stderr(predicate::str::contains("line 3, column 6: undeclared variable Q"));
    referee_csp("A B in {0, 1}\nassign A = 7\n", &[])
        .code(2)
        .stderr(predicate::str::contains("line 2, column 12: 7 is not in the domain of A"));
    referee_csp("A B in {0, 1}\nA != B\n", &["--assign", "C=1"])
        .code(2)
        .stderr(predicate::str::contains("--assign: 'C=1': there is no variable C"));
    Command::cargo_bin("referee")
        .unwrap()
        .args(["csp", "/nonexistent/csp.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/nonexistent/csp.txt"));
    referee_csp("A B in {0, 1}\nA != B\n", &["--format", "md"])
        .code(0)
        .stdout(predicate::str::contains("| A | {0, 1} |"));
}

/// Small random CSPs as text: up to four variables over -2..=2, binary and unary constraints of several shapes,
/// and sometimes a partial assignment.
fn csp_text() -> impl Strategy<Value = String> {
    let domain = proptest::collection::btree_set(-2i64..=2, 1..=4);
    let shape = (0usize..6, 0usize..4, 0usize..4, -2i64..=2);
    (2usize..=4, proptest::collection::vec(domain, 4), proptest::collection::vec(shape, 0..7), 0usize..3).prop_map(
        |(n, domains, shapes, assigned)| {
            let var = |i: usize| format!("V{}", i % n);
            let mut text = String::new();
            for (i, d) in domains.iter().take(n).enumerate() {
                let vals: Vec<String> = d.iter().map(ToString::to_string).collect();
                text.push_str(&format!("V{i} in {{{}}}\n", vals.join(", ")));
            }
            for (kind, a, b, k) in shapes {
                let (x, y) = (var(a), var(b));
                text.push_str(&match kind {
                    0 => format!("{x} != {y}\n"),
                    1 => format!("{x} < {y} + {k}\n"),
                    2 => format!("|{x} - {y}| != {}\n", k.abs()),
                    3 => format!("{x} + {y} >= {k}\n"),
                    4 => format!("2 * {x} != {y} - ({k})\n"),
                    _ => format!("{x} = {k} * {k}\n"),
                });
            }
            for (i, d) in domains.iter().enumerate().take(assigned.min(n)) {
                if let Some(v) = d.iter().next() {
                    text.push_str(&format!("assign V{i} = {v}\n"));
                }
            }
            text
        },
    )
}

fn brute_force(p: &Problem) -> bool {
    let mut values = vec![0; p.variables.len()];
    fn go(p: &Problem, i: usize, values: &mut Vec<i64>) -> bool {
        if i == values.len() {
            return p.constraints.iter().all(|c| c.satisfied_by(values));
        }
        let fixed = p.assignment.iter().find(|(v, _)| *v == i).map(|&(_, x)| vec![x]);
        for x in fixed.unwrap_or_else(|| p.variables[i].domain.clone()) {
            values[i] = x;
            if go(p, i + 1, values) {
                return true;
            }
        }
        false
    }
    go(p, 0, &mut values)
}

proptest! {
    /// Backtracking with forward checking finds a solution exactly when one exists among all assignments that
    /// extend the partial one, and what it finds satisfies every constraint and keeps the partial assignment.
    #[test]
    fn search_agrees_with_brute_force(text in csp_text()) {
        let p = parse(&text).unwrap();
        let a = analyse(&p, 100_000);
        prop_assert!(!a.search.truncated);
        prop_assert_eq!(a.search.solution.is_some(), brute_force(&p), "{}", text);
        if let Some(s) = &a.search.solution {
            prop_assert!(p.constraints.iter().all(|c| c.satisfied_by(s)));
            prop_assert!(p.assignment.iter().all(|&(v, x)| s[v] == x));
            prop_assert!(s.iter().enumerate().all(|(v, x)| p.variables[v].domain.contains(x)));
        }
    }
}

//! `referee check othello --agent FILE`: the fixture modules in `tests/fixtures/othello/modules/` imported by the
//! real `/usr/bin/python3` through the project's helper, their answers compared with the reference.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use referee::game::othello::{Grid, Move, Othello, Rules};
use referee::game::{Game, Player};
use referee::referee::othello::conformance::function::{Form, Function};
use referee::referee::othello::conformance::reference;
use referee::referee::othello::conformance::report::{FailureKind, Report};
use referee::referee::othello::conformance::{run, Options};

const PYTHON: &str = "/usr/bin/python3";

fn module(name: &str) -> PathBuf {
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/othello/modules");
    // Two modules are `limit_ai.py` with one mistake, made here rather than kept as copies. The minimax node
    // functions come first in the file, so the first two occurrences of each pattern are theirs.
    let (pattern, mistake) = match name {
        "wrong_ties_ai.py" => (["        if value < best_value:", "        if value > best_value:"], ["<", ">"]),
        "slow_ai.py" => (["    if not moves or limit == 0:", "    if not moves or limit == 0:"], ["", ""]),
        _ => return fixtures.join(name),
    };
    let mut source = std::fs::read_to_string(fixtures.join("limit_ai.py")).unwrap();
    for (p, m) in pattern.iter().zip(mistake) {
        let changed = if m.is_empty() { "    if not moves:".to_string() } else { p.replace(m, &format!("{m}=")) };
        let at = source.find(p).unwrap();
        source.replace_range(at..at + p.len(), &changed);
    }
    // Under target/tmp, not /tmp: written again on every run, never worth leaving in the machine's temp folder.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("check-modules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), source).unwrap();
    dir.join(name)
}

fn options(seed: u64, cases: usize) -> Options {
    Options { python: PYTHON.into(), seed, cases, ..Options::default() }
}

fn check(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("referee").unwrap().args(["check", "othello", "--python", PYTHON]).args(args).output();
    let out = out.unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

/// The summary line of `function` in the text report: (agreed, total).
fn counts(stdout: &str, function: Function) -> (usize, usize) {
    let line = stdout.lines().find(|l| l.starts_with(&format!("{}(", function.name()))).unwrap();
    let tally = line.split("]: ").nth(1).or_else(|| line.split("): ").nth(1)).unwrap();
    let fraction = tally.split_whitespace().next().unwrap();
    let (a, b) = fraction.split_once('/').unwrap();
    (a.parse().unwrap(), b.parse().unwrap())
}

fn move_text(m: Move) -> String {
    format!("({}, {})", m.col, m.row)
}

fn assert_all_agree(report: &Report, form: Form) {
    assert!(report.passed(), "{report:#?}");
    assert_eq!(report.functions.len(), Function::ALL.len());
    for f in &report.functions {
        let expected_form = if f.function.searches() { form } else { Form::WithoutLimit };
        assert_eq!(f.form, expected_form, "{:?}", f.function);
        assert!(f.total > 0, "{:?} was never called", f.function);
        assert_eq!((f.agreed, f.failures.len()), (f.total, 0), "{:?}", f.function);
    }
}

#[test]
fn correct_modules_of_both_signatures_agree_on_every_call() {
    let with = run(&module("limit_ai.py"), &options(7, 15)).unwrap();
    assert_all_agree(&with, Form::WithLimit);
    assert_eq!((with.module.as_str(), with.fixed_cases, with.random_cases), ("limit_ai", 25, 15));
    let without = run(&module("nolimit_ai.py"), &options(7, 15)).unwrap();
    assert_all_agree(&without, Form::WithoutLimit);
    // The form without `limit` searches to the end, so only small boards are asked.
    let select = |r: &Report| r.functions.iter().find(|f| f.function == Function::SelectMoveMinimax).unwrap().total;
    assert!(select(&without) < select(&with));

    let (code, stdout, stderr) = check(&["--agent", module("limit_ai.py").to_str().unwrap(), "--seed", "8"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("seed 8 (replay with --seed 8)"), "{stdout}");
    for function in Function::ALL {
        let (agreed, total) = counts(&stdout, function);
        assert!(total > 0 && agreed == total, "{stdout}");
    }
    assert!(stdout.contains("select_move_minimax(board, color, limit, caching=0) [with limit]"), "{stdout}");
}

#[test]
fn last_best_ties_in_minimax_are_reported_with_the_call_and_the_board() {
    let json = tempfile::NamedTempFile::new().unwrap();
    let agent = module("wrong_ties_ai.py");
    let (code, stdout, stderr) = check(&[
        "--agent",
        agent.to_str().unwrap(),
        "--seed",
        "3",
        "--cases",
        "10",
        "--json",
        json.path().to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    for function in [Function::SelectMoveMinimax, Function::MinimaxMaxNode, Function::MinimaxMinNode] {
        let (agreed, total) = counts(&stdout, function);
        assert!(agreed < total, "{function:?} should disagree:\n{stdout}");
    }
    for function in [Function::ComputeUtility, Function::SelectMoveAlphabeta, Function::AlphabetaMaxNode] {
        let (agreed, total) = counts(&stdout, function);
        assert_eq!(agreed, total, "{function:?} is right in this module:\n{stdout}");
    }
    // The first fixed case is the 4x4 start, dark, limit 1: the reference keeps the first best move, the module
    // the last one (every first move is worth the same there).
    let start = Grid::start(4).unwrap();
    let first = reference::node(&start, Player::Max, false, Some(1)).unwrap().best.unwrap();
    let game = Othello::<Grid>::new(4, Rules::Framework).unwrap();
    let last = game.legal_moves(&game.start()).last().unwrap();
    let line =
        format!("  select_move_minimax(board, 1, 1) [fixed 1]: expected {}, got {}", move_text(first), move_text(last));
    assert!(stdout.contains(&line), "{line}\n{stdout}");
    let drawn: String = start.to_string().lines().map(|l| format!("    {l}\n")).collect();
    assert!(stdout.contains(&drawn), "{stdout}");
    assert!(stdout.contains("result: select_move_minimax, minimax_max_node, minimax_min_node disagree"), "{stdout}");

    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(json.path()).unwrap()).unwrap();
    let functions = report["functions"].as_array().unwrap();
    let minimax = functions.iter().find(|f| f["function"] == "select_move_minimax").unwrap();
    let failures = minimax["failures"].as_array().unwrap();
    assert_eq!(failures.len(), minimax["mismatches"].as_u64().unwrap() as usize);
    assert_eq!(failures[0]["kind"], "mismatch");
    assert_eq!(failures[0]["board"], "((0, 0, 0, 0), (0, 2, 1, 0), (0, 1, 2, 0), (0, 0, 0, 0))");
    assert_eq!(report["seed"], 3);
}

#[test]
fn debug_prints_and_an_unguarded_run_ai_are_survived_and_reported() {
    let (code, stdout, stderr) = check(&["--agent", module("noisy_ai.py").to_str().unwrap(), "--cases", "5"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("import: EOFError"), "{stdout}");
    assert!(stdout.contains("if __name__ == \"__main__\":"), "{stdout}");
    assert!(!stdout.contains("loading the noisy agent") && !stdout.contains("max node:"), "{stdout}");
    for function in [Function::ComputeUtility, Function::SelectMoveMinimax, Function::MinimaxMinNode] {
        let (agreed, total) = counts(&stdout, function);
        assert!(total > 0 && agreed == total, "{stdout}");
    }
    assert!(stdout.contains("alphabeta_max_node(board, color, alpha, beta, level, limit): not checked"), "{stdout}");
}

#[test]
fn a_minimax_that_never_ends_times_out_call_by_call_and_the_run_completes() {
    let began = Instant::now();
    let (code, stdout, stderr) =
        check(&["--agent", module("slow_ai.py").to_str().unwrap(), "--timeout", "0.5s", "--cases", "5"]);
    let took = began.elapsed();
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(took < Duration::from_secs(40), "{took:?}");
    let line = stdout.lines().find(|l| l.starts_with("select_move_minimax(")).unwrap();
    assert!(line.contains("3 timeouts") && line.contains("not run after repeated timeouts"), "{line}");
    assert!(stdout.contains("no answer within 0.5s"), "{stdout}");
    // A fresh helper answers the calls after each kill.
    for function in [Function::SelectMoveAlphabeta, Function::AlphabetaMinNode] {
        let (agreed, total) = counts(&stdout, function);
        assert!(total > 0 && agreed == total, "{stdout}");
    }
}

#[test]
fn missing_and_raising_functions_are_named_not_crashed_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("partial_ai.py");
    std::fs::write(
        &path,
        "def compute_utility(board, color):\n    return 0\n\ndef select_move_minimax(board, color, limit):\n    \
         return {}[color]\n",
    )
    .unwrap();
    let report = run(&path, &options(1, 3)).unwrap();
    assert!(!report.passed());
    let get = |function| report.functions.iter().find(|f| f.function == function).unwrap();
    assert_eq!(get(Function::MinimaxMaxNode).form, Form::Missing);
    let select = get(Function::SelectMoveMinimax);
    assert_eq!((select.errors, select.agreed), (select.total, 0));
    assert_eq!(select.failures[0].kind, FailureKind::Error);
    assert!(select.failures[0].got.starts_with("KeyError: 1 (partial_ai.py line 5"), "{}", select.failures[0].got);
    // A module that ends Python while being imported: nothing can be called, and that is the student's fault.
    let gone = dir.path().join("gone_ai.py");
    std::fs::write(&gone, "import os\nprint('bye')\nos._exit(4)\n").unwrap();
    let report = run(&gone, &options(1, 3)).unwrap();
    assert!(report.import_fatal && report.functions.is_empty() && !report.passed());
    let problem = report.import_problem.clone().unwrap();
    assert!(problem.contains("exit code 4") && problem.contains("bye"), "{problem}");
    let report = run(&path, &options(1, 3)).unwrap();
    let get = |function| report.functions.iter().find(|f| f.function == function).unwrap();
    // compute_utility returning 0 agrees exactly where the disc difference is 0.
    let utility = get(Function::ComputeUtility);
    assert!(utility.mismatches > 0 && utility.mismatches + utility.agreed == utility.total);
}

#[test]
fn usage_and_setup_errors_have_their_exit_codes() {
    let (code, _, stderr) = check(&["--agent", "/nonexistent/agent_ai.py"]);
    assert_eq!((code, stderr.lines().count()), (2, 1), "{stderr}");
    assert!(stderr.contains("--agent /nonexistent/agent_ai.py: no such file"), "{stderr}");
    let (code, _, stderr) = check(&[]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--agent FILE is required"), "{stderr}");
    let agent = module("limit_ai.py");
    let out = Command::cargo_bin("referee")
        .unwrap()
        .args(["check", "othello", "--agent", agent.to_str().unwrap(), "--python", "/nonexistent/python3"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("Python 3 was not found at /nonexistent/python3"), "{stderr}");
    let (code, _, stderr) = check(&["--agent", agent.to_str().unwrap(), "--timeout", "soon"]);
    assert_eq!(code, 2, "{stderr}");
    let out = Command::cargo_bin("referee").unwrap().args(["check", "takestones"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--cmd is required"));
}

/// `limit_ai.py` with `(from, to)` replacements (each `from` must occur; every occurrence is replaced) and `tail`
/// appended (a later definition overrides an earlier one), written as `name` under target/tmp.
pub fn variant(name: &str, swaps: &[(&str, &str)], tail: &str) -> PathBuf {
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/othello/modules");
    let mut source = std::fs::read_to_string(fixtures.join("limit_ai.py")).unwrap();
    for (from, to) in swaps {
        assert!(source.contains(from), "{name}: `{from}` is not in limit_ai.py");
        source = source.replace(from, to);
    }
    source.push_str(tail);
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("variants-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), source).unwrap();
    dir.join(name)
}

/// Moves sorted (stably) by the utility of the board they lead to, best first for the side to move, when
/// `ordering` is on: equal moves may then be met in another order than get_possible_moves gives them.
const ORDERED: [(&str, &str); 2] = [
    (
        "def alphabeta_min_node(board, color, alpha, beta, limit, caching=0, ordering=0):\n    moves = \
         get_possible_moves(board, 3 - color)\n",
        "def alphabeta_min_node(board, color, alpha, beta, limit, caching=0, ordering=0):\n    moves = \
         get_possible_moves(board, 3 - color)\n    if ordering:\n        moves = sorted(moves, key=lambda m: \
         compute_utility(play_move(board, 3 - color, m[0], m[1]), color))\n",
    ),
    (
        "def alphabeta_max_node(board, color, alpha, beta, limit, caching=0, ordering=0):\n    moves = \
         get_possible_moves(board, color)\n",
        "def alphabeta_max_node(board, color, alpha, beta, limit, caching=0, ordering=0):\n    moves = \
         get_possible_moves(board, color)\n    if ordering:\n        moves = sorted(moves, key=lambda m: \
         -compute_utility(play_move(board, color, m[0], m[1]), color))\n",
    ),
];

/// Pruning tested on the bounds after they are updated (`alpha >= beta`), as many textbooks write it.
const BOUNDS_MEET: [(&str, &str); 2] = [
    (
        "        if best_value <= alpha:\n            break\n        beta = min(beta, best_value)\n",
        "        beta = min(beta, best_value)\n        if alpha >= beta:\n            break\n",
    ),
    (
        "        if best_value >= beta:\n            break\n        alpha = max(alpha, best_value)\n",
        "        alpha = max(alpha, best_value)\n        if alpha >= beta:\n            break\n",
    ),
];

/// Strict pruning (`>` and `<`): prunes a little less, answers the same.
const STRICT: [(&str, &str); 2] =
    [("if best_value <= alpha:", "if best_value < alpha:"), ("if best_value >= beta:", "if best_value > beta:")];

/// Fail-hard bounds: a cut returns the bound, and the value is clamped into the window.
pub const FAIL_HARD: [(&str, &str); 4] = [
    (
        "        if best_value <= alpha:\n            break",
        "        if best_value <= alpha:\n            return best_move, alpha",
    ),
    (
        "        if best_value >= beta:\n            break",
        "        if best_value >= beta:\n            return best_move, beta",
    ),
    (
        "        beta = min(beta, best_value)\n    return best_move, best_value",
        "        beta = min(beta, best_value)\n    return best_move, min(best_value, beta)",
    ),
    (
        "        alpha = max(alpha, best_value)\n    return best_move, best_value",
        "        alpha = max(alpha, best_value)\n    return best_move, max(best_value, alpha)",
    ),
];

/// Caches that are right: minimax keyed by (board, color, limit), alpha-beta also by the window, both kept between
/// calls, used only when `caching` is on.
const CACHED: &str = r#"

CACHE = {}


def _cached(name, windowed):
    inner = globals()[name]

    def node(board, color, *args, **switches):
        key = (name, board, color) + tuple(args[:3] if windowed else args[:1])
        if switches.get("caching") and key in CACHE:
            return CACHE[key]
        result = inner(board, color, *args, **switches)
        if switches.get("caching"):
            CACHE[key] = result
        return result

    node.__wrapped__ = inner
    globals()[name] = node


_cached("minimax_max_node", False)
_cached("minimax_min_node", False)
_cached("alphabeta_max_node", True)
_cached("alphabeta_min_node", True)
"#;

/// Recursive calls pass the switches on by name, so the wrappers above see them at every level.
const SWITCHES_BY_NAME: [(&str, &str); 3] = [
    ("limit - 1, caching)", "limit - 1, caching=caching)"),
    ("limit - 1, caching, ordering)", "limit - 1, caching=caching, ordering=ordering)"),
    ("(board, color, limit, caching)[0]", "(board, color, limit, caching=caching)[0]"),
];

/// An alpha-beta cache that keeps only exact values (inside the window), keyed by (board, color, limit), and
/// answers any later window from them.
const EXACT_CACHE: &str = r#"

EXACT = {}


def _exact(name):
    inner = globals()[name]

    def node(board, color, alpha, beta, limit, caching=0, ordering=0):
        key = (name, board, color, limit)
        if caching and key in EXACT:
            return EXACT[key]
        move, value = inner(board, color, alpha, beta, limit, caching=caching, ordering=ordering)
        if caching and alpha < value < beta:
            EXACT[key] = (move, value)
        return move, value

    globals()[name] = node


_exact("alphabeta_max_node")
_exact("alphabeta_min_node")
"#;

/// Select functions that loop over the root's moves themselves.
const LOOPING_SELECTS: &str = r#"

def select_move_minimax(board, color, limit, caching=0):
    best, best_value = None, float("-inf")
    for i, j in get_possible_moves(board, color):
        _, value = minimax_min_node(play_move(board, color, i, j), color, limit - 1, caching)
        if value > best_value:
            best, best_value = (i, j), value
    return best


def select_move_alphabeta(board, color, limit, caching=0, ordering=0):
    best, alpha = None, float("-inf")
    for i, j in get_possible_moves(board, color):
        _, value = alphabeta_min_node(play_move(board, color, i, j), color, alpha, float("inf"), limit - 1, caching, ordering)
        if best is None or value > alpha:
            best, alpha = (i, j), max(alpha, value)
    return best
"#;

/// Every correct way of writing the template the issue lists passes: fail-soft and fail-hard, `>=` and `>`
/// pruning and pruning on `alpha >= beta`, a stable move ordering, caching on or off, selects that loop
/// themselves. Each would be failed by a check that holds a switched-on call to the template's first move.
#[test]
fn no_correct_variant_fails() {
    let by_name: Vec<(&str, &str)> = SWITCHES_BY_NAME.to_vec();
    let variants: Vec<(&str, PathBuf)> = vec![
        ("ordered", variant("ordered_ai.py", &ORDERED, "")),
        ("ordered-bounds-meet", variant("ordered_meet_ai.py", &[&ORDERED[..], &BOUNDS_MEET[..]].concat(), "")),
        ("strict-ordered", variant("ordered_strict_ai.py", &[&ORDERED[..], &STRICT[..]].concat(), "")),
        ("fail-hard-ordered", variant("ordered_hard_ai.py", &[&ORDERED[..], &FAIL_HARD[..]].concat(), "")),
        ("cached", variant("cached_ai.py", &by_name, CACHED)),
        ("cached-ordered", variant("cached_ordered_ai.py", &[&ORDERED[..], &by_name[..]].concat(), CACHED)),
        ("exact-cache", variant("exact_ai.py", &by_name, EXACT_CACHE)),
        ("looping-selects", variant("looping_ai.py", &ORDERED, LOOPING_SELECTS)),
    ];
    for (name, path) in &variants {
        let report = run(path, &options(11, 20)).unwrap();
        for f in &report.functions {
            assert!(!f.failed(), "{name}: {:?} failed: {:#?}\n{:#?}", f.function, f.failures, f.causes);
            assert!(
                f.causes.iter().all(|c| c.kind == referee::harness::cause::CauseKind::AcceptedReading),
                "{name}: {:?}: {:#?}",
                f.function,
                f.causes
            );
        }
    }
}

/// Each switch is asked alone, so a switched-on failure names the one switch: a module whose ordering breaks the
/// value (it searches only the best-looking move) fails only calls made with `ordering=1`, and the check names it.
#[test]
fn a_switch_that_breaks_the_answer_is_named_alone() {
    let broken = [(
        ORDERED[1].0,
        "def alphabeta_max_node(board, color, alpha, beta, limit, caching=0, ordering=0):\n    moves = \
         get_possible_moves(board, color)\n    if ordering:\n        moves = sorted(moves, key=lambda m: \
         -compute_utility(play_move(board, color, m[0], m[1]), color))[:1]\n",
    )];
    let report = run(&variant("greedy_ai.py", &broken, ""), &options(11, 10)).unwrap();
    let max = report.functions.iter().find(|f| f.function == Function::AlphabetaMaxNode).unwrap();
    assert!(max.failed() && !max.failures.is_empty(), "{max:#?}");
    assert!(max.failures.iter().all(|x| x.call.contains("ordering=1") && !x.call.contains("caching=1")), "{max:#?}");
    let named: Vec<&str> = max.causes.iter().map(|c| c.name.as_str()).collect();
    assert!(named.contains(&"only-with-ordering") && !named.contains(&"only-with-caching"), "{named:?}");
}

/// The self-check guide's isolation example, through the real command: the one function wrong on its own is named
/// with the part inside it, and the two that call it are told to fix it first, in the report's order.
#[test]
fn isolation_names_the_faulty_function_and_tells_its_callers_to_wait() {
    let path = module("beta_in_max_ai.py");
    let (code, out, err) = check(&["--agent", path.to_str().unwrap(), "--seed", "1", "--cases", "20"]);
    assert_eq!(code, 1, "{out}\n{err}");
    let wanted = [
        "  cause: right-once-others-are (located): Your select_move_alphabeta is right once alphabeta_max_node is:",
        "  cause: wrong-on-its-own (located): Your alphabeta_max_node is wrong on its own:",
        "  cause: window (located): Your alphabeta_max_node lowers beta after a move;",
        "  cause: right-once-others-are (located): Your alphabeta_min_node is right once alphabeta_max_node is:",
    ];
    let causes: Vec<&str> = out.lines().filter(|l| l.starts_with("  cause: ")).collect();
    assert_eq!(causes.len(), wanted.len(), "{out}");
    for (line, want) in causes.iter().zip(wanted) {
        assert!(line.starts_with(want), "{line}\nwanted {want}");
    }
    assert!(out.contains("\n    alphabeta_max_node(board, 2, float(\"-inf\"), float(\"inf\"), 2)\n"), "{out}");
    for f in ["compute_utility(board, color): ", "select_move_minimax(", "minimax_max_node(", "minimax_min_node("] {
        let line = out.lines().find(|l| l.starts_with(f)).unwrap();
        let (agreed, total) = line.rsplit_once(": ").unwrap().1.trim_end_matches(" agree").split_once('/').unwrap();
        assert_eq!(agreed, total, "{line}");
    }
}

/// The issue's speed target (under 2 s on a correct module; isolation runs only after a disagreement), measured
/// rather than timed in a test: `cargo test --test it othello_check::check_time_on_a_correct_module -- --ignored
/// --nocapture` runs the default check of `limit_ai.py` 7 times and prints the fastest and the median wall time.
#[test]
#[ignore = "a measurement: prints the check's wall time on a correct module; run with --ignored --nocapture"]
fn check_time_on_a_correct_module() {
    let path = module("limit_ai.py");
    let mut seconds: Vec<f64> = (0..7)
        .map(|_| {
            let began = std::time::Instant::now();
            let (code, out, err) = check(&["--agent", path.to_str().unwrap(), "--seed", "1"]);
            assert_eq!(code, 0, "{out}\n{err}");
            assert!(!out.contains("cause:"), "{out}");
            began.elapsed().as_secs_f64()
        })
        .collect();
    seconds.sort_by(f64::total_cmp);
    println!("check othello, limit_ai.py, 60 random cases: fastest {:.2} s, median {:.2} s", seconds[0], seconds[3]);
}

//! Causes of `check othello`: one mutant module per catalog entry, each written here as a small change to the
//! correct `limit_ai.py` (or `nolimit_ai.py`), must be named exactly: the functions it breaks carry that cause and
//! no other, the functions it leaves right carry none, and a correct module gets no cause at all.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use referee::harness::cause::CauseKind;
use referee::referee::othello::conformance::function::Function;
use referee::referee::othello::conformance::report::Report;
use referee::referee::othello::conformance::{run, Options};

const PYTHON: &str = "/usr/bin/python3";

/// The fixture `base` with `(from, to)` replacements (every occurrence) and `tail` appended (later definitions
/// override earlier ones), written as `name`.
fn mutant(base: &str, name: &str, swaps: &[(&str, &str)], tail: &str) -> PathBuf {
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/othello/modules");
    let mut source = std::fs::read_to_string(fixtures.join(base)).unwrap();
    for (from, to) in swaps {
        assert!(source.contains(from), "{name}: `{from}` is not in {base}");
        source = source.replace(from, to);
    }
    source.push_str(tail);
    let dir = tempfile::Builder::new().prefix("referee-othello-causes-").tempdir().unwrap().keep();
    std::fs::write(dir.join(name), source).unwrap();
    dir.join(name)
}

fn checked(path: &Path) -> Report {
    run(path, &Options { python: PYTHON.into(), seed: 5, cases: 12, ..Options::default() }).unwrap()
}

/// Asserts that exactly `broken` functions fail, each with exactly the causes `names` (of `kind`), and that the
/// others have no cause.
fn assert_named(report: &Report, broken: &[Function], names: &[&str], kind: CauseKind) {
    let want: BTreeSet<&str> = names.iter().copied().collect();
    for f in &report.functions {
        let got: BTreeSet<&str> = f.causes.iter().map(|c| c.name.as_str()).collect();
        if broken.contains(&f.function) {
            assert_eq!(got, want, "{:?}: {:#?}", f.function, f.causes);
            assert!(f.causes.iter().all(|c| c.kind == kind && !c.sentence.is_empty()), "{:#?}", f.causes);
            assert!(f.causes.iter().all(|c| c.evidence.iter().any(|e| e.starts_with("replay: referee check othello"))));
            assert_eq!(f.failed(), kind == CauseKind::Bug, "{:?}", f.function);
        } else {
            assert!(got.is_empty(), "{:?} should have no cause: {:#?}", f.function, f.causes);
            assert!(!f.failed(), "{:?} should pass: {:#?}", f.function, f.failures);
        }
    }
}

const LEAF: &str = "    if not moves or limit == 0:";

use Function::*;

#[test]
fn a_correct_module_gets_no_cause() {
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/othello/modules");
    for base in ["limit_ai.py", "nolimit_ai.py"] {
        let report = checked(&fixtures.join(base));
        assert!(report.passed(), "{report:#?}");
        assert_named(&report, &[], &[], CauseKind::Bug);
    }
}

#[test]
fn limit_at_the_root() {
    let path = mutant(
        "limit_ai.py",
        "deeper_ai.py",
        &[
            ("(board, color, limit, caching)[0]", "(board, color, limit + 1, caching)[0]"),
            ("float(\"inf\"), limit, caching, ordering)[0]", "float(\"inf\"), limit + 1, caching, ordering)[0]"),
        ],
        "",
    );
    assert_named(&checked(&path), &[SelectMoveMinimax, SelectMoveAlphabeta], &["limit-at-root"], CauseKind::Bug);
}

#[test]
fn limit_in_the_nodes() {
    let path = mutant("limit_ai.py", "early_ai.py", &[(LEAF, "    if not moves or limit <= 1:")], "");
    let all_searches =
        [SelectMoveMinimax, SelectMoveAlphabeta, MinimaxMaxNode, MinimaxMinNode, AlphabetaMaxNode, AlphabetaMinNode];
    assert_named(&checked(&path), &all_searches, &["limit-in-nodes"], CauseKind::Bug);
}

#[test]
fn utility_from_the_wrong_side_and_dark_minus_light() {
    let all = Function::ALL;
    let line = "return dark - light if color == 1 else light - dark";
    let wrong =
        mutant("limit_ai.py", "wrong_side_ai.py", &[(line, "return light - dark if color == 1 else dark - light")], "");
    assert_named(&checked(&wrong), &all, &["utility-wrong-side"], CauseKind::Bug);
    let dark = mutant("limit_ai.py", "dark_ai.py", &[(line, "return dark - light")], "");
    let report = checked(&dark);
    // Dark's utility is right when the root player is dark, so only the calls with light at the root differ.
    for f in report.functions.iter().filter(|f| f.failed()) {
        let names: Vec<&str> = f.causes.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["utility-dark-minus-light"], "{:?}", f.function);
    }
    assert!(report.functions.iter().filter(|f| f.failed()).count() >= 5, "{report:#?}");
}

#[test]
fn ties_to_the_last_equal_move() {
    let path = mutant(
        "limit_ai.py",
        "last_ties_ai.py",
        &[("if value < best_value:", "if value <= best_value:"), ("if value > best_value:", "if value >= best_value:")],
        "",
    );
    let report = checked(&path);
    let moves =
        [SelectMoveMinimax, SelectMoveAlphabeta, MinimaxMaxNode, MinimaxMinNode, AlphabetaMaxNode, AlphabetaMinNode];
    for f in &report.functions {
        let names: Vec<&str> = f.causes.iter().map(|c| c.name.as_str()).collect();
        if f.failed() {
            assert!(moves.contains(&f.function));
            assert_eq!(names, ["ties-to-last-move"], "{:?}", f.function);
        } else {
            assert!(names.is_empty(), "{:?}: {names:?}", f.function);
        }
    }
    assert!(report.functions.iter().filter(|f| f.failed()).count() >= 4, "{report:#?}");
}

/// A side with no move passes (one ply spent) instead of ending the game: wrapped around every node function.
const PASSING: &str = r#"

def _passing(name, other, mover, at):
    inner = globals()[name]

    def node(board, color, *args, **switches):
        side = mover(color)
        if args[at] > 0 and not get_possible_moves(board, side) and get_possible_moves(board, 3 - side):
            rest = list(args)
            rest[at] -= 1
            return None, globals()[other](board, color, *rest, **switches)[1]
        return inner(board, color, *args, **switches)

    node.__wrapped__ = inner
    globals()[name] = node


_passing("minimax_max_node", "minimax_min_node", lambda c: c, 0)
_passing("minimax_min_node", "minimax_max_node", lambda c: 3 - c, 0)
_passing("alphabeta_max_node", "alphabeta_min_node", lambda c: c, 2)
_passing("alphabeta_min_node", "alphabeta_max_node", lambda c: 3 - c, 2)
"#;

#[test]
fn a_side_without_moves_passes() {
    let report = checked(&mutant("limit_ai.py", "passing_ai.py", &[], PASSING));
    for f in report.functions.iter().filter(|f| f.failed()) {
        let names: Vec<&str> = f.causes.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["pass-not-terminal"], "{:?}", f.function);
    }
    assert!(report.functions.iter().any(|f| f.failed()), "the cases hold no position without a move: {report:#?}");
    assert!(report.functions.iter().all(|f| f.failed() || f.causes.is_empty()));
}

/// The Min nodes read `color` as the player to move (and score from the other side); the Max nodes hand the
/// opponent's color down. Internally consistent, so the select functions stay right.
const MOVER_LIMIT: &str = r#"

def minimax_min_node(board, color, limit, caching=0):
    moves = get_possible_moves(board, color)
    if not moves or limit == 0:
        return None, compute_utility(board, 3 - color)
    best_move, best_value = None, float("inf")
    for move in moves:
        _, value = _max(play_move(board, color, move[0], move[1]), 3 - color, limit - 1, caching)
        if value < best_value:
            best_move, best_value = move, value
    return best_move, best_value


def _max(board, color, limit, caching=0):
    moves = get_possible_moves(board, color)
    if not moves or limit == 0:
        return None, compute_utility(board, color)
    best_move, best_value = None, float("-inf")
    for move in moves:
        _, value = minimax_min_node(play_move(board, color, move[0], move[1]), 3 - color, limit - 1, caching)
        if value > best_value:
            best_move, best_value = move, value
    return best_move, best_value


minimax_max_node = _max
"#;

#[test]
fn the_mover_color_is_a_bug_with_limit() {
    let report = checked(&mutant("limit_ai.py", "mover_ai.py", &[], MOVER_LIMIT));
    assert_named(&report, &[MinimaxMinNode], &["min-node-color-is-mover"], CauseKind::Bug);
}

/// The older template's Min node reading `color` as the player to move.
const MOVER_OLD: &str = r#"

def minimax_min_node(board, color):
    moves = get_possible_moves(board, color)
    if not moves:
        return compute_utility(board, 3 - color)
    return min(_max(play_move(board, color, i, j), 3 - color) for i, j in moves)


def _max(board, color):
    moves = get_possible_moves(board, color)
    if not moves:
        return compute_utility(board, color)
    return max(minimax_min_node(play_move(board, color, i, j), 3 - color) for i, j in moves)


def select_move_minimax(board, color):
    best, best_value = None, float("-inf")
    for i, j in get_possible_moves(board, color):
        value = minimax_min_node(play_move(board, color, i, j), 3 - color)
        if value > best_value:
            best, best_value = (i, j), value
    return best


minimax_max_node = _max
"#;

#[test]
fn the_mover_color_is_an_accepted_reading_without_limit() {
    let report = checked(&mutant("nolimit_ai.py", "old_mover_ai.py", &[], MOVER_OLD));
    assert!(report.passed(), "{report:#?}");
    assert_named(&report, &[MinimaxMinNode], &["min-node-color-is-mover"], CauseKind::AcceptedReading);
}

#[test]
fn fail_hard_bounds_are_an_accepted_reading() {
    let path = mutant(
        "limit_ai.py",
        "hard_ai.py",
        &[
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
        ],
        "",
    );
    let report = checked(&path);
    assert!(report.passed(), "{report:#?}");
    assert_named(&report, &[AlphabetaMaxNode, AlphabetaMinNode], &["fail-hard"], CauseKind::AcceptedReading);
}

/// A cache shared by the minimax nodes, keyed by the board alone and kept between calls, used only when
/// `caching` is on: invisible to a check that always passes `caching=0`.
const CACHE: &str = r#"

CACHE = {}


def _cached(name):
    inner = globals()[name]

    def node(board, color, limit, caching=0):
        if caching and board in CACHE:
            return CACHE[board]
        result = inner(board, color, limit, caching)
        if caching:
            CACHE[board] = result
        return result

    globals()[name] = node


_cached("minimax_max_node")
_cached("minimax_min_node")
"#;

#[test]
fn a_cache_keyed_by_the_board_is_caught_with_the_switch_on() {
    let report = checked(&mutant("limit_ai.py", "cache_ai.py", &[], CACHE));
    let failing: Vec<Function> = report.functions.iter().filter(|f| f.failed()).map(|f| f.function).collect();
    assert!(
        !failing.is_empty() && failing.iter().all(|f| [SelectMoveMinimax, MinimaxMaxNode, MinimaxMinNode].contains(f))
    );
    for f in report.functions.iter().filter(|f| f.failed()) {
        let names: Vec<&str> = f.causes.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["cache-keyed-by-board"], "{:?}", f.function);
        assert!(f.failures.iter().all(|x| x.call.contains("caching=1")), "{:#?}", f.failures);
    }
}

#[test]
fn alpha_beta_without_pruning_is_seen_by_its_node_calls() {
    let path = mutant("limit_ai.py", "unpruned_ai.py", &[("            break", "            pass")], "");
    assert_named(&checked(&path), &[SelectMoveAlphabeta], &["no-pruning"], CauseKind::Bug);
}

#[test]
fn a_node_with_limit_must_return_the_move_too() {
    let path = mutant(
        "limit_ai.py",
        "bare_ai.py",
        &[],
        r#"

_min = minimax_min_node


def minimax_min_node(board, color, limit, caching=0):
    return _min(board, color, limit, caching)[1]


def minimax_max_node(board, color, limit, caching=0):
    moves = get_possible_moves(board, color)
    if not moves or limit == 0:
        return None, compute_utility(board, color)
    best_move, best_value = None, float("-inf")
    for move in moves:
        value = minimax_min_node(play_move(board, color, move[0], move[1]), color, limit - 1, caching)
        if value > best_value:
            best_move, best_value = move, value
    return best_move, best_value
"#,
    );
    assert_named(&checked(&path), &[MinimaxMinNode], &["value-without-move"], CauseKind::Bug);
}

#[test]
fn grading_gives_the_same_causes_as_feedback() {
    use referee::app::othello::grade_check::add_check;
    use referee::harness::model::{Status, SubmissionResult};
    let path = mutant(
        "limit_ai.py",
        "graded_ai.py",
        &[("(board, color, limit, caching)[0]", "(board, color, limit + 1, caching)[0]")],
        "",
    );
    let mut result = SubmissionResult {
        id: "s".into(),
        source: "s".into(),
        build: None,
        cases: Vec::new(),
        score: 0.0,
        max_score: 6.0,
        run: "r".into(),
        fingerprint: "f".into(),
        handin: String::new(),
        sandbox: Vec::new(),
    };
    add_check(
        &mut result,
        Some(&path),
        &Options { python: PYTHON.into(), seed: 5, cases: 12, ..Options::default() },
        6.0,
    );
    let select = result.cases.iter().find(|c| c.name == "conformance: select_move_minimax").unwrap();
    assert_eq!(select.status, Status::Failed);
    let names: Vec<&str> = select.causes.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["limit-at-root"]);
    assert!(
        !select.stdout.text.contains("cause:"),
        "the causes are shown once, by the renderers:\n{}",
        select.stdout.text
    );
    assert!(result.cases.iter().filter(|c| c.status == Status::Passed).all(|c| c.causes.is_empty()));
}

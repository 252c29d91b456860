//! Issue 34, item 3: `check othello` names a function as located only when the reference with that one function
//! replaced by the student's reproduces every answer observed. Generated modules: two single-function bugs of
//! [`UNSEEN`] put together in functions of different families (neither alone can reproduce the other's answers)
//! must name no function; correct modules in other structures (a shared private search, a full-key cache, moves
//! reordered under `ordering`, a select that loops itself) must get no cause and no symptom at all.

use proptest::prelude::*;

use referee::harness::cause::CauseKind;
use referee::referee::othello::conformance::function::Function;
use referee::referee::othello::conformance::report::Report;
use referee::referee::othello::conformance::{run, Options};

use crate::othello_causes::{module_with, Change, PYTHON, UNSEEN};

/// Whether `f` is one of the minimax family (else alpha-beta, or compute_utility).
fn family(f: Function) -> u8 {
    use Function::*;
    match f {
        SelectMoveMinimax | MinimaxMaxNode | MinimaxMinNode => 1,
        SelectMoveAlphabeta | AlphabetaMaxNode | AlphabetaMinNode => 2,
        ComputeUtility => 0,
    }
}

/// The single-function bugs that combine: changes inside one function's definition only, in a search family, and
/// no runaway search (those need the short timeout of their own tests).
fn singles() -> Vec<usize> {
    (0..UNSEEN.len())
        .filter(|&i| {
            let bug = &UNSEEN[i];
            bug.faulty.len() == 1
                && family(bug.faulty[0].0) != 0
                && bug.changes.iter().all(|c| matches!(c, Change::In(..)))
                && !["min-ignores-limit", "min-stops-at-one"].contains(&bug.name)
        })
        .collect()
}

fn check(path: &std::path::Path) -> Report {
    let options = Options { python: PYTHON.into(), seed: 5, cases: 6, ..Options::default() };
    run(path, &options).unwrap()
}

/// Every pair of combinable bugs in different families.
fn pairs() -> Vec<(usize, usize)> {
    let s = singles();
    let mut out = Vec::new();
    for &a in &s {
        for &b in &s {
            if a < b && family(UNSEEN[a].faulty[0].0) != family(UNSEEN[b].faulty[0].0) {
                out.push((a, b));
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3, failure_persistence: None, ..ProptestConfig::default() })]

    /// Two wrong functions, neither reproducing the other's answers: no function is named, none has a proof, and
    /// each wrong one says what differs instead.
    #[test]
    fn two_wrong_functions_are_not_named_one_by_one(pick in any::<prop::sample::Index>()) {
        let all = pairs();
        prop_assume!(!all.is_empty());
        let (a, b) = all[pick.index(all.len())];
        let (a, b) = (&UNSEEN[a], &UNSEEN[b]);
        let name = format!("pair-{}-{}", a.name, b.name);
        let changes: Vec<Change> = a.changes.iter().chain(b.changes).copied().collect();
        let report = check(&module_with(&name, &changes));
        let wrong = [a.faulty[0].0, b.faulty[0].0];
        let failing: Vec<Function> = report.functions.iter().filter(|f| f.failed()).map(|f| f.function).collect();
        prop_assert!(!report.passed(), "{name}: not caught");
        let both = wrong.iter().all(|w| failing.contains(w));
        for f in &report.functions {
            let located: Vec<&str> = f
                .causes
                .iter()
                .filter(|c| c.kind == CauseKind::LocatedComponent && !c.name.starts_with("only-with-"))
                .map(|c| c.name.as_str())
                .collect();
            if both {
                prop_assert!(located.is_empty(), "{name}: {:?} named without proof: {:#?}", f.function, f.causes);
                prop_assert!(f.proof.is_none(), "{name}: {:?}", f.function);
            } else if !located.is_empty() {
                // Only one of the two shows in these answers: it alone may be named, with its proof.
                prop_assert!(wrong.contains(&f.function) && f.proof.is_some(), "{name}: {:?}", f.function);
            }
        }
        if both {
            for w in wrong {
                let f = report.functions.iter().find(|f| f.function == w).unwrap();
                prop_assert!(
                    f.symptoms.iter().any(|s| s.contains("none is named")),
                    "{name}: {:?} says nothing of what differs: {:#?}",
                    w,
                    f.symptoms
                );
            }
        }
    }

    /// A correct module built differently from the template gets no cause and no symptom.
    #[test]
    fn correct_modules_of_other_structures_get_no_cause(
        shared_minimax in any::<bool>(),
        shared_alphabeta in any::<bool>(),
        cache in any::<bool>(),
        select_loops in any::<bool>(),
    ) {
        let mut tail = String::new();
        let mut name = String::from("correct");
        for (on, code, label) in [
            (shared_minimax, SHARED_MINIMAX, "shared-mm"),
            (shared_alphabeta, SHARED_ALPHABETA, "shared-ab"),
            (select_loops, SELECT_LOOPS, "select-loops"),
            (cache, FULL_CACHE, "cache"),
        ] {
            if on {
                tail.push_str(code);
                name.push('-');
                name.push_str(label);
            }
        }
        if !shared_alphabeta {
            tail.push_str(ORDERED);
        }
        let changes = [Change::Tail(Box::leak(tail.into_boxed_str()))];
        let report = check(&module_with(&name, &changes));
        prop_assert!(report.passed(), "{name}: {report:#?}");
        for f in &report.functions {
            prop_assert!(f.causes.is_empty() && f.symptoms.is_empty(), "{name}: {:?}: {:#?}", f.function, f.causes);
        }
    }
}

/// Both minimax nodes through one private search (the template's functions stay, as one-line wrappers).
const SHARED_MINIMAX: &str = r#"

def _minimax(board, color, limit, maximizing):
    side = color if maximizing else 3 - color
    moves = get_possible_moves(board, side)
    if not moves or limit == 0:
        return None, compute_utility(board, color)
    best = (None, float("-inf") if maximizing else float("inf"))
    for move in moves:
        _, value = _minimax(play_move(board, side, move[0], move[1]), color, limit - 1, not maximizing)
        if (value > best[1]) if maximizing else (value < best[1]):
            best = (move, value)
    return best


def minimax_max_node(board, color, limit, caching=0):
    return _minimax(board, color, limit, True)


def minimax_min_node(board, color, limit, caching=0):
    return _minimax(board, color, limit, False)
"#;

/// Both alpha-beta nodes through one private search, which orders the moves by the utility after them when
/// `ordering` is on (ties among equal moves then fall where the order puts them, which `ordering` allows).
const SHARED_ALPHABETA: &str = r#"

def _alphabeta(board, color, alpha, beta, limit, maximizing, ordering):
    side = color if maximizing else 3 - color
    moves = get_possible_moves(board, side)
    if not moves or limit == 0:
        return None, compute_utility(board, color)
    if ordering:
        after = lambda m: compute_utility(play_move(board, side, m[0], m[1]), color)
        moves = sorted(moves, key=after, reverse=maximizing)
    best = (None, float("-inf") if maximizing else float("inf"))
    for move in moves:
        child = play_move(board, side, move[0], move[1])
        _, value = _alphabeta(child, color, alpha, beta, limit - 1, not maximizing, ordering)
        if (value > best[1]) if maximizing else (value < best[1]):
            best = (move, value)
        if maximizing:
            if best[1] >= beta:
                break
            alpha = max(alpha, best[1])
        else:
            if best[1] <= alpha:
                break
            beta = min(beta, best[1])
    return best


def alphabeta_max_node(board, color, alpha, beta, limit, caching=0, ordering=0):
    return _alphabeta(board, color, alpha, beta, limit, True, ordering)


def alphabeta_min_node(board, color, alpha, beta, limit, caching=0, ordering=0):
    return _alphabeta(board, color, alpha, beta, limit, False, ordering)
"#;

/// The template's alpha-beta nodes, ordering their moves by the utility after them when `ordering` is on.
const ORDERED: &str = r#"

def _ordered(name):
    inner = globals()[name]
    side = (lambda color: color) if name == "alphabeta_max_node" else (lambda color: 3 - color)

    def node(board, color, alpha, beta, limit, caching=0, ordering=0):
        if not ordering:
            return inner(board, color, alpha, beta, limit, caching, ordering)
        import othello_shared
        original = othello_shared.get_possible_moves

        def moves_ordered(b, c):
            moves = original(b, c)
            if b is board and c == side(color):
                after = lambda m: compute_utility(play_move(b, c, m[0], m[1]), color)
                moves = sorted(moves, key=after, reverse=(c == color))
            return moves

        globals()["get_possible_moves"] = moves_ordered
        try:
            return inner(board, color, alpha, beta, limit, caching, ordering)
        finally:
            globals()["get_possible_moves"] = original

    globals()[name] = node


_ordered("alphabeta_max_node")
_ordered("alphabeta_min_node")
"#;

/// select_move_minimax loops over the moves itself and asks the Min node (keeping the first of equal moves).
const SELECT_LOOPS: &str = r#"

def select_move_minimax(board, color, limit, caching=0):
    if limit == 0:
        return None
    best_move, best_value = None, float("-inf")
    for move in get_possible_moves(board, color):
        _, value = minimax_min_node(play_move(board, color, move[0], move[1]), color, limit - 1, caching)
        if value > best_value:
            best_move, best_value = move, value
    return best_move
"#;

/// A cache of every node's answer keyed by everything it was given, used when `caching` is on.
const FULL_CACHE: &str = r#"

_CACHE = {}


def _cached(name):
    inner = globals()[name]

    def node(board, color, *args, **switches):
        key = (name, board, color) + tuple(args) + tuple(sorted(switches.items()))
        if switches.get("caching") and key in _CACHE:
            return _CACHE[key]
        result = inner(board, color, *args, **switches)
        if switches.get("caching"):
            _CACHE[key] = result
        return result

    node.__wrapped__ = inner
    globals()[name] = node


for _name in ("minimax_max_node", "minimax_min_node", "alphabeta_max_node", "alphabeta_min_node"):
    _cached(_name)
"#;

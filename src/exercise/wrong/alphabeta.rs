//! Alpha-beta with the pruning test as a student may write it: `v >= beta` (AIMA Figure 5.7, right) or
//! `v > beta` (strict, wrong), children left to right or right to left. Fail-soft like
//! [`crate::search::alpha_beta`]; its tests check that the right settings reproduce the key's trace exactly.

use crate::game::tree::{Exact, Kind, Tree};

/// What one alpha-beta run saw, by node id.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// Whether the search visited the node.
    pub visited: Vec<bool>,
    /// The value the node returned (a bound at a cut-off node), when visited.
    pub returned: Vec<Option<Exact>>,
    /// The node's final `(alpha, beta)` (a leaf's is the one it received), when visited.
    pub window: Vec<Option<(Exact, Exact)>>,
    /// The root's value.
    pub value: Exact,
}

/// How the search is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Method {
    /// Cut only when `v > beta` (MAX) or `v < alpha` (MIN).
    pub strict: bool,
    /// Children right to left.
    pub reverse: bool,
    /// The root's child (by position among the root's children) searched first, the others after it in the
    /// method's order.
    pub first: Option<usize>,
}

/// Runs alpha-beta on `tree` (MAX/MIN nodes and leaves) from `(-inf, +inf)`.
pub fn run(tree: &Tree, method: Method) -> Run {
    let n = tree.len();
    let mut run = Run { visited: vec![false; n], returned: vec![None; n], window: vec![None; n], value: Exact::NegInf };
    if n > 0 {
        run.value = node(tree, tree.root(), Exact::NegInf, Exact::PosInf, method, &mut run);
    }
    run
}

fn node(tree: &Tree, id: usize, mut alpha: Exact, mut beta: Exact, method: Method, run: &mut Run) -> Exact {
    run.visited[id] = true;
    let n = tree.node(id);
    let maximizing = match &n.kind {
        Kind::Leaf(q) => {
            let v = Exact::from_q(q).unwrap_or(Exact::NegInf);
            run.returned[id] = Some(v);
            run.window[id] = Some((alpha, beta));
            return v;
        }
        kind => *kind != Kind::Min,
    };
    let mut order = n.children.clone();
    if method.reverse {
        order.reverse();
    }
    if let Some(first) = method.first.filter(|_| id == tree.root()).and_then(|f| n.children.get(f).copied()) {
        order.retain(|&c| c != first);
        order.insert(0, first);
    }
    let mut v = if maximizing { Exact::NegInf } else { Exact::PosInf };
    for (i, &child) in order.iter().enumerate() {
        let cv = node(tree, child, alpha, beta, method, run);
        if i == 0 || (maximizing && cv > v) || (!maximizing && cv < v) {
            v = cv;
        }
        if maximizing {
            let cut = if method.strict { v > beta } else { v >= beta };
            if cut {
                break;
            }
            if v > alpha {
                alpha = v;
            }
        } else {
            let cut = if method.strict { v < alpha } else { v <= alpha };
            if cut {
                break;
            }
            if v < beta {
                beta = v;
            }
        }
    }
    run.returned[id] = Some(v);
    run.window[id] = Some((alpha, beta));
    v
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use proptest::prelude::*;

    use super::*;
    use crate::keys::number;
    use crate::keys::tree::order::ChildOrder;
    use crate::keys::tree::{notation, solve, trace};

    /// What the key's alpha-beta saw, in this module's shape.
    fn key_run(tree: &Tree, order: ChildOrder) -> Run {
        let values = solve::solve(tree).unwrap().values;
        let t = trace::trace(&order.game(tree, &values)).unwrap();
        let mut run = Run {
            visited: t.visited.clone(),
            returned: vec![None; tree.len()],
            window: vec![None; tree.len()],
            value: t.value,
        };
        for s in &t.steps {
            run.returned[s.node] = Some(s.value);
            run.window[s.node] = Some(s.window);
        }
        run
    }

    fn tree_text() -> impl Strategy<Value = String> {
        let leaf = (-3i64..6).prop_map(|v| v.to_string());
        leaf.prop_recursive(3, 40, 4, |inner| {
            prop::collection::vec(inner, 1..4).prop_map(|children| format!("[{}]", children.join(" ")))
        })
    }

    proptest! {
        #[test]
        fn the_right_settings_reproduce_the_key(text in tree_text()) {
            let tree = notation::parse(&text).unwrap();
            prop_assert_eq!(run(&tree, Method::default()), key_run(&tree, ChildOrder::Left));
            prop_assert_eq!(run(&tree, Method { reverse: true, ..Method::default() }), key_run(&tree, ChildOrder::Reverse));
        }
    }

    #[test]
    fn a_strict_test_misses_a_cut_on_equality() {
        // B's first leaf equals alpha (3): Figure 5.7 cuts there, a strict test searches B's other leaves.
        let tree = notation::parse("[A: [3 5] B: [3 9 1]]").unwrap();
        let right = run(&tree, Method::default());
        let strict = run(&tree, Method { strict: true, ..Method::default() });
        assert_eq!(right.visited.iter().filter(|v| !**v).count(), 2);
        assert!(strict.visited.iter().all(|v| *v));
        assert_eq!(right.value, strict.value);
        assert_eq!(right.value, Exact::from_q(&number::int(3)).unwrap());
    }
}

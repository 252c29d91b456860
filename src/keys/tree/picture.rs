//! What both pictures share: each node's caption (what alpha-beta knows of it, with the minimax value kept
//! apart), which edges alpha-beta pruned, and the legend of the symbols.

use super::trace::Trace;
use crate::game::tree::{Exact, Kind, Tree};
use crate::keys::number::{self, Q};

/// A node's caption: the main text, and the minimax (or expectimax) value shown apart, smaller, when the main
/// text is not that value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Caption {
    /// `A = 3`, `C ≤ 2`, `E: not searched`, a leaf's `12`.
    pub main: String,
    /// `minimax 1` when alpha-beta learned only a bound or nothing at all.
    pub minimax: Option<String>,
}

/// Node `id`'s caption. Without an alpha-beta run (`trace` is `None`: CHANCE trees) it is the node's value
/// (`A = 3`, `14/3`). With one, an inner node shows what the search knows: `= v` when the value it returned lies
/// inside the window it entered with (then it is the minimax value), `≤ v` when it returned at or below alpha,
/// `≥ v` at or above beta (the bound that let its parent stop), nothing for a node it never reached; the minimax
/// value then goes apart. Leaves show their given value.
pub fn caption(tree: &Tree, values: &[Q], trace: Option<&Trace>, id: usize) -> Caption {
    let value = number::fraction(&values[id]);
    let node = tree.node(id);
    let named = |relation: &str, shown: &str| match &node.label {
        Some(label) => format!("{label} {relation} {shown}"),
        None if id == tree.root() => format!("root {relation} {shown}"),
        None if relation == "=" => shown.to_string(),
        None => format!("{relation} {shown}"),
    };
    let plain = Caption { main: named("=", &value), minimax: None };
    let Some(trace) = trace else { return plain };
    if matches!(node.kind, Kind::Leaf(_)) {
        return Caption { main: value, minimax: None };
    }
    let apart = Some(format!("minimax {value}"));
    let Some(step) = trace.steps.iter().find(|s| s.node == id) else {
        let main = match &node.label {
            Some(label) => format!("{label}: not searched"),
            None => "not searched".to_string(),
        };
        return Caption { main, minimax: apart };
    };
    let (alpha, beta) = step.entry;
    let returned = step.value.to_string();
    match step.value {
        v if v <= alpha && alpha != Exact::NegInf => Caption { main: named("≤", &returned), minimax: apart },
        v if v >= beta && beta != Exact::PosInf => Caption { main: named("≥", &returned), minimax: apart },
        _ => plain,
    }
}

/// The legend of the pictures' symbols, one entry a line; `searched` when there was an alpha-beta run.
pub fn legend(searched: bool) -> Vec<&'static str> {
    let mut lines = vec!["▲ MAX   ▼ MIN   ● CHANCE   ■ leaf (its value)"];
    if searched {
        lines.extend([
            "A = v: the value alpha-beta found, the minimax value",
            "A ≤ v / A ≥ v: the bound alpha-beta returned (it stopped early); minimax v: the true value",
            "red dashed crossed edge: pruned; grey: never searched",
        ]);
    } else {
        lines.push("values are expectimax values; edge labels are probabilities");
    }
    lines
}

/// Whether the edge into `child` was pruned: its parent was visited and it was not. `visited` is `None` when
/// there was no alpha-beta run (CHANCE nodes), and then nothing is pruned.
pub fn pruned_edge(tree: &Tree, visited: Option<&[bool]>, child: usize) -> bool {
    match (visited, tree.node(child).parent) {
        (Some(v), Some(p)) => v[p] && !v[child],
        _ => false,
    }
}

/// Whether the search never looked at `id` (false when there was no alpha-beta run).
pub fn unvisited(visited: Option<&[bool]>, id: usize) -> bool {
    visited.is_some_and(|v| !v[id])
}

/// The probability on the edge into `id` when its parent is a CHANCE node.
pub fn edge_probability(tree: &Tree, id: usize) -> Option<String> {
    let parent = tree.node(id).parent?;
    if tree.node(parent).kind != Kind::Chance {
        return None;
    }
    tree.node(id).probability.as_ref().map(number::fraction)
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::game::tree::TreeGame;
    use crate::keys::tree::{notation::parse, solve::solve, trace::trace};

    #[test]
    fn a_cut_off_node_shows_its_bound_and_its_minimax_value_apart() {
        // AIMA Figure 5.5 with C's leaves changed: C stops after 2 <= alpha 3, though its minimax value is 1.
        let tree = parse("[B: [3 12 8] C: [2 1 6] D: [14 5 2] E: min [1 E1: [9 9]]]").unwrap();
        let values = solve(&tree).unwrap().values;
        let t = trace(&TreeGame::new(&tree)).unwrap();
        let at = |name: &str| (0..tree.len()).find(|&i| tree.name(i) == name).unwrap();
        let c = caption(&tree, &values, Some(&t), at("C"));
        assert_eq!((c.main.as_str(), c.minimax.as_deref()), ("C ≤ 2", Some("minimax 1")));
        let b = caption(&tree, &values, Some(&t), at("B"));
        assert_eq!((b.main.as_str(), b.minimax), ("B = 3", None));
        let e1 = caption(&tree, &values, Some(&t), at("E1"));
        assert_eq!((e1.main.as_str(), e1.minimax.as_deref()), ("E1: not searched", Some("minimax 9")));
        let root = caption(&tree, &values, Some(&t), tree.root());
        assert_eq!((root.main.as_str(), root.minimax), ("root = 3", None));
    }
}
